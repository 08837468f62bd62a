import { alignColumns } from './alignColumns.js';
import type { CliCommand } from './cliCommand.js';
import { unreadableMessage } from './loadStream.js';
import { openStore } from './openStore.js';
import { storeOption } from './storeOption.js';
import { compactJson, summarizeArgs, visibleLine, waitingCalls } from '@agentlog/core/read-models';

/**
 * `agentlog pending`: every waiting tool call of every stream. On a store with a work index only
 * the streams it does not list as finished (`idle`) are folded (SPEC WRK-2).
 */
export const pendingCommand: CliCommand = {
  name: 'pending',
  summary: 'list the tool calls that still need a decision',
  define(command) {
    command
      .description(
        "Lists every tool call that still needs a person's decision, in every stream of the store. " +
          'A call that already holds a decision (approved or refused, not yet read by a run) is not ' +
          'listed: it waits for agent.run(), not for a person (HITL-11). One line per call with the ' +
          'stream, the call id, the tool, its arguments, and a mark when deciding on it is not enough:\n' +
          '  shadowed (HITL-5)   a sibling call of the same answer got an output: approving it will\n' +
          '                      not re-run it; have the model call it again\n' +
          '  ambiguous (TOOL-7)  it was started before a crash and may have run; the loop asks\n' +
          '                      before running it again',
      )
      .addOption(storeOption())
      .addHelpText(
        'after',
        "\nDecide with agentlog approve|refuse <stream> <toolCallId>; see a call's full arguments\n" +
          'with agentlog show <stream> <toolCallId>.\n\nExample:\n' +
          '  agentlog pending --store postgres://agentlog@localhost/agentlog',
      );
  },
  async run(parsed, io) {
    const opened = await openStore(parsed.string('store'), io, { readonly: true });
    const rows: string[][] = [];
    let unreadable = 0;
    try {
      // One read model for the CLI and the console (`waitingCalls`): a store with a work index
      // names the streams that wait for a person (SPEC WRK-2), and only those are folded. A stream
      // that cannot be folded is one line on stderr and is skipped.
      const waiting = await waitingCalls(opened.store);
      for (const { streamId, error } of waiting.unreadable) {
        unreadable += 1;
        io.stderr(`agentlog pending: ${visibleLine(unreadableMessage(streamId, error))}\n`);
      }
      for (const call of waiting.calls) {
        const marks = [
          call.shadowed === true ? 'shadowed (HITL-5)' : '',
          call.ambiguous === true ? 'ambiguous (TOOL-7)' : '',
          call.feedbackPayload === undefined ? '' : `payload ${compactJson(call.feedbackPayload)}`,
        ].filter((mark) => mark !== '');
        const { id, name, args: callArgs } = call.toolCall;
        rows.push([call.streamId, id, name, summarizeArgs(callArgs) || '-', marks.join(', ')]);
      }
    } finally {
      await opened.close();
    }
    if (rows.length === 0) io.stdout('no tool call waits for a decision\n');
    // Every cell is one line, its control and invisible characters shown as escapes (SPEC REV-1).
    for (const line of alignColumns(rows.map((row) => row.map(visibleLine))))
      io.stdout(`${line}\n`);
    return unreadable > 0 ? 2 : 0;
  },
};
