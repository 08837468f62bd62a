import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { floorPing } from './floorPing.js';

/**
 * The floor with a file: the floor loop of `floorPing.ts`, each event appended to a JSONL file as
 * it happens, one `fs.writeSync` of one line per event, never an fsync. That is what SQLite with
 * durability `process` promises (a commit survives the process, not the machine), at the least
 * cost a file can give it: no transaction, no index, no read of what is there. agentlog makes
 * two commits a step (the model's answer with the starts of its calls, then the outcomes); the
 * floor makes two writes a step (its answer, then the tool's output). Returns seconds.
 */
export async function floorJsonlPing(steps: number): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-floor-'));
  const fd = openSync(join(dir, 'events.jsonl'), 'a');
  try {
    return await floorPing(steps, {
      record: (record) => {
        writeSync(fd, `${JSON.stringify(record)}\n`);
      },
    });
  } finally {
    closeSync(fd);
    await rm(dir, { recursive: true, force: true });
  }
}
