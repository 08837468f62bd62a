// Measures what each entry point of the packages costs: the size of node_modules and the number of
// packages a fresh project gets when it installs the packed tarballs (plus the scenario's optional
// driver from the registry), and the time to import the entry in a new `node` process.
// Run with `npm run measure:entries` (it builds first); writes bench/results/entries.md.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
} from 'node:fs';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = 15;
const SESSION = 'fixtures/sessions/LOOP-5-limit-reached.jsonl';
const PACKAGES = {
  core: 'packages/core',
  store: 'packages/store',
  replay: 'packages/replay',
  console: 'packages/console',
  cli: 'packages/cli',
};
const DRIVERS = ['openai', '@opentelemetry/api', 'pg', '@kurrent/kurrentdb-client'];
const CLI = 'node_modules/@agentlog/cli/dist/main.js';

/** Each scenario: the tarballs and registry packages it installs, and the entries it times. */
const SCENARIOS = [
  {
    name: 'core',
    packages: ['core'],
    drivers: [],
    entries: ['@agentlog/core', '@agentlog/core/testing', '@agentlog/core/store-kit'],
  },
  {
    name: 'core + openai',
    packages: ['core'],
    drivers: ['openai'],
    entries: ['@agentlog/core/openai'],
  },
  {
    name: 'core + @opentelemetry/api',
    packages: ['core'],
    drivers: ['@opentelemetry/api'],
    entries: ['@agentlog/core/otel'],
  },
  {
    name: 'core + store',
    packages: ['core', 'store'],
    drivers: [],
    entries: ['@agentlog/store', '@agentlog/store/sqlite', '@agentlog/store/jsonl'],
    skipped: [['@agentlog/store/conformance', 'needs vitest: import not timed']],
  },
  {
    name: 'core + store + pg',
    packages: ['core', 'store'],
    drivers: ['pg'],
    entries: ['@agentlog/store/postgres'],
  },
  {
    name: 'core + store + @kurrent/kurrentdb-client',
    packages: ['core', 'store'],
    drivers: ['@kurrent/kurrentdb-client'],
    entries: ['@agentlog/store/kurrentdb'],
  },
  {
    name: 'core + replay',
    packages: ['core', 'replay'],
    drivers: [],
    entries: ['@agentlog/replay'],
  },
  {
    name: 'core + console',
    packages: ['core', 'console'],
    drivers: [],
    entries: ['@agentlog/console'],
  },
  {
    name: 'the command: core + store + replay + console + cli',
    packages: ['core', 'store', 'replay', 'console', 'cli'],
    drivers: [],
    entries: ['@agentlog/cli'],
    cli: [
      ['agentlog --version', ['--version']],
      ['agentlog inspect <file.jsonl>', ['inspect', 'session.jsonl']],
    ],
  },
  {
    name: 'old layout: core + store + pg + kurrent + openai',
    packages: ['core', 'store'],
    drivers: ['pg', '@kurrent/kurrentdb-client', 'openai'],
    entries: [],
    together: [
      '@agentlog/store',
      '@agentlog/store/postgres',
      '@agentlog/store/kurrentdb',
      '@agentlog/core/openai',
    ],
  },
];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
  }
  return result.stdout;
}

