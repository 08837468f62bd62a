import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { collectSessions } from './collectSessions.js';
import { loadAgentModule } from './loadAgentModule.js';
import { openStore, type OpenedStore } from './openStore.js';
import { createPainter, type Painter } from './painter.js';
import { createProgressBar } from './progressBar.js';
import { storeOption } from './storeOption.js';
import { replaySession, type SessionOutcome } from './replaySession.js';
import { visibleLine } from '@agentlog/core/read-models';

/** `agentlog replay`: replays recorded sessions and reports the first divergence of each. */
export const replayCommand: CliCommand = {
  name: 'replay',
  summary: 'replay recorded sessions and report divergences (exit 0/1/2)',
  define(command) {
    command
      .description(
        'Replays recorded sessions with the recorded model answers and compares the events the ' +
          'agent produces with the recorded ones (replayStream). Prints ✓ or ✗ per session, the ' +
          'first divergence with its diff, and "N replayed, N diverged".',
      )
      .argument(
        '[sessions...]',
        '.jsonl files or folders of them; with --store, stream ids of that store (all of its ' +
          'streams when none is named)',
      )
      .option(
        '--agent <module>',
        'a module (resolved from the working directory) exporting agentFor(file, events): ' +
          'AgentBuilder | undefined and optionally streamIdFor(file): string | undefined; file is ' +
          "the session's absolute path (or its stream id when read from --store)",
      )
      .option(
        '--tools <mode>',
        'recorded (default): serve the recorded tool outcomes; live: run the tools',
      )
      .addOption(storeOption('replay the streams of this store instead of files'))
      .addHelpText(
        'after',
        '\nExit codes: 0 every session replayed as recorded, 1 a session diverged, 2 bad input (a\n' +
          'path that does not exist, a line that is not a JSONL event, events that contradict each\n' +
          'other, a missing or invalid --agent module, a session the module has no agent for).\n\n' +
          'Example:\n  agentlog replay fixtures/sessions --agent fixtures/agents.ts',
      );
  },
  async run(parsed, io) {
    const tools = parsed.string('tools') ?? 'recorded';
    if (tools !== 'recorded' && tools !== 'live')
      throw new CliError(`--tools must be recorded or live, not '${tools}'`);
    const where = parsed.string('store');
    if (parsed.positionals.length === 0 && where === undefined)
      throw new CliError('missing <file.jsonl|folder>; see agentlog replay --help');
    const agentPath = parsed.string('agent');
    if (agentPath === undefined)
      throw new CliError('missing --agent <module>; see agentlog replay --help');
    const opened: OpenedStore | undefined =
      where === undefined ? undefined : await openStore(where, io, { readonly: true });
    try {
      const sessions = await collectSessions(parsed.positionals, opened, io.cwd);
      const agents = await loadAgentModule(agentPath, io.cwd);
      const paint = createPainter(io);
      const bar = createProgressBar(io, sessions.length);
      const counts = { replayed: 0, diverged: 0, error: 0 };
      bar.show(0);
      for (const [index, session] of sessions.entries()) {
        const outcome = await replaySession(session, agents, tools);
        counts[outcome.kind] += 1;
        bar.clear();
        io.stdout(outcomeText(session.label, outcome, paint));
        bar.show(index + 1);
      }
      bar.clear();
      const failed = counts.error === 0 ? '' : `, ${counts.error} could not be replayed`;
      io.stdout(`${counts.replayed} replayed, ${counts.diverged} diverged${failed}\n`);
      return counts.error > 0 ? 2 : counts.diverged > 0 ? 1 : 0;
    } finally {
      await opened?.close();
    }
  },
};

function outcomeText(label: string, outcome: SessionOutcome, paint: Painter): string {
  switch (outcome.kind) {
    case 'replayed':
      return `${paint.green('✓')} ${visibleLine(label)}\n`;
    case 'error':
      return `${paint.red('✗')} ${visibleLine(label)}: ${visibleLine(outcome.message)}\n`;
    case 'diverged': {
      const diff = outcome.diff
        .split('\n')
        .map((line) => `  ${colourDiffLine(visibleLine(line), paint)}`)
        .join('\n');
      return `${paint.red('✗')} ${visibleLine(label)}: ${visibleLine(outcome.summary)}\n${diff}\n`;
    }
  }
}

function colourDiffLine(line: string, paint: Painter): string {
  if (/^\s*- /.test(line)) return paint.red(line);
  if (/^\s*\+ /.test(line)) return paint.green(line);
  return line;
}
