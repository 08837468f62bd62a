import { relative } from 'node:path';
import { visibleLine } from '@agentlog/core/read-models';
import type { Outcome } from './draftReleaseNotes.js';
import type { Style } from './style.js';

/** The typed release notes the run handed over, with visible escapes (REV-1). */
export function printNotes(
  notes: NonNullable<Extract<Outcome, { kind: 'written' }>['notes']>,
  print: (line: string) => void,
  style: Style,
): void {
  // The notes are the model's typed result: shown with visible escapes (REV-1).
  print(`\n${style.bold(visibleLine(`${notes.version} — ${notes.summary}`))}`);
  for (const [label, items] of [
    ['highlights', notes.highlights],
    ['breaking changes', notes.breaking_changes],
    ['fixes', notes.fixes],
  ] as const) {
    print(`  ${label} (${items.length})`);
    for (const item of items)
      print(`    • ${visibleLine(`${item.title} [${item.references.join(', ')}]`)}`);
  }
  print('');
}

/** The run's stream and the commands that see it again. */
export function printCommands(
  streamId: string,
  storePath: string,
  cwd: string,
  print: (line: string) => void,
  style: Style,
): void {
  const db = relative(cwd, storePath);
  print(`\nstream ${streamId} in ${db}`);
  print(style.dim(`  npx agentlog inspect ${streamId} --store ${db}`));
  print(style.dim(`  npx agentlog report ${streamId} --store ${db} --html audit.html`));
  print(
    style.dim(
      `  npx agentlog replay ${streamId} --store ${db} --agent examples/release-notes/dist/agents.js`,
    ),
  );
}
