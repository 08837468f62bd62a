import { alignColumns } from './alignColumns.js';
import { visibleLine } from '@agentlog/core/read-models';

/**
 * What `agentlog workers` says of the caps the store holds (SPEC WRK-10): `caps:` and one line per
 * agent name, `  triage  at most 2 runs at once, across all workers`; nothing when no name has one.
 * The names are text from the store: shown with the visible-text helpers (SPEC REV-1).
 */
export function capsSection(caps: Readonly<Record<string, number>>): string[] {
  const rows = Object.entries(caps)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([agent, cap]) => [
      agent,
      cap === 0
        ? 'no new run: its cap is 0'
        : `at most ${cap} ${cap === 1 ? 'run' : 'runs'} at once, across all workers`,
    ]);
  if (rows.length === 0) return [];
  const lines = alignColumns(rows.map((row) => row.map(visibleLine))).map((line) => `  ${line}`);
  return ['', 'caps:', ...lines];
}
