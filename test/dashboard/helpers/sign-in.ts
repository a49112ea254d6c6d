import type { Browser, Page } from 'playwright-core';
import type { Status } from '../../../web/src/api/status.js';
import type { FakeControlApi } from './fake-control-api.js';

/** A plain leader's status with these counts. */
export function statusFor(counts: Status['counts'], extra: Partial<Status> = {}): Status {
  return {
    source: { repo: 'https://git.example.invalid/platform.git', branch: 'main', path: 'platform/' },
    role: 'leader',
    suspended: false,
    dryRun: false,
    selfHeal: true,
    revisions: { lastApplied: { revision: 'b'.repeat(40), message: 'Add the GPU pool' } },
    sourceReady: true,
    rejected: [],
    counts,
    lastResult: 'succeeded',
    ...extra,
  };
}

/** A new page on the fake's dashboard, signed in with its token, the summary shown. */
export async function signIn(
  browser: Browser,
  fake: FakeControlApi,
  viewport = { width: 1400, height: 1000 },
): Promise<Page> {
  // a context of its own: axe-core's builder asks for one
  const page = await (await browser.newContext({ viewport })).newPage();
  await page.goto(fake.url);
  await page.getByTestId('token-input').fill(fake.token);
  await page.getByTestId('token-submit').click();
  await page.getByTestId('summary').waitFor();
  return page;
}
