import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '@agentlog/core';
import { appendJsonl } from './appendJsonl.js';
import { readJsonl } from './readJsonl.js';
import { writeJsonl } from './writeJsonl.js';

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

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

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
});
