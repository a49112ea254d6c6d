import { execFileSync } from 'node:child_process';
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

/** Installs Debian's chromium package when it is missing (`apt-get`, as root); returns its path. */
function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const apt = (...args: string[]) =>
    execFileSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 600_000,
    });
  apt('update', '-qq');
  apt('install', '-y', '-qq', 'chromium');
  if (!existsSync(CHROMIUM))
    throw new Error(`apt-get installed chromium but ${CHROMIUM} is missing`);
  return CHROMIUM;
}

/** A headless Chromium through playwright-core; close it in the test's teardown. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: ensureChromium(),
    headless: true,
    args: CHROMIUM_FLAGS,
  });
}
