import { resolve } from 'node:path';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { loadStream } from './loadStream.js';
import { redactSecretText } from '@agentlog/replay';
import { maskForDisplay } from './maskForDisplay.js';
import { renderReport } from '@agentlog/console';
import { storeKind } from './storeKind.js';
import { storeOption } from './storeOption.js';
import { visibleLine } from '@agentlog/core/read-models';
import { writeReportFile } from './writeReportFile.js';

/** `agentlog report`: an HTML audit page of one stream. */
export const reportCommand: CliCommand = {
  name: 'report',
  summary: 'write an HTML audit page of a stream',
  define(command) {
    command
      .description(
        'Writes a self-contained HTML audit page of a stream. At the top: the outcome (stop reason, ' +
          "cause, and a tool's stop payload) and a table of every decision (who, when, on which call, " +
          'with which arguments, approved or refused, the note). Then each tool call with its status ' +
          '(refused, approved, completed, failed, waiting, ambiguous), its arguments (Markdown or ' +
          'multi-line drafts as text; a revised draft as a line diff against the refused one) and ' +
          'outputs; the timeline per model step with its duration, model and tokens, and the run ' +
          'totals; the conversation, warnings and stops. Each payload is shown once, folded. Inline ' +
          'CSS only: no script, nothing loaded from elsewhere. API keys (sk-…), bearer tokens and ' +
          'secret fields (apiKey, authorization, password, token, …) show as [redacted].',
      )
      .argument('[stream]', 'a stream id of --store, or a .jsonl file (read directly)')
      .option(
        '--html <file>',
        'where to write the page (its folder is created); never over an existing file without ' +
          '--force, never over the store or JSONL file it reads',
      )
      .option('--force', 'replace an existing file at --html')
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nExample:\n  agentlog report fixtures/sessions/HITL-5-shadowed-approval.jsonl --html out/hitl-5.html',
      );
  },
  async run(parsed, io) {
    const target = parsed.string('html');
    if (target === undefined)
      throw new CliError('missing --html <file>; see agentlog report --help');
    // Keys and tokens in the stream are never written to the page (SPEC RPL-3).
    const loaded = maskForDisplay(
      await loadStream(parsed.positionals[0], parsed.string('store'), io),
    );
    const page = redactSecretText(renderReport(loaded));
    // Written last, and atomically: a failed report leaves no file (SPEC REV-2).
    await writeReportFile(resolve(io.cwd, target), page, {
      given: target,
      force: parsed.flag('force'),
      reads: filesRead(parsed.positionals[0], parsed.string('store'), io.cwd),
    });
    io.stdout(
      redactSecretText(
        `wrote ${visibleLine(target)} (${visibleLine(loaded.streamId)}, ${loaded.events.length} events)\n`,
      ),
    );
    return 0;
  },
};

/**
 * The files a report reads, which it must never write over: the JSONL file given as the stream,
 * and the `--store` file (a SQLite database with its journal, WAL and shared-memory files, or a
 * JSONL file). A database URL names no file.
 */
function filesRead(stream: string | undefined, where: string | undefined, cwd: string): string[] {
  const files = stream !== undefined && /\.jsonl$/i.test(stream) ? [resolve(cwd, stream)] : [];
  const store = where ?? '.agentlog/agentlog.db';
  const kind = storeKind(store);
  if (kind === 'jsonl') files.push(resolve(cwd, store));
  if (kind === 'sqlite') {
    const path = resolve(cwd, store);
    files.push(path, `${path}-journal`, `${path}-wal`, `${path}-shm`);
  }
  return files;
}
