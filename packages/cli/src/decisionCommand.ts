import { recordDecision, ToolFeedback, type JsonValue } from '@agentlog/core';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { readFolded } from './loadStream.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { visibleLine } from '@agentlog/core/read-models';

/** `agentlog approve` or `agentlog refuse`: records a decision on an open tool call. */
export function decisionCommand(kind: 'approve' | 'refuse'): CliCommand {
  const verb = kind === 'approve' ? 'approved' : 'refused';
  return {
    name: kind,
    summary: `${kind} a waiting tool call (--by, --note, --payload${kind === 'refuse' ? ', --reason' : ', --for-run'})`,
    define(command) {
      command
        .description(
          `Records a person's decision (${verb}) on a tool call that waits, as a FeedbackReceived ` +
            'event, from this process: the agent that runs the stream resumes with agent.run(). ' +
            'Nothing is written when no author is given, the payload is not JSON, the stream is ' +
            'unknown or the call is not open.',
        )
        .argument('<stream>', 'the stream of the waiting call')
        .argument('<toolCallId>', 'the id of the waiting call (see agentlog pending)')
        .option(
          '--by <name>',
          'who decided (stored in the event); required, defaults to $AGENTLOG_USER',
        )
        .option('--note <text>', 'why, for the audit only: the model never reads it')
        .option(
          '--payload <json>',
          'a JSON value handed to tools that read it (approvalRequired ignores it)',
        );
      if (kind === 'refuse')
        command.option(
          '--reason <text>',
          'words for the model: it reads "This tool call was refused: <reason>" (HITL-14)',
        );
      else
        command.option(
          '--for-run',
          'approve this tool for the rest of the run: its later calls in the run that resumes run without asking (HITL-15)',
        );
      command
        .addOption(storeOption())
        .addHelpText(
          'after',
          `\nExample:\n  agentlog ${kind} deploy-2025-06-01 call_1 --by ana --note "release checklist done"`,
        );
    },
    async run(parsed, io) {
      const [streamId = '', toolCallId = ''] = parsed.positionals;
      // Every decision records who made it (HITL-10): --by, else the AGENTLOG_USER variable.
      const by = nonEmpty(parsed.string('by')) ?? nonEmpty(io.env['AGENTLOG_USER']);
      if (by === undefined)
        throw new CliError(
          `${kind} needs --by <name> or AGENTLOG_USER: decisions record who made them`,
        );
      const payload = parsePayload(parsed.string('payload'));
      const opened = await openStore(parsed.string('store'), io);
      try {
        if (opened.kind === 'jsonl')
          throw new CliError(`${opened.label} is a JSONL file, which agentlog only reads`);
        const { state } = await readFolded(opened, streamId);
        const call = state.toolCalls[toolCallId];
        if (call === undefined)
          throw new CliError(
            `stream ${visibleLine(streamId)} has no tool call ${visibleLine(toolCallId)}`,
          );
        const reason = kind === 'refuse' ? nonEmpty(parsed.string('reason')) : undefined;
        const refused = ToolFeedback.refused();
        const draft =
          kind === 'approve'
            ? ToolFeedback.approved()
            : reason === undefined
              ? refused
              : refused.withReason(reason);
        const feedback = payload === undefined ? draft : draft.withPayload(payload);
        const note = parsed.string('note');
        const forRun = kind === 'approve' && parsed.flag('forRun');
        // A decision needs no agent, model or tools: the decider judges it on the stream alone.
        await recordDecision(opened.store, streamId, toolCallId, feedback, {
          by,
          ...(note === undefined ? {} : { note }),
          ...(forRun ? { scope: 'run' as const } : {}),
        });
        const { state: after } = await readFolded(opened, streamId);
        if (call.shadowed === true)
          io.stderr(
            `warning: ${visibleLine(toolCallId)} is shadowed (HITL-5): resuming will not re-run it; have the model call it again\n`,
          );
        io.stdout(
          `${verb} ${visibleLine(call.toolCall.name)} (${visibleLine(toolCallId)})${forRun ? ' and its later calls for the rest of the run' : ''} in ${visibleLine(streamId)} by ${visibleLine(by)} at revision ${after.revision}\n`,
        );
        return 0;
      } finally {
        await opened.close();
      }
    },
  };
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}

function parsePayload(text: string | undefined): JsonValue | undefined {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new CliError(`--payload is not valid JSON: ${(error as Error).message}`);
  }
}
