/**
 * Polls `check` every `everyMs` until it holds; rejects naming `what` once `ms` have passed. For
 * waiting on what the controllers do by themselves (a replica leads, an alert arrives), never for
 * timing them.
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
  everyMs = 20,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
