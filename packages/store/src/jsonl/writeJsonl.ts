import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { StreamEvent } from '@agentlog/core';
import { storeUnavailable } from '../storeErrors.js';
import { withJsonlLock } from './withJsonlLock.js';

/**
 * Writes `events` to `path` as JSON Lines (one event per line, each ending in `\n`), creating the
 * parent folder. Atomic: the lines go to a temporary file that is flushed and then renamed over
 * `path` (under the lock `appendJsonl` takes, so an append in progress finishes first), so a crash
 * leaves either the old file or the new one. A failure of the file system
 * (no space, no permission) is `AgentError('storeUnavailable')` naming the file, with the file
 * system's error as `cause`; the old file is then left as it was.
 */
export async function writeJsonl(path: string, events: readonly StreamEvent[]): Promise<void> {
  const text = jsonlText(events);
  const folder = dirname(path);
  // In the same folder, so the rename cannot cross file systems.
  const temporary = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(folder, { recursive: true });
    await writeAndSync(temporary, 'wx', text);
    // Under the appenders' lock, so an append in progress is never renamed away half done.
    await withJsonlLock(path, () => rename(temporary, path));
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw storeUnavailable(`JSONL file ${path}`, 'writing it failed', error);
  }
}

/** The JSON Lines text of `events`: one line each, every line ending in `\n`. */
export function jsonlText(events: readonly StreamEvent[]): string {
  // JSON.stringify escapes newlines inside strings, so a `\n` only ever ends an event.
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}

/**
 * Writes `text` with the open `flags` in as few `write` calls as the system allows (not
 * `writeFile`, which cuts it into 512 KiB pieces), and flushes it to disk before closing.
 */
export async function writeAndSync(path: string, flags: 'wx' | 'a', text: string): Promise<void> {
  const handle = await open(path, flags);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let written = 0; written < bytes.length;) {
      const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
      written += bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}
