import { randomBytes } from 'node:crypto';
import type { EventStore, WorkEntry, WorkIndex } from '@agentlog/core';
import { numbered, sleep, uniqueStreamId } from './conformanceHelpers.js';

/** Lazily gives the store under test, its work index and its clock, made in `beforeAll`. */
export interface WorkIndexUnderTest {
  readonly store: () => EventStore;
  readonly work: () => WorkIndex;
  readonly advanceClock: () => ((ms: number) => void) | undefined;
}

let agentCounter = 0;

/** An agent name no other test (nor an earlier run against the same database) uses. */
export function uniqueAgent(label: string): string {
  agentCounter += 1;
  return `agent-${label}-${agentCounter}-${randomBytes(4).toString('hex')}`;
}

/**
 * Appends one event to a new stream with this work entry, and returns the stream id. Between two
 * such appends the store's clock moves on (by 5 ms, set or waited), so their `since` differ.
 */
export async function streamWith(
  subject: WorkIndexUnderTest,
  label: string,
  work: WorkEntry,
): Promise<string> {
  const streamId = uniqueStreamId(label);
  await subject
    .store()
    .appendToStream(streamId, numbered(1), { expectedRevision: 'noStream', work });
  await tick(subject);
  return streamId;
}

/** Appends one more event to `streamId` (at revision `expected` + 1) with this work entry. */
export async function moveTo(
  subject: WorkIndexUnderTest,
  streamId: string,
  expected: number,
  work: WorkEntry,
): Promise<void> {
  await subject.store().appendToStream(streamId, numbered(1, expected + 1), {
    expectedRevision: expected,
    work,
  });
  await tick(subject);
}

/** Moves the store's clock on by 5 ms: sets it when the store lets a test, else waits. */
export async function tick(subject: WorkIndexUnderTest): Promise<void> {
  const advance = subject.advanceClock();
  if (advance === undefined) await sleep(5);
  else advance(5);
}

/** The stream ids `findWork` lists for these agents (at most 100). */
export async function found(
  subject: WorkIndexUnderTest,
  agents: readonly string[],
): Promise<string[]> {
  const items = await subject.work().findWork({ limit: 100, agents });
  return items.map((item) => item.streamId);
}
