import { AgentlogError, type EventStore } from '@agentlog/core';
import { assertValidStreamId } from '@agentlog/core/store-kit';

/** What to fork: the source stream, the last revision to keep, and the new stream's id. */
export interface ForkOptions {
  readonly from: string;
  readonly atRevision: number;
  readonly to: string;
}

/**
 * Forks a stream at a revision into a new one (SPEC RES-2): `StreamForked` first, then copies of
 * the events 0…atRevision, which are all it reads. An agent built on the fork behaves as if the original had stopped
 * there; the original is not touched. Returns the new stream's last revision.
 */
export async function forkStream(store: EventStore, options: ForkOptions): Promise<number> {
  const { from, atRevision, to } = options;
  assertValidStreamId(from);
  assertValidStreamId(to);
  if (!Number.isInteger(atRevision) || atRevision < 0) {
    throw new AgentlogError(
      'invalidRevision',
      `cannot fork ${from} at revision ${atRevision}: a revision is a whole number of 0 or more`,
    );
  }
  // Only what the fork keeps is read: forking early in a long stream costs little.
  const kept = await store.readStream(from, { maxCount: atRevision + 1 });
  if (kept.length === 0)
    throw new AgentlogError('unknownStream', `cannot fork ${from}: no such stream`);
  if (kept.length <= atRevision) {
    throw new AgentlogError(
      'invalidRevision',
      `cannot fork ${from} at revision ${atRevision}: it has revisions 0 to ${kept.length - 1}`,
    );
  }
  if ((await store.readStream(to, { maxCount: 1 })).length > 0) {
    throw new AgentlogError('streamExists', `cannot fork into ${to}: that stream already exists`);
  }
  const last = kept.at(-1);
  const { nextExpectedRevision } = await store.appendToStream(
    to,
    [
      {
        type: 'StreamForked',
        data: { fromStream: from, atRevision },
        metadata: {
          eventId: `${to}:fork`,
          at: last?.metadata.at ?? new Date(0).toISOString(),
          schemaVersion: 1,
        },
      },
      ...kept.map((event) => ({
        type: event.type,
        data: event.data,
        metadata: {
          eventId: `${to}:${event.metadata.eventId}`,
          at: event.metadata.at,
          schemaVersion: event.metadata.schemaVersion,
        },
      })),
    ],
    { expectedRevision: 'noStream' },
  );
  return nextExpectedRevision;
}
