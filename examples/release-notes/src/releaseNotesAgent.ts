import {
  Agent,
  approvalRequired,
  type AgentBuilder,
  type ChatCompletion,
  type EventStore,
} from '@agentlog/core';
import { releaseNotesStopTool } from './releaseNotes.js';
import { writeChangelog } from './writeChangelog.js';

/** The showcase's system prompt. */
export const SYSTEM_PROMPT = [
  'You write release notes for a library from its merged pull requests.',
  'Call write_changelog with the Markdown, on its own; a maintainer approves every write.',
  'When the notes are written, call `stop` with the structured release notes.',
].join(' ');

/** What the release-notes agent is built from. */
export interface ReleaseNotesAgentOptions {
  readonly model: ChatCompletion;
  readonly store: EventStore;
  readonly streamId: string;
  readonly outputDir: string;
  /** Extra configuration, such as hooks, a clock and ids for tests. */
  readonly configure?: (builder: AgentBuilder) => AgentBuilder;
}

/** The showcase agent without model, store and stream: what `agentlog replay --agent` needs. */
export function releaseNotesBuilder(outputDir: string): AgentBuilder {
  return Agent.builder()
    .systemPrompt(SYSTEM_PROMPT)
    .withoutDefaultStopTool()
    .tools([releaseNotesStopTool(), approvalRequired(writeChangelog(outputDir))])
    .limit(20)
    .toolRetryLimit(2);
}

/** Builds the showcase agent: a structured `stop` and an approval-gated `write_changelog`. */
export function buildReleaseNotesAgent(options: ReleaseNotesAgentOptions): Promise<Agent> {
  const builder = releaseNotesBuilder(options.outputDir)
    .llm(options.model)
    .store(options.store)
    .streamId(options.streamId);
  return (options.configure ? options.configure(builder) : builder).build();
}
