import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The workspace packages that are published, as `npm pack -w` names them. */
export const PUBLISHED_WORKSPACES = [
  'packages/core',
  'packages/store',
  'packages/replay',
  'packages/console',
  'packages/cli',
];

/** One tarball of `npm pack`: the package's name and version, its file and what it holds. */
export interface PackedPackage {
  readonly name: string;
  readonly version: string;
  /** The tarball's absolute path. */
  readonly tarball: string;
  /** Every path inside the package (without the tarball's `package/` prefix). */
  readonly files: readonly string[];
}

/** Runs a command to its end; a failure throws with the command and its stderr. */
export function runOrThrow(command: string, args: string[], cwd: string): string {
  const env = { ...process.env };
  // A --conditions=source (or any option) meant for the tests must not reach npm, tsc or node.
  delete env.NODE_OPTIONS;
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8' });
  if (result.status !== 0) {
    const why = result.error?.message ?? result.stderr;
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.status}) in ${cwd}:\n${why}`,
    );
  }
  return result.stdout;
}

/**
 * Builds the published packages (`tsc -b`, a no-op when dist/ is fresh) and packs each into
 * `destination` with `npm pack`, as a user installing from a checkout does. Scripts are ignored:
 * the packages have none, and the root's `prepare` must not run for a pack.
 */
export function packWorkspace(root: string, destination: string): PackedPackage[] {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  runOrThrow(process.execPath, [tsc, '-b', 'tsconfig.json'], root);
  const workspaces = PUBLISHED_WORKSPACES.flatMap((path) => ['--workspace', path]);
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', destination];
  const output = runOrThrow('npm', [...args, ...workspaces], root);
  const packed = JSON.parse(output) as {
    name: string;
    version: string;
    filename: string;
    files: { path: string }[];
  }[];
  return packed.map((p) => ({
    name: p.name,
    version: p.version,
    tarball: join(destination, p.filename),
    files: p.files.map((file) => file.path),
  }));
}
