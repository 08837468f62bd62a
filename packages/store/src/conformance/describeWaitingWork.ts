import { describe, expect, it } from 'vitest';
import {
  found,
  moveTo,
  streamWith,
  uniqueAgent,
  type WorkIndexUnderTest,
} from './workIndexHelpers.js';

/**
 * Registers the conformance tests of the `waiting` status (SPEC WRK-2): a stream stopped for a
 * person's decision is listed as `waiting`, no worker is sent to it, and the decision that makes
 * it `ready` makes `findWork` list it.
 */
export function describeWaitingWork(subject: WorkIndexUnderTest): void {
  describe('a stream that waits for a person (WRK-2)', () => {
    it('WRK-2: a stream that waits for a decision is waiting in workOf, and findWork never lists it', async () => {
      const agent = uniqueAgent('waiting');
      const streamId = await streamWith(subject, 'waiting', { status: 'waiting', agent });
      expect(await subject.work().workOf([streamId])).toEqual(
        new Map([[streamId, { status: 'waiting', agent }]]),
      );
      expect((await subject.work().workOf()).get(streamId)).toEqual({ status: 'waiting', agent });
      expect(await found(subject, [agent])).toEqual([]);
      await subject.work().setCaps({ [agent]: 5 });
      expect(await found(subject, [agent])).toEqual([]);
    });

    it('WRK-2: a decision on every waiting call moves the stream from waiting to ready, and findWork lists it', async () => {
      const agent = uniqueAgent('decided');
      const streamId = await streamWith(subject, 'decided', { status: 'waiting', agent });
      await moveTo(subject, streamId, 0, { status: 'ready', agent });
      expect((await subject.work().workOf([streamId])).get(streamId)).toEqual({
        status: 'ready',
        agent,
      });
      const items = await subject.work().findWork({ limit: 10, agents: [agent] });
      expect(items.map((item) => [item.streamId, item.reason])).toEqual([[streamId, 'ready']]);
    });

    it('WRK-2 WRK-10: a waiting stream does not count against its agent’s cap of running streams', async () => {
      const agent = uniqueAgent('waiting-cap');
      await streamWith(subject, 'waiting-cap-a', { status: 'waiting', agent });
      const requested = await streamWith(subject, 'waiting-cap-b', { status: 'requested', agent });
      await subject.work().setCaps({ [agent]: 1 });
      expect(await found(subject, [agent])).toEqual([requested]);
    });
  });
}
