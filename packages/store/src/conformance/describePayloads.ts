import { describe, expect, it } from 'vitest';
import type { ExpectedRevision } from '@agentlog/core';
import {
  largeTestTimeoutMs,
  uniqueStreamId,
  newEvent,
  numbered,
  stored,
  revisions,
  type StoreUnderTest,
} from './conformanceHelpers.js';

/**
 * Registers the conformance tests of payloads: unicode round trips, a 1 MB event and a stream of
 * 10,000 events read fully and in pages.
 */
export function describePayloads(store: StoreUnderTest): void {
  describe('payloads', () => {
    it('round-trips unicode: emoji, right-to-left text and control characters', async () => {
      const streamId = uniqueStreamId('unicode');
      const data = {
        emoji: '🚀👩‍👩‍👧‍👦🏳️‍🌈 é vs é',
        rtl: 'مرحبا بالعالم — שלום עולם \u202Eabc\u202C',
        control: 'tab\there\nnew line\r\u0001\u0008\u001b[31m\u001f\u007f\u0085\u2028\u2029',
        quotes: `"'\\\`{}[]`,
        astral: '𝄞 𠜎 \uFFFD \uFEFF',
        '🔑 key with émoji': ['ключ', '鍵', 'مفتاح'],
      };
      const event = newEvent('Unicode ✓ événement', data);
      await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
      expect(await store().readStream(streamId)).toEqual(stored([event]));
    });

    it('accepts unicode in stream ids', async () => {
      const streamId = uniqueStreamId('ünïcødé-🚀-مرحبا');
      await store().appendToStream(streamId, numbered(1), { expectedRevision: 'noStream' });
      expect(revisions(await store().readStream(streamId))).toEqual([0]);
      expect(await store().listStreams()).toContain(streamId);
    });

    it(
      'round-trips a payload of about 1 MB',
      async () => {
        const streamId = uniqueStreamId('large');
        const chunk = 'agentlog ✓ 🚀 0123456789 abcdefghijklmnopqrstuvwxyz\n';
        const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
        const rows = Array.from({ length: 2_000 }, (_, index) => ({
          index,
          label: `row ${index}`,
          ok: index % 2 === 0,
        }));
        const event = newEvent('Large', {
          text,
          rows,
          numbers: [0, -1, 1.5, 1e300, -0.000001, 2 ** 53 - 1],
        });
        expect(JSON.stringify(event).length).toBeGreaterThan(1_000_000);
        await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
        expect(await store().readStream(streamId)).toEqual(stored([event]));
      },
      largeTestTimeoutMs,
    );

    it(
      'keeps a stream of 10,000 events appended in batches of 500 and reads it fully and in pages',
      async () => {
        const streamId = uniqueStreamId('ten-thousand');
        const total = 10_000;
        const batchSize = 500;
        let expectedRevision: ExpectedRevision = 'noStream';
        for (let start = 0; start < total; start += batchSize) {
          const result = await store().appendToStream(streamId, numbered(batchSize, start), {
            expectedRevision,
          });
          expect(result.nextExpectedRevision).toBe(start + batchSize - 1);
          expectedRevision = result.nextExpectedRevision;
        }
        const all = await store().readStream(streamId);
        expect(all).toHaveLength(total);
        all.forEach((event, index) => {
          expect(event.metadata.revision).toBe(index);
          expect(event.data).toEqual({ n: index });
        });

        const pageSize = 1_234;
        const paged: number[] = [];
        for (let from = 0; ; from += pageSize) {
          const page = await store().readStream(streamId, {
            fromRevision: from,
            maxCount: pageSize,
          });
          if (page.length === 0) break;
          expect(page.length).toBeLessThanOrEqual(pageSize);
          paged.push(...revisions(page));
        }
        expect(paged).toEqual(revisions(all));

        const backwards = await store().readStream(streamId, {
          direction: 'backwards',
          maxCount: 3,
        });
        expect(revisions(backwards)).toEqual([9_999, 9_998, 9_997]);
      },
      largeTestTimeoutMs,
    );
  });
}
