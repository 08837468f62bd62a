import { checkStream, decodeEvent, type AgentEvent, type AgentState } from '@agentlog/core';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { invalidAsCliError } from './loadStream.js';
import type { OpenedStore } from './openStore.js';
import { openTarget } from './openTarget.js';
import { readPages } from './readPages.js';
import { redactSecrets, redactSecretText } from '@agentlog/replay';
import { createPainter } from './painter.js';
import { hiddenLine, timelineWriter } from './timelineLines.js';
import { storeOption } from './storeOption.js';
import { runStatus, visibleLine } from '@agentlog/core/read-models';

const legend = `
Each line of the timeline:
  ▶ query "…" / ▶ run()      a run started (the caller's command)
  model: "…" + N tool call(s) the model's answer · model name · tokens used
  → tool <args>               a tool call started (<N lines> for a document argument)
  ✓ tool: output / ✗ tool: …  a tool call's output or failure
  ⏸ waiting for approval      a tool call asks for a person's decision
  ✓ approved by …/✗ refused   a decision: who, when (UTC), note, payload
  ⚠ warning                   something an auditor should see
  ■ stopped: kind (cause)     why the run ended
  hidden: #2 …                the revisions not shown, since they repeat a shown line

Colours only on a terminal (FORCE_COLOR and NO_COLOR decide otherwise: see docs/cli.md).

Example:
  agentlog inspect fixtures/sessions/HITL-5-shadowed-approval.jsonl
  agentlog inspect deploy-2025-06-01 --store postgres://agentlog@localhost/agentlog`;

/** `agentlog inspect`: the timeline of one stream or JSONL file. */
export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'print the timeline of a stream or a .jsonl file',
  define(command) {
    command
      .description(
        'Prints the timeline of a stream: one line per step, with its revision. API keys (sk-…), ' +
          'bearer tokens and secret fields (apiKey, authorization, password, token, …) show as ' +
          '[redacted].',
      )
      .argument('[stream]', 'a stream id of --store, or a .jsonl file (read directly)')
      .addOption(storeOption())
      .addHelpText('after', legend);
  },
  async run(parsed, io) {
    const { opened, streamId } = await openTarget(
      parsed.positionals[0],
      parsed.string('store'),
      io,
    );
    try {
      await printTimeline(opened, streamId, io);
    } finally {
      await opened.close();
    }
    return 0;
  },
};

/**
 * Prints the timeline of `streamId` as it reads it, one page of events at a time, in two passes:
 * the first checks the stream (`checkStream`: SPEC EVT-4, and its status for the first line,
 * without keeping its history), the second describes and prints it, waiting for the reader when
 * stdout is full. Neither keeps the events: memory holds a page, the checked state (a bare id
 * and status per answered call) and the timeline's call names. A
 * stream that is unknown, contradicts itself or holds a damaged row fails in the first pass,
 * before a line is printed, naming the stream and the revision.
 */
async function printTimeline(opened: OpenedStore, streamId: string, io: CliIo): Promise<void> {
  let state: AgentState | undefined;
  let count = 0;
  for await (const page of readPages(opened.store, streamId)) {
    state = await invalidAsCliError(streamId, () => checkStream(page, state));
    count += page.length;
  }
  if (state === undefined) throw new CliError(`no stream ${streamId} in ${opened.label}`);
  // Keys and tokens in the stream are never printed (SPEC RPL-3).
  const print = (lines: readonly string[]) => {
    if (lines.length > 0) io.stdout(lines.map((line) => `${redactSecretText(line)}\n`).join(''));
  };
  const paint = createPainter(io);
  print([
    `${paint.bold(visibleLine(streamId))} ${paint.dim(`(${visibleLine(opened.label)}) · ${count} events · ${visibleLine(runStatus(state))}`)}`,
  ]);
  const writer = timelineWriter(state.revision, paint);
  let held: AgentEvent | undefined;
  for await (const page of readPages(opened.store, streamId)) {
    const events = redactSecrets(page.map(decodeEvent));
    const lines: string[] = [];
    for (const event of events) {
      if (held !== undefined) lines.push(...writer.add(held, event));
      held = event;
    }
    print(lines);
    await io.drain?.();
  }
  if (held !== undefined) print(writer.add(held, undefined));
  const hiddenRevisions = hiddenLine(writer.hidden);
  if (hiddenRevisions !== undefined) print([paint.dim(hiddenRevisions)]);
}
