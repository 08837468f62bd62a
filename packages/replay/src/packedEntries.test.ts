import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTarballs, readManifest } from './test/installTarballs.js';
import type { PackedPackage } from './test/packWorkspace.js';
import { packWorkspace, runOrThrow } from './test/packWorkspace.js';
import type { ProbeResult } from './test/probeEntries.js';
import { probeEntries } from './test/probeEntries.js';

// Issue "Docs that install": the packages are not on the registry, so the READMEs say to install
// the tarballs of `npm pack`. This packs the workspace, installs the tarballs into a folder outside
// the repository (third-party packages linked from its node_modules: no network) and imports every
// entry from the tarballs' contents in a new `node` process.

const root = resolve(import.meta.dirname, '../../..');
const FIXTURE = 'fixtures/sessions/HITL-5-shadowed-approval.jsonl';

/** Named exports each entry must have, as its package README's table says. */
const README_EXPORTS: Record<string, string[]> = {
  '@agentlog/core': [
    'Agent',
    'evolve',
    'foldEvents',
    'recordDecision',
    'tool',
    'StopWithArgs',
    'createInMemoryEventStore',
  ],
  '@agentlog/core/testing': ['scriptedModel', 'fixedClock', 'counterIds', 'given', 'DeciderSpec'],
  '@agentlog/core/openai': ['createOpenAiChatCompletion'],
  '@agentlog/core/otel': ['withTracing'],
  '@agentlog/core/store-kit': [
    'judgeAppend',
    'assertValidStreamId',
    'loadOptionalPeer',
    'judgeFence',
  ],
  '@agentlog/core/replay-kit': ['runWithChannel'],
  '@agentlog/store': ['createSqliteEventStore', 'readJsonl', 'writeJsonl', 'appendJsonl'],
  '@agentlog/store/sqlite': ['createSqliteEventStore'],
  '@agentlog/store/postgres': ['createPostgresEventStore'],
  '@agentlog/store/kurrentdb': ['createKurrentEventStore'],
  '@agentlog/store/jsonl': ['readJsonl', 'writeJsonl', 'appendJsonl'],
  '@agentlog/store/conformance': ['describeEventStoreConformance'],
  '@agentlog/replay': [
    'createRecordingModel',
    'createReplayModel',
    'replayStream',
    'forkStream',
    'redactSecrets',
  ],
  '@agentlog/replay/vitest': ['expectReplay', 'toReplayCleanly', 'recordSession'],
  '@agentlog/core/read-models': [
    'runStatus',
    'callsAwaitingDecision',
    'streamsThatMayWait',
    'visibleText',
    'visibleLine',
  ],
  '@agentlog/console': ['createConsole', 'startConsole', 'loadReviewers', 'renderReport'],
  '@agentlog/cli': ['runCli', 'bufferedIo'],
};

let project: string;
let packed: PackedPackage[];
let installed: Map<string, string>;
let probe: ProbeResult;
/** Each @agentlog dependency of an installed package: `[its folder, the dependency]`. */
let internal: [string, string][];

/** Every entry a package.json declares: `.` is the package's name, `./x` is `name/x`. */
function entriesOf(packageDir: string): string[] {
  const manifest = readManifest(packageDir);
  return Object.keys(manifest.exports).map((key) =>
    key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
  );
}

function allEntries(): string[] {
  return [...installed.values()].flatMap(entriesOf);
}

function dirOf(name: string): string {
  const dir = installed.get(name);
  if (dir === undefined) throw new Error(`${name} was not packed`);
  return dir;
}

beforeAll(() => {
  // realpath: on some systems tmpdir() is a symlink, and Node resolves to real paths.
  project = realpathSync(mkdtempSync(join(tmpdir(), 'agentlog-packed-')));
  packed = packWorkspace(root, project);
  installed = installTarballs(packed, project, root);
  internal = [...installed.values()].flatMap((dir) =>
    Object.keys(readManifest(dir).dependencies ?? {})
      .filter((name) => name.startsWith('@agentlog/'))
      .map((name): [string, string] => [dir, name]),
  );
  probe = probeEntries(project, allEntries(), internal);
}, 240_000);

