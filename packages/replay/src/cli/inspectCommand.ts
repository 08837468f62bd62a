import type { CliCommand } from './cliCommand.js';
import { loadStream } from './loadStream.js';
import { redactSecretText } from '../redactSecrets.js';
import { maskForDisplay } from './maskForDisplay.js';
import { createPainter } from './painter.js';
import { hiddenLine, timeline } from './timelineLines.js';
import { statusOf } from './listCommand.js';
import { storeOption } from './storeOption.js';
import { visibleLine } from './visibleText.js';

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
    // Keys and tokens in the stream are never printed (SPEC RPL-3).
    const loaded = maskForDisplay(
      await loadStream(parsed.positionals[0], parsed.string('store'), io),
    );
    const print = (line: string) => io.stdout(`${redactSecretText(line)}\n`);
    const paint = createPainter(io);
    print(
      `${paint.bold(visibleLine(loaded.streamId))} ${paint.dim(`(${visibleLine(loaded.source)}) · ${loaded.events.length} events · ${visibleLine(statusOf(loaded.state))}`)}`,
    );
    const { lines, hidden } = timeline(loaded.events, paint);
    for (const line of lines) print(line);
    const hiddenRevisions = hiddenLine(hidden);
    if (hiddenRevisions !== undefined) print(paint.dim(hiddenRevisions));
    return 0;
  },
};
