import { readFileSync } from 'node:fs';
import { PlatctlError } from '../../core/errors.js';
import type { Shape } from './shapes.js';

/** Where the controller is and how to prove who we are. */
export interface ControlTarget {
  /** Base URL of the controller's server (`http://platctl-controller:8080`). */
  readonly url: string;
  readonly token: string;
}

/**
 * The controller and token from flags or the environment: `--controller` or
 * `PLATCTL_CONTROLLER_URL`; `--control-token-file` or `PLATCTL_CONTROL_TOKEN`. Reads the token file.
 * Throws a `config` error naming what is missing; the token never appears in a message.
 */
export function controlTarget(flags: {
  controller?: string;
  controlTokenFile?: string;
}): ControlTarget {
  const url = flags.controller ?? process.env.PLATCTL_CONTROLLER_URL;
  if (!url) {
    throw new PlatctlError(
      'config',
      'no controller: pass --controller URL or set PLATCTL_CONTROLLER_URL',
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PlatctlError(
      'usage',
      `--controller wants an http(s) URL, got ${JSON.stringify(url)}`,
    );
  }
  if (parsed.username || parsed.password) {
    throw new PlatctlError(
      'usage',
      '--controller must not embed credentials; use --control-token-file',
    );
  }
  let token = process.env.PLATCTL_CONTROL_TOKEN;
  if (flags.controlTokenFile) {
    try {
      token = readFileSync(flags.controlTokenFile, 'utf8').trim();
    } catch {
      throw new PlatctlError(
        'config',
        `control token file ${flags.controlTokenFile} is missing or unreadable`,
      );
    }
  }
  if (!token) {
    throw new PlatctlError(
      'config',
      'no control token: pass --control-token-file or set PLATCTL_CONTROL_TOKEN',
    );
  }
  return { url: url.replace(/\/+$/, ''), token };
}

/**
 * One control API call (I/O): JSON in and out, the token in the Authorization header. Non-2xx
 * answers throw a `control` error carrying the API's `{error}` message, after `what` (the
 * command's words, e.g. `power off ComputeInstance/p/w/n`; default `METHOD path`); a 2xx answer
 * that does not have the `shape` the command reads throws one too (never a crash, never a false
 * success).
 */
export async function callControl<T>(
  target: ControlTarget,
  method: 'GET' | 'POST',
  path: string,
  shape: Shape<T>,
  body?: unknown,
  what = `${method} ${path}`,
): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${target.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(150_000),
    });
  } catch (err) {
    throw new PlatctlError(
      'control',
      `cannot reach the controller at ${target.url}: ${(err as Error).message}`,
    );
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    throw new PlatctlError(
      'control',
      `the controller answered ${res.status} with a body that is not JSON`,
    );
  }
  if (!res.ok) {
    const message = (parsed as { error?: string } | undefined)?.error ?? `HTTP ${res.status}`;
    const hint =
      res.status === 401
        ? ' (check --control-token-file / PLATCTL_CONTROL_TOKEN)'
        : res.status === 404 && message === 'control API disabled'
          ? ' (start the controller with --control-token-file)'
          : '';
    throw new PlatctlError('control', `${what}: ${message}${hint}`);
  }
  const wrong = shape(parsed);
  if (wrong !== undefined) {
    throw new PlatctlError(
      'control',
      `${what}: ${wrong}: not the answer of a platctl controller (is ${target.url} one, and as new as this platctl?)`,
    );
  }
  return parsed as T;
}