afterAll(() => {
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

describe('the packed tarballs (issue: docs that install)', () => {
  it('one tarball per published package: core, store, replay, console and cli', () => {
    expect(packed.map((p) => p.name).sort()).toEqual([
      '@agentlog/cli',
      '@agentlog/console',
      '@agentlog/core',
      '@agentlog/replay',
      '@agentlog/store',
    ]);
  });

  it('each ships package.json, LICENSE, README.md and dist/, and nothing else', () => {
    for (const p of packed) {
      expect(p.files, p.name).toEqual(
        expect.arrayContaining([
          'package.json',
          'LICENSE',
          'README.md',
          'dist/index.js',
          'dist/index.d.ts',
        ]),
      );
      const others = p.files.filter(
        (path) =>
          !['package.json', 'LICENSE', 'README.md'].includes(path) && !path.startsWith('dist/'),
      );
      expect(others, p.name).toEqual([]);
    }
  });

  it('no tests, build caches or secrets: no *.test.*, test/ folder, .env, .npmrc or .tsbuildinfo', () => {
    const forbidden = /\.test\.|(^|\/)(test|__tests__)\/|(^|\/)\.env|(^|\/)\.npmrc$|\.tsbuildinfo$/;
    for (const p of packed) {
      expect(
        p.files.filter((path) => forbidden.test(path)),
        p.name,
      ).toEqual([]);
    }
  });

  it("every export target and bin of each package.json is in its tarball (the `source` condition is the workspace's own)", () => {
    for (const p of packed) {
      const manifest = readManifest(dirOf(p.name));
      const targets = Object.values(manifest.exports).flatMap((conditions) =>
        Object.entries(conditions)
          .filter(([condition]) => condition !== 'source')
          .map(([, target]) => target),
      );
      targets.push(...Object.values(manifest.bin ?? {}));
      expect(targets.length, p.name).toBeGreaterThan(0);
      const missing = targets.filter((target) => !p.files.includes(target.replace(/^\.\//, '')));
      expect(missing, p.name).toEqual([]);
    }
  });

  it('each package depends on the versions of the other @agentlog packages packed with it', () => {
    const versions = new Map(packed.map((p) => [p.name, p.version]));
    for (const p of packed) {
      const dependencies = readManifest(dirOf(p.name)).dependencies ?? {};
      for (const [name, spec] of Object.entries(dependencies)) {
        if (name.startsWith('@agentlog/'))
          expect(spec, `${p.name} -> ${name}`).toBe(versions.get(name));
      }
    }
  });
});

describe('every entry imported from the installed tarballs, in a new node process', () => {
  it('the README tables cover exactly the entries the tarballs export', () => {
    expect(allEntries().sort()).toEqual(Object.keys(README_EXPORTS).sort());
  });

  it('each entry resolves inside the project, not to the workspace', () => {
    const inside = pathToFileURL(join(project, 'node_modules')).href + '/';
    for (const [entry, { resolved }] of Object.entries(probe.probes)) {
      expect(resolved.startsWith(inside), `${entry} resolved to ${resolved}`).toBe(true);
    }
    expect(Object.keys(probe.probes).sort()).toEqual(Object.keys(README_EXPORTS).sort());
  });

  it('each package finds the @agentlog packages it depends on in the project too', () => {
    // store -> core; replay -> core; console -> core; cli -> core, store, replay, console
    expect(internal.length).toBe(7);
    internal.forEach(([dir, dependency], i) => {
      const inside = join(project, 'node_modules', dependency) + sep;
      expect(probe.dependencies[i], `${dir} -> ${dependency}`).toContain(inside);
    });
  });

  it('each entry exports what its README says', () => {
    for (const [entry, names] of Object.entries(README_EXPORTS)) {
      const exports = probe.probes[entry]?.exports ?? {};
      const missing = names.filter(
        (name) => !['function', 'object', 'symbol'].includes(exports[name] ?? ''),
      );
      expect(missing, `${entry} exports ${Object.keys(exports).join(', ')}`).toEqual([]);
    }
  });

  it('the agentlog bin of the tarball prints its version and inspects a recorded session', () => {
    const cli = dirOf('@agentlog/cli');
    const manifest = readManifest(cli);
    const bin = join(cli, manifest.bin?.agentlog ?? 'no agentlog bin');
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
    expect(runOrThrow(process.execPath, [bin, '--version'], project)).toBe(`${manifest.version}\n`);
    const timeline = runOrThrow(process.execPath, [bin, 'inspect', join(root, FIXTURE)], project);
    expect(timeline).toMatch(/^HITL-5-shadowed-approval \(.*\) · 17 events · stopped/);
  });
});
