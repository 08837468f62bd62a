import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '@agentlog/core';
import { appendJsonl } from './appendJsonl.js';
import { readJsonl } from './readJsonl.js';
import { writeJsonl } from './writeJsonl.js';
import { rejection } from '../test/rejection.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-jsonl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event = (revision: number, data: unknown = { n: revision }): StreamEvent => ({
  type: 'Numbered',
  data,
  metadata: {
    eventId: `e-${revision}`,
    at: '2025-01-02T03:04:05.678Z',
    schemaVersion: 1,
    revision,
  },
});
const line = (e: StreamEvent): string => `${JSON.stringify(e)}\n`;

describe('JSON Lines export', () => {
  it('round-trips events, unicode included, one line each, and creates the folder', async () => {
    const path = join(dir, 'nested', 'run.jsonl');
    const events = [
      event(0, { text: 'line one\nline two\r\n\u2028\u2029', emoji: '🚀👩‍👩‍👧‍👦', rtl: 'مرحبا' }),
      event(1, ['ключ', '鍵', null, true, 1.5]),
      event(2, 'plain'),
    ];
    await writeJsonl(path, events);
    const text = readFileSync(path, 'utf8');
    expect(text.split('\n')).toHaveLength(4);
    expect(text.endsWith('\n')).toBe(true);
    expect(await readJsonl(path)).toEqual({ events });
  });

  it('replaces a file atomically, leaving no temporary file behind', async () => {
    const path = join(dir, 'replaced.jsonl');
    await writeJsonl(path, [event(0), event(1)]);
    await writeJsonl(path, [event(7)]);
    expect((await readJsonl(path)).events).toEqual([event(7)]);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('reports a torn last line and returns the events before it', async () => {
    const path = join(dir, 'torn.jsonl');
    const torn = line(event(2)).slice(0, 25);
    writeFileSync(path, line(event(0)) + line(event(1)) + torn);
    expect(await readJsonl(path)).toEqual({
      events: [event(0), event(1)],
      tornLine: { line: 3, text: torn },
    });
  });

  it('accepts blank trailing lines', async () => {
    const path = join(dir, 'blank.jsonl');
    writeFileSync(path, `${line(event(0))}\n\n`);
    expect(await readJsonl(path)).toEqual({ events: [event(0)] });
  });

  it('refuses a malformed line in the middle, naming the file and the line', async () => {
    const path = join(dir, 'malformed.jsonl');
    writeFileSync(path, line(event(0)) + line(event(1)) + '{"type": oops\n' + line(event(3)));
    const error = await rejection(readJsonl(path));
    expect(error).toMatchObject({ code: 'malformedJsonl' });
    expect(error.message).toContain(path);
    expect(error.message).toContain('line 3');
  });

  it('refuses an invalid last line that ends with a newline: it was written whole', async () => {
    const path = join(dir, 'whole.jsonl');
    writeFileSync(path, line(event(0)) + '{"type"\n');
    await expect(readJsonl(path)).rejects.toMatchObject({ code: 'malformedJsonl' });
  });

  it('refuses a line that is JSON but not an event, naming the line', async () => {
    const path = join(dir, 'shape.jsonl');
    writeFileSync(path, line(event(0)) + '{"type":"A","data":1}\n');
    const error = await rejection(readJsonl(path));
    expect(error).toMatchObject({ code: 'malformedJsonl' });
    expect(error.message).toContain('line 2');
    expect(error.message).toContain('metadata');
  });

  it('names the path of a missing file', async () => {
    const path = join(dir, 'missing.jsonl');
    const error = await rejection(readJsonl(path));
    expect(error).toMatchObject({ code: 'jsonlNotFound' });
    expect(error.message).toContain(path);
  });

  it('appends to a file incrementally, creating it first', async () => {
    const path = join(dir, 'appended', 'run.jsonl');
    await appendJsonl(path, [event(0)]);
    await appendJsonl(path, [event(1), event(2)]);
    expect((await readJsonl(path)).events).toEqual([event(0), event(1), event(2)]);
  });

  it('refuses to append after a torn last line', async () => {
    const path = join(dir, 'torn-append.jsonl');
    writeFileSync(path, line(event(0)) + '{"ty');
    await expect(appendJsonl(path, [event(1)])).rejects.toMatchObject({ code: 'tornJsonl' });
    expect(readFileSync(path, 'utf8')).toBe(line(event(0)) + '{"ty');
  });

  it('EVT-4 JSONL: skips a byte order mark (U+FEFF) at the start of the file, as editors on Windows write one', async () => {
    const path = join(dir, 'bom.jsonl');
    writeFileSync(path, `\uFEFF${line(event(0))}${line(event(1))}`);
    expect(await readJsonl(path)).toEqual({ events: [event(0), event(1)] });
    // Appending keeps the mark where it is, and the file still reads.
    await appendJsonl(path, [event(2)]);
    expect((await readJsonl(path)).events).toEqual([event(0), event(1), event(2)]);
  });

  it('EVT-4 JSONL: names a byte order mark (U+FEFF) at the start of a later line (two files joined), with the file and the line', async () => {
    const path = join(dir, 'joined.jsonl');
    writeFileSync(path, `\uFEFF${line(event(0))}\uFEFF${line(event(1))}${line(event(2))}`);
    const error = await rejection(readJsonl(path));
    expect(error).toMatchObject({ code: 'malformedJsonl' });
    expect(error.message).toBe(
      `${path}, line 2: it starts with a byte order mark (U+FEFF), which JSON does not allow`,
    );
    expect(error.message).not.toContain('\uFEFF');
  });

  it('EVT-4 JSONL: keeps a byte order mark inside a string of the data', async () => {
    const path = join(dir, 'bom-data.jsonl');
    const events = [event(0, { text: '\uFEFFquoted' })];
    await writeJsonl(path, events);
    expect((await readJsonl(path)).events).toEqual(events);
  });

  it('RES-5 JSONL: a file system failure is storeUnavailable naming the file, with the error as cause; nothing is left half written', async () => {
    const folder = join(dir, 'a-folder.jsonl');
    mkdirSync(folder);
    const read = await rejection(readJsonl(folder));
    expect(read).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
    expect(read.message).toMatch(new RegExp(`^JSONL file ${folder}: reading it failed: EISDIR`));
    expect(read.cause).toMatchObject({ code: 'EISDIR' });

    const write = await rejection(writeJsonl(folder, [event(0)]));
    expect(write).toMatchObject({ code: 'storeUnavailable' });
    expect(write.message).toMatch(new RegExp(`^JSONL file ${folder}: writing it failed: `));
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);

    const append = await rejection(appendJsonl(folder, [event(0)]));
    expect(append).toMatchObject({ code: 'storeUnavailable' });
    expect(append.message).toMatch(new RegExp(`^JSONL file ${folder}: appending to it failed: `));
    expect(readdirSync(folder)).toEqual([]);
  });
});
