import { sleep } from '../conformance/conformanceHelpers.js';

/** Polls `check` every 20 ms until it holds; fails after `timeoutMs`, naming `what`. */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(20);
  }
}