function pack(destination) {
  mkdirSync(destination, { recursive: true });
  const workspaces = Object.values(PACKAGES).flatMap((path) => ['--workspace', path]);
  const output = run('npm', ['pack', ...workspaces, '--pack-destination', destination, '--json'], {
    cwd: root,
  });
  const tarballs = {};
  for (const packed of JSON.parse(output)) {
    const paths = packed.files.map((file) => file.path);
    const tests = paths.filter((path) => /\.test\.|(^|\/)(test|__tests__)\//.test(path));
    // npm always packs the manifest, the README and the LICENSE; the rest must be dist/.
    const always = new Set(['package.json', 'README.md', 'LICENSE']);
    const outside = paths.filter((path) => !always.has(path) && !path.startsWith('dist/'));
    if (!paths.some((path) => path.startsWith('dist/')) || tests.length > 0 || outside.length > 0) {
      throw new Error(
        `${packed.filename}: no dist, or tests/other files: ${[...tests, ...outside]}`,
      );
    }
    const key = Object.keys(PACKAGES).find((k) => packed.name === `@agentlog/${k}`);
    tarballs[key] = { file: join(destination, packed.filename), entries: packed.entryCount };
  }
  return tarballs;
}

function install(scenario, tarballs, directory) {
  const local = scenario.packages.map((key) => tarballs[key].file);
  // The store and replay tarballs depend on @agentlog/core@0.1.0: pin every @agentlog package to
  // the local tarball, whatever the registry holds under that name. npm stores the specs relative.
  const overrides = Object.fromEntries(
    scenario.packages.map((key) => [
      `@agentlog/${key}`,
      `file:${relative(directory, tarballs[key].file)}`,
    ]),
  );
  const manifest = {
    type: 'module',
    private: true,
    allowScripts: { 'better-sqlite3': true },
    overrides,
  };
  writeFileSync(join(directory, 'package.json'), JSON.stringify(manifest, null, 2));
  const started = performance.now();
  run('npm', ['install', '--no-audit', '--no-fund', ...local, ...scenario.drivers], {
    cwd: directory,
  });
  const seconds = (performance.now() - started) / 1000;
  for (const key of scenario.packages) {
    const installed = readJson(join(directory, 'node_modules/@agentlog', key, 'package.json'));
    const ours = readJson(join(root, PACKAGES[key], 'package.json'));
    if (installed.description !== ours.description) {
      throw new Error(`${scenario.name}: node_modules/@agentlog/${key} is not the local tarball`);
    }
  }
  for (const driver of DRIVERS) {
    const present = existsSync(join(directory, 'node_modules', driver, 'package.json'));
    if (present !== scenario.drivers.includes(driver)) {
      throw new Error(`${scenario.name}: ${driver} is ${present ? '' : 'not '}installed`);
    }
  }
  return seconds;
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Packages directly under node_modules/ and node_modules/@scope/, and those nested deeper. */
function countPackages(modules) {
  let top = 0;
  let nested = 0;
  const walk = (directory, depth) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(directory, entry.name);
      const dirs = entry.name.startsWith('@')
        ? readdirSync(path, { withFileTypes: true })
            .filter((d) => d.isDirectory())
            .map((d) => join(path, d.name))
        : [path];
      for (const dir of dirs) {
        if (!existsSync(join(dir, 'package.json'))) continue;
        if (depth === 0) top++;
        else nested++;
        if (existsSync(join(dir, 'node_modules'))) walk(join(dir, 'node_modules'), depth + 1);
      }
    }
  };
  walk(modules, 0);
  return { top, nested };
}

function diskKiB(path) {
  return Number(run('du', ['-sk', path]).split('\t')[0]);
}

