import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AgentlogError, type StreamEvent } from '@agentlog/core';
import { guardStore } from '../storeErrors.js';
import { withJsonlLock } from './withJsonlLock.js';
import { jsonlText, writeAndSync } from './writeJsonl.js';

/**
 * Appends `events` to the JSON Lines file at `path` (created with its folder if missing), for
 * exporting a stream as it grows. Refuses (`'tornJsonl'`) a file whose last line is torn, since
 * appending would bury that line in the middle; not atomic, unlike `writeJsonl`: a failed append
 * may leave a torn last line, which `readJsonl` reports. Two processes appending to one file take
 * turns under its lock file `<path>.lock` (see `withJsonlLock`), so their lines never interleave;
 * a writer still holding it after 10 s is named in the error. A failure of the file system is
 * `AgentError('storeUnavailable')` naming the file, with the file system's error as `cause`.
 */
export async function appendJsonl(path: string, events: readonly StreamEvent[]): Promise<void> {
  const text = jsonlText(events);
  await guardStore(`JSONL file ${path}`, 'appending to it failed', async () => {
    await mkdir(dirname(path), { recursive: true });
    await withJsonlLock(path, async () => {
      if (!(await endsWithNewline(path))) {
        throw new AgentlogError(
          'tornJsonl',
          `${path} does not end with a newline (its last line is torn): read it with readJsonl and rewrite it with writeJsonl before appending`,
        );
      }
      await writeAndSync(path, 'a', text);
    });
  });
}

/** True for a missing or empty file, or one whose last byte is `\n`. */
async function endsWithNewline(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}
