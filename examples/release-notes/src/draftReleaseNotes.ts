import { ToolFeedback, type Agent, type RunOptions, type ToolCall } from '@agentlog/core';
import { parseReleaseNotes, type ReleaseNotes } from './releaseNotes.js';
import type { Reviewer } from './reviewer.js';
import { writeChangelogArgs } from './writeChangelog.js';

/** How a release-notes session ended. */
export type Outcome =
  { readonly kind: 'written'; readonly notes?: ReleaseNotes } | { readonly kind: 'rejected' };

/** How {@link draftReleaseNotes} runs the agent. */
export interface DraftOptions {
  /** Passed to every `query` and `run`: an abort signal, and the streamed text. */
  readonly run?: RunOptions;
  /** The stream already holds the task (an interrupted run): go on from where it stopped. */
  readonly resume?: boolean;
}

/** The agent stopped, nudged once, without writing the notes: a model that never gets there. */
export class GaveUp extends Error {}

/** The nudge for a turn that ended without a tool call. */
export const NUDGE = 'Call write_changelog with the Markdown, on its own.';

/**
 * Asks the agent for release notes and loops through review rounds until they are written or
 * rejected (the approval loop of Swiftide's showcase). `write_changelog` must be wrapped in
 * `approvalRequired`: the agent stops, the reviewer decides, the agent resumes.
 */
export async function draftReleaseNotes(
  agent: Agent,
  task: string,
  reviewer: Reviewer,
  options: DraftOptions = {},
): Promise<Outcome> {
  const run = options.run ?? {};
  if (!options.resume) await agent.query(task, run);
  let written = false;
  let nudged = false;
  for (;;) {
    const reason = agent.stopReason();
    if (reason?.kind === 'feedbackRequired') {
      const verdict = await reviewer.review(proposalOf(reason.toolCall), {
        streamId: agent.streamId,
        toolCallId: reason.toolCall.id,
      });
      if (verdict.recorded) {
        // The console wrote the decision into the stream: catch up, record nothing more.
        await agent.refresh();
        if (verdict.kind === 'reject') return { kind: 'rejected' };
        // The call resumes: it runs (approved), or answers the refusal with its reason, which is
        // the reviewer's request to the model (HITL-14), and the model drafts again.
        await agent.run(run);
        written ||= verdict.kind === 'approve' && succeeded(agent, reason.toolCall);
        continue;
      }
      if (verdict.kind === 'reject') return { kind: 'rejected' };
      const feedback =
        verdict.kind === 'approve' ? ToolFeedback.approved() : ToolFeedback.refused();
      await agent
        .context()
        .feedbackReceived(
          reason.toolCall,
          feedback,
          verdict.kind === 'revise'
            ? { by: reviewer.name, note: verdict.feedback }
            : { by: reviewer.name },
        );
      if (verdict.kind === 'approve') {
        // Resumes the waiting call, which now runs; the write itself can still fail.
        await agent.run(run);
        written ||= succeeded(agent, reason.toolCall);
      } else {
        // The refusal is recorded as the tool's output, followed by the reviewer's feedback.
        await agent.query(verdict.feedback, run);
      }
      continue;
    }
    if (reason?.kind === 'requestedByTool' && reason.payload !== undefined && written) {
      return { kind: 'written', notes: parseReleaseNotes(reason.payload) };
    }
    if (written) return { kind: 'written' };
    if (reason?.kind === 'noNewMessages' && !nudged) {
      nudged = true;
      await agent.query(NUDGE, run);
      continue;
    }
    const cause = agent.state().stopCause;
    throw new GaveUp(
      `the agent stopped without writing the notes: ${JSON.stringify(reason)}${cause === undefined ? '' : ` (cause ${cause})`}${cause === 'limitReached' ? ': the model never called stop within the completion limit' : ''}`,
    );
  }
}

function proposalOf(toolCall: ToolCall) {
  const parsed = writeChangelogArgs.safeParse(JSON.parse(toolCall.args ?? '{}'));
  if (!parsed.success) throw new Error(`the waiting call ${toolCall.id} has no Markdown to review`);
  return parsed.data;
}

/** The notes count as written only when a text output answered the approved call. */
function succeeded(agent: Agent, toolCall: ToolCall): boolean {
  return agent
    .history()
    .some(
      (message) =>
        message.role === 'tool' &&
        message.toolCall.id === toolCall.id &&
        message.output.kind === 'text',
    );
}