/** The three largest packages under node_modules/, by `du -sk`. */
function largest(modules) {
  const dirs = readdirSync(modules, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
    .flatMap((d) =>
      d.name.startsWith('@')
        ? readdirSync(join(modules, d.name)).map((name) => `${d.name}/${name}`)
        : [d.name],
    );
  return dirs
    .map((name) => ({ name, kib: diskKiB(join(modules, name)) }))
    .sort((a, b) => b.kib - a.kib)
    .slice(0, 3);
}

function wallMs(args, cwd) {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} failed:\n${result.stderr}`);
  return ms;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Times every probe of a scenario RUNS times, round-robin, with the bare `node -e ""` in each round. */
function time(probes, cwd) {
  const samples = new Map([['baseline', []], ...probes.map((p) => [p.label, []])]);
  for (let round = 0; round < RUNS; round++) {
    samples.get('baseline').push(wallMs(['-e', ''], cwd));
    for (const probe of probes) samples.get(probe.label).push(wallMs(probe.args, cwd));
  }
  return new Map([...samples].map(([label, values]) => [label, median(values)]));
}

function importArgs(entries) {
  const body = entries.map((entry) => `await import('${entry}');`).join(' ');
  return ['--input-type=module', '-e', body];
}

const mib = (kib) => `${(kib / 1024).toFixed(1)} MiB`;
const ms = (value) => `${value.toFixed(0)} ms`;

function table(results) {
  const rows = [['entry', 'installs with', 'packages', 'size on disk', 'import ms']];
  for (const r of results) {
    const packages = `${r.count.top}${r.count.nested ? ` (+${r.count.nested} nested)` : ''}`;
    const cells = (entry, figure) => [entry, r.name, packages, mib(r.kib), figure];
    for (const entry of r.scenario.entries) {
      rows.push(cells(`\`${entry}\``, ms(r.timings.get(entry) - r.timings.get('baseline'))));
    }
    for (const [entry, reason] of r.scenario.skipped ?? [])
      rows.push(cells(`\`${entry}\``, reason));
    for (const [label] of r.scenario.cli ?? []) {
      const wall = r.timings.get(label);
      rows.push(
        cells(
          `\`${label}\``,
          `${ms(wall)} wall (${ms(wall - r.timings.get('baseline'))} over node)`,
        ),
      );
    }
    if (r.scenario.together) {
      const label = r.scenario.together.join(' + ');
      const entries = `all of ${r.scenario.together.map((e) => `\`${e}\``).join(', ')}`;
      rows.push(cells(entries, ms(r.timings.get(label) - r.timings.get('baseline'))));
    }
  }
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join('\n');
}

function report(results, tarballs, baselines, compiled) {
  const cpu = cpus();
  const largestLines = results.map(
    (r) => `- ${r.name}: ${r.largest.map((p) => `${p.name} ${mib(p.kib)}`).join(', ')}`,
  );
  const packed = Object.entries(tarballs).map(([key, t]) => `@agentlog/${key} ${t.entries} files`);
  return [
    '# Install size and import time of each entry point',
    '',
    `\`npm run measure:entries\` on ${cpu[0]?.model.trim()}, ${cpu.length} cores; Node ${process.version}; ${new Date().toISOString()}; load average at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}.`,
    '',
    table(results),
    '',
    `Each scenario is a fresh project (\`{"type":"module","private":true}\`) that ran \`npm install --no-audit --no-fund <tarballs> [driver]\` with the tarballs of \`npm pack\` (${packed.join(', ')}; dist only, no tests). Packages: directories with a package.json directly under node_modules/ and node_modules/@scope/. Size on disk: \`du -sk node_modules\`.`,
    '',
    `Import ms: the median of ${RUNS} runs of \`node --input-type=module -e "await import('<entry>')"\`, each a new process, minus the median of ${RUNS} runs of \`node -e ""\` taken in the same rounds (${baselines}). The CLI rows are the median wall time of \`node ${CLI} …\`. The conformance entry needs vitest; its import is not timed. The machine is shared: figures are medians, expect a few ms of noise.`,
    '',
    ...(compiled.size > 0
      ? [
          `better-sqlite3 was compiled from source here (its install script could not download the prebuilt binary), so its size includes its build directory: ${[...compiled].map(mib).join(', ')}. With the prebuilt binary it is smaller.`,
          '',
        ]
      : []),
    'Largest packages per scenario (`du -sk`):',
    '',
    ...largestLines,
    '',
  ].join('\n');
}

function main() {
  const work = mkdtempSync(join(tmpdir(), 'agentlog-entries-'));
  try {
    const tarballs = pack(join(work, 'tarballs'));
    const results = [];
    const compiled = new Set();
    for (const scenario of SCENARIOS) {
      const directory = join(work, `project-${results.length}`);
      mkdirSync(directory);
      const seconds = install(scenario, tarballs, directory);
      copyFileSync(join(root, SESSION), join(directory, 'session.jsonl'));
      const modules = join(directory, 'node_modules');
      const probes = [
        ...scenario.entries.map((entry) => ({ label: entry, args: importArgs([entry]) })),
        ...(scenario.cli ?? []).map(([label, args]) => ({ label, args: [CLI, ...args] })),
      ];
      if (scenario.together) {
        probes.push({ label: scenario.together.join(' + '), args: importArgs(scenario.together) });
      }
      const timings = time(probes, directory);
      const count = countPackages(modules);
      const build = join(modules, 'better-sqlite3/build/Release/obj.target');
      if (existsSync(build)) compiled.add(diskKiB(join(modules, 'better-sqlite3/build')));
      const kib = diskKiB(modules);
      results.push({
        name: scenario.name,
        scenario,
        count,
        kib,
        timings,
        largest: largest(modules),
      });
      console.error(
        `${scenario.name}: installed in ${seconds.toFixed(0)} s, ${count.top} packages, ${mib(kib)}`,
      );
    }
    const baselines = `\`node -e ""\`: ${results.map((r) => ms(r.timings.get('baseline'))).join(', ')}`;
    const text = report(results, tarballs, baselines, compiled);
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(join(root, 'bench/results/entries.md'), text);
    console.log(text);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
