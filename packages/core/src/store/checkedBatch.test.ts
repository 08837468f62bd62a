import { describe, expect, it } from 'vitest';
import { frozenJsonCopy } from '../support/frozenJsonCopy.js';
import { isCheckedBatch, markCheckedBatch } from './checkedBatch.js';
import { createInMemoryEventStore } from './inMemoryEventStore.js';
import { assertValidNewEvents } from './streamValidation.js';

const metadata = (eventId: string) =>
  Object.freeze({ eventId, at: '2026-12-02T00:00:00.000Z', schemaVersion: 4 });

describe('checked batches: what the writer checked is not walked or copied again (issue 21)', () => {
  it('EVT-2 marking freezes the batch; an unmarked batch is not checked', () => {
    const batch = [{ type: 'A', data: frozenJsonCopy({ a: 1 }), metadata: metadata('e1') }];
    expect(isCheckedBatch(batch)).toBe(false);
    const marked = markCheckedBatch(batch);
    expect(isCheckedBatch(marked)).toBe(true);
    expect(Object.isFrozen(marked)).toBe(true);
    expect(isCheckedBatch([...marked])).toBe(false);
  });

  it('EVT-2 the in-memory store keeps a checked batch’s frozen data and copies any other caller’s', async () => {
    const store = createInMemoryEventStore();
    const checkedData = frozenJsonCopy({ nested: { value: 'checked' } });
    const callerData = { nested: { value: 'caller' } };
    await store.appendToStream(
      's',
      markCheckedBatch([{ type: 'A', data: checkedData, metadata: metadata('e1') }]),
      { expectedRevision: 'noStream' },
    );
    await store.appendToStream('s', [{ type: 'B', data: callerData, metadata: metadata('e2') }], {
      expectedRevision: 0,
    });
    const [first, second] = await store.readStream('s');
    expect(first?.data).toBe(checkedData);
    expect(second?.data).not.toBe(callerData);
    expect(second?.data).toEqual(callerData);
    expect(Object.isFrozen((second?.data as { nested: object }).nested)).toBe(true);
    expect(first?.metadata).toEqual({ ...metadata('e1'), revision: 0 });
  });

  it('EVT-2 only the batch marked last counts as checked: an earlier one is walked again', () => {
    const first = markCheckedBatch([
      { type: 'A', data: frozenJsonCopy({ a: 1 }), metadata: metadata('e1') },
    ]);
    const second = markCheckedBatch([
      { type: 'B', data: frozenJsonCopy({ b: 2 }), metadata: metadata('e2') },
    ]);
    expect(isCheckedBatch(second)).toBe(true);
    expect(isCheckedBatch(first)).toBe(false);
    expect(isCheckedBatch([])).toBe(false);
  });

  it('EVT-2 a store that looks at a batch after another was marked still refuses data that is not JSON', async () => {
    const store = createInMemoryEventStore();
    // Frozen like a writer's batch, but its data holds a Date: only the walk can catch it.
    const hidden = markCheckedBatch([
      { type: 'A', data: Object.freeze({ when: new Date(0) }), metadata: metadata('e1') },
    ]);
    markCheckedBatch([{ type: 'B', data: frozenJsonCopy({}), metadata: metadata('e2') }]);
    await expect(
      store.appendToStream('s', hidden, { expectedRevision: 'noStream' }),
    ).rejects.toThrow('events[0].data.when (a Date, not a plain object) is not plain JSON');
    expect(await store.readStream('s')).toEqual([]);
  });

  it('EVT-6 an unchecked batch is still walked: data that is not JSON is refused, naming where', () => {
    const bad = [{ type: 'A', data: { when: new Date(0) }, metadata: metadata('e1') }];
    expect(() => assertValidNewEvents(bad)).toThrow(
      'events[0].data.when (a Date, not a plain object) is not plain JSON',
    );
  });
});
