import { join, resolve } from 'node:path';
import { foldStream, type NewStreamEvent } from '@agentlog/core';
import { readJsonl } from '@agentlog/store';
import type { FoldedStream } from '@agentlog/core/read-models';

/** The folder of the recorded fixture sessions (`fixtures/sessions` at the repository root). */
export const fixtureSessions = resolve(import.meta.dirname, '../../../../fixtures/sessions');

/** A fixture session (a file of {@link fixtureSessions}) read and folded, as the CLI shows it. */
export async function loadFixture(file: string, streamId = file): Promise<FoldedStream> {
  const source = join(fixtureSessions, file);
  const { events: stored } = await readJsonl(source);
  return { streamId, source, ...foldStream(stored) };
}

/**
 * The events of a fixture session, ready to append to another stream (no revisions); `edit` may
 * change each event's JSON text.
 */
export async function fixtureEvents(
  file: string,
  edit = (json: string) => json,
): Promise<NewStreamEvent[]> {
  const { events } = await readJsonl(join(fixtureSessions, file));
  return events.map(
    ({ type, data, metadata: { revision: _revision, ...metadata } }) =>
      JSON.parse(edit(JSON.stringify({ type, data, metadata }))) as NewStreamEvent,
  );
}
