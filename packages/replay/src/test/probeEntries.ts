import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runOrThrow } from './packWorkspace.js';

/** What a new `node` process in the project saw of one entry: where it resolved, what it exports. */
export interface EntryProbe {
  /** The file URL `import.meta.resolve` gave for the entry, from the project's folder. */
  readonly resolved: string;
  /** `typeof` of each named export (`default` included when there is one). */
  readonly exports: Record<string, string>;
}

// Plain ESM, run by `node` in the project, with no loader and no custom condition.
const PROBE = `
import { createRequire } from 'node:module';
const [entries, from] = JSON.parse(process.argv[2]);
const probes = {};
for (const entry of entries) {
  const module = await import(entry);
  const exports = Object.fromEntries(Object.entries(module).map(([k, v]) => [k, typeof v]));
  probes[entry] = { resolved: import.meta.resolve(entry), exports };
}
const dependencies = from.map(([packageDir, dependency]) =>
  createRequire(packageDir + '/package.json').resolve(dependency),
);
process.stdout.write(JSON.stringify({ probes, dependencies }));
`;

/** What the probe saw: each entry, and where each `[packageDir, dependency]` pair resolved. */
export interface ProbeResult {
  readonly probes: Record<string, EntryProbe>;
  /** The file each dependency resolved to from its package's folder, in the order asked. */
  readonly dependencies: string[];
}

/**
 * Imports each entry in a new `node` process whose working folder is `project` (no NODE_OPTIONS,
 * so no custom condition), and resolves each dependency from its package's folder as Node does.
 */
export function probeEntries(
  project: string,
  entries: readonly string[],
  from: readonly (readonly [packageDir: string, dependency: string])[],
): ProbeResult {
  const script = join(project, 'probe-entries.mjs');
  writeFileSync(script, PROBE);
  const output = runOrThrow(process.execPath, [script, JSON.stringify([entries, from])], project);
  return JSON.parse(output) as ProbeResult;
}
