import { Anchor, type AnchorProps } from '@mantine/core';
import { type MouseEvent, type ReactNode, useSyncExternalStore } from 'react';

/**
 * The page's URL as state, on the plain history API: {@link navigate} pushes a path, the back
 * button pops one, and every component reading {@link useLocation} renders again. No router
 * library: the page has a handful of views (web/src/views.ts) and no nested layouts.
 */

const CHANGED = 'platctl:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

const snapshot = () => `${window.location.pathname}${window.location.search}`;

/** The current path and query, e.g. `{ pathname: '/', search: '?condition=Drifted' }`. */
export function useLocation(): { readonly pathname: string; readonly search: string } {
  return splitHref(useSyncExternalStore(subscribe, snapshot));
}

/**
 * The part of the URL `select` keeps, as `useLocation` gives it: the component renders again
 * only when that part changes (the page leaves a view's own query to the view, issue 26).
 */
export function useLocationOf(select: (pathname: string, search: string) => string): {
  readonly pathname: string;
  readonly search: string;
} {
  return splitHref(
    useSyncExternalStore(subscribe, () => select(window.location.pathname, window.location.search)),
  );
}

function splitHref(href: string): { readonly pathname: string; readonly search: string } {
  const at = href.indexOf('?');
  return at < 0
    ? { pathname: href, search: '' }
    : { pathname: href.slice(0, at), search: href.slice(at) };
}

/** Goes to `to` (a path with an optional query); `replace` keeps the back button where it was. */
export function navigate(to: string, replace = false): void {
  if (to === snapshot()) return;
  if (replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(CHANGED));
}

/** `href` and `onClick` for any element rendered as `<a>` (a Mantine `component="a"`). */
export function linkProps(to: string) {
  return {
    href: to,
    onClick: (e: MouseEvent<HTMLAnchorElement>) => {
      if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      navigate(to);
    },
  };
}

interface LinkProps extends AnchorProps {
  readonly to: string;
  readonly children: ReactNode;
  readonly title?: string;
  readonly 'data-testid'?: string;
}

/**
 * A real link (`<a href>`: focusable, Enter opens it, a middle click opens a tab) that moves
 * inside the page without loading it again.
 */
export function Link({ to, children, ...rest }: LinkProps) {
  return (
    <Anchor {...linkProps(to)} {...rest}>
      {children}
    </Anchor>
  );
}
