import type { CliCommand } from './cliCommand.js';
import { loadStream } from './loadStream.js';
import { createPainter } from './painter.js';
import { parseCommandArgs } from './parseCommandArgs.js';
import { timelineLines } from './timelineLines.js';
import { storeHelp } from './storeHelp.js';

const help = `Usage: agentlog inspect <stream|file.jsonl> [--store <where>]

Prints the timeline of a stream: one line per step, with its revision.

  ▶ query "…" / ▶ run()      a run started (the caller's command)
  model: "…" + N tool call(s) the model's answer
  → tool <args>               a tool call started (<N lines> for a document argument)
  ✓ tool: output / ✗ tool: …  a tool call's output or failure
  ⏸ waiting for approval      a tool call asks for a person's decision
  ✓ approved by …/✗ refused   a decision: who, when (UTC), note
  ⚠ warning                   something an auditor should see
  ■ stopped: kind (cause)     why the run ended

Options:
${storeHelp}
  -h, --help        show this help

A .jsonl path is read directly. Colours only on a terminal, and never when NO_COLOR is set.`;

/** `agentlog inspect`: the timeline of one stream or JSONL file. */
export const inspectCommand: CliCommand = {
  name: 'inspect',
  summary: 'print the timeline of a stream or a .jsonl file',
  help,
  async run(args, io) {
    const parsed = parseCommandArgs('inspect', args, { strings: ['store'], optional: 1 });
    if (parsed.help) {
      io.stdout(`${help}\n`);
      return 0;
    }
    const loaded = await loadStream(parsed.positionals[0], parsed.string('store'), io);
    const paint = createPainter(io);
    const { state } = loaded;
    const status =
      state.status === 'stopped' && state.stopReason !== undefined
        ? `stopped: ${state.stopReason.kind} (${state.stopCause ?? '?'})`
        : state.status;
    io.stdout(
      `${paint.bold(loaded.streamId)} ${paint.dim(`(${loaded.source}) · ${loaded.events.length} events · ${status}`)}\n`,
    );
    for (const line of timelineLines(loaded.events, paint)) io.stdout(`${line}\n`);
    return 0;
  },
};
