import { existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PackedPackage } from './packWorkspace.js';
import { runOrThrow } from './packWorkspace.js';

/** The parts of a package.json that say what a package exposes and needs. */
export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly exports: Record<string, Record<string, string>>;
  readonly bin?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/** Reads the package.json of an installed package. */
export function readManifest(packageDir: string): PackageManifest {
  return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * Installs tarballs into `project/node_modules` without a registry: each tarball is extracted to
 * node_modules/<name>, and every other package they depend on (dependencies and peers, the
 * @agentlog ones excepted: those come from the tarballs) is a symlink to the copy in
 * `root/node_modules`. `project` must not lie inside `root`, or Node would find the workspace's
 * own @agentlog links walking up. Returns each package's folder, by name.
 */
export function installTarballs(
  packed: readonly PackedPackage[],
  project: string,
  root: string,
): Map<string, string> {
  const modules = join(project, 'node_modules');
  const installed = new Map<string, string>();
  for (const p of packed) {
    const dir = join(modules, p.name);
    mkdirSync(dir, { recursive: true });
    runOrThrow('tar', ['-xzf', p.tarball, '-C', dir, '--strip-components=1'], project);
    installed.set(p.name, dir);
  }
  const thirdParty = new Set<string>();
  for (const dir of installed.values()) {
    const manifest = readManifest(dir);
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies })) {
      if (!installed.has(name)) thirdParty.add(name);
    }
  }
  for (const name of thirdParty) {
    const source = join(root, 'node_modules', name);
    if (!existsSync(source)) throw new Error(`${name} is not installed in ${root}/node_modules`);
    const link = join(modules, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(source), link, 'dir');
  }
  return installed;
}
