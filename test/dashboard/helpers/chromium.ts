import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../../helpers/browser.js';
import { ensureBundle } from './bundle.js';

/** The built page and the Chromium a test file drives it in. */
interface Chromium {
  readonly browser: Browser;
  /** The built page's directory (`dist/dashboard`). */
  readonly bundle: string;
}

/**
 * The page built (when stale) and one Chromium launched before the first test of the file that
 * calls it at its top level, closed after its last: `const chromium = useChromium();` in place
 * of the two `let`s and two hooks the browser suites wrote again. Read before the first test, it
 * throws.
 */
export function useChromium(): Chromium {
  let browser: Browser | undefined;
  let bundle: string | undefined;
  beforeAll(async () => {
    bundle = await ensureBundle();
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('no browser before the first test: useChromium()');
    return value;
  };
  return {
    get browser() {
      return ready(browser);
    },
    get bundle() {
      return ready(bundle);
    },
  };
}
