// The `--agent` module for replaying the showcase's runs:
//   npx agentlog replay --store .agentlog/agentlog.db --agent examples/release-notes/dist/agents.js
// Every stream `npm start` wrote is replayed with the recorded model answers and tool outcomes.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentBuilder, StreamEvent } from '@agentlog/core';
import { releaseNotesBuilder } from './releaseNotesAgent.js';

/** The agent a stream of the showcase ran; `undefined` for any other stream. */
export function agentFor(file: string, _events: StreamEvent[]): AgentBuilder | undefined {
  // `release-notes-…`, and `release-0.34-…` of the earlier showcase.
  if (!file.startsWith('release-')) return undefined;
  // With `--tools live`, the replayed writes land aside, never on the real RELEASE_NOTES.md.
  return releaseNotesBuilder(join(tmpdir(), 'agentlog-release-notes-replay'));
}
