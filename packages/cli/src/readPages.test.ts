import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonl } from '@agentlog/store/jsonl';
import { readOnlyJsonlStore } from './readOnlyJsonlStore.js';
import { readPages } from './readPages.js';

const fixture = resolve(
  import.meta.dirname,
  '../../../fixtures/sessions/HITL-5-shadowed-approval.jsonl',
);

describe('readPages: inspect reads a stream in pages, never whole', () => {
  it('yields every event once, in order, in pages of at most the page size', async () => {
    const { events } = await readJsonl(fixture);
    const store = readOnlyJsonlStore(fixture, events);
    const pages: number[][] = [];
    for await (const page of readPages(store, 'HITL-5-shadowed-approval', 4))
      pages.push(page.map((event) => event.metadata.revision));
    expect(pages.every((page) => page.length > 0 && page.length <= 4)).toBe(true);
    expect(pages.flat()).toEqual(events.map((event) => event.metadata.revision));
    expect(pages.length).toBe(Math.ceil(events.length / 4));
  });

  it('yields nothing for a stream that does not exist', async () => {
    const store = readOnlyJsonlStore(fixture, (await readJsonl(fixture)).events);
    const pages = [];
    for await (const page of readPages(store, 'nope')) pages.push(page);
    expect(pages).toEqual([]);
  });
});
