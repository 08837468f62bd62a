import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Agent, EventStore } from '@agentlog/core';

/** How a session was made (SPEC RPL-4): recorded from a model, or scripted by hand. */
export type Provenance =
  | { readonly kind: 'recorded'; readonly model: string; readonly note?: string }
  | { readonly kind: 'scripted'; readonly source: string; readonly note?: string };

/**
 * Writes an agent's stream as a fixture: its events as JSONL at `file`, and its provenance beside
 * it in `file.provenance.json`, with when it was written and how many events it holds. The events
 * are as the store holds them, secrets masked (SPEC RPL-3).
 */
export async function recordSession(
  agent: Pick<Agent, 'streamId'>,
  file: string,
  options: { readonly store: EventStore; readonly provenance: Provenance },
): Promise<void> {
  const { writeJsonl } = await import('@agentlog/store/jsonl');
  const events = await options.store.readStream(agent.streamId);
  await mkdir(dirname(file), { recursive: true });
  await writeJsonl(file, events);
  const about = {
    ...options.provenance,
    streamId: agent.streamId,
    events: events.length,
    writtenAt: new Date().toISOString(),
  };
  await writeFile(`${file}.provenance.json`, `${JSON.stringify(about, null, 2)}\n`);
}
