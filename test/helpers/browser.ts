import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; playwright-core downloads no browser of its own. */
const CHROMIUM = '/usr/bin/chromium';

/**
 * Without these Chromium, started as root on a machine with no outside network, either refuses to
 * start (sandbox) or keeps opening connections to Google's services that the machine refuses.
 */
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** Whether Debian's Chromium is installed (`.ci/run` installs it; no test installs anything). */
export function browserInstalled(): boolean {
  return existsSync(CHROMIUM);
}

function chromiumPath(): string {
  if (browserInstalled()) return CHROMIUM;
  throw new Error(
    `the browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium (as root; .ci/run does), or run npm test, which leaves them out`,
  );
}

/** A headless Chromium through playwright-core; close it in the test's teardown. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}
