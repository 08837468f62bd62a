// The public surface of every entry point of every package, as API Extractor reports it
// (docs/packages.md, "The public surface"). Run after `tsc -b`: it reads the built declarations.
//
//   node scripts/apiReports.mjs           check: fails, with a diff, when an entry's surface differs
//                                         from its report in api/, or a report has no entry any more
//   node scripts/apiReports.mjs --update  write the reports anew (then review and commit them)
//
// Each entry of a package.json `exports` map (its `types` target) gets `api/<package>.api.md` for
// `.` and `api/<package>.<entry>.api.md` for `./<entry>`, e.g. api/core.store-kit.api.md. A type an
// entry's surface uses without exporting it is marked `ae-forgotten-export` in its report, unless
// the package's root exports it (API Extractor sees one entry at a time).
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const reportFolder = join(root, 'api');
const update = process.argv.includes('--update');

/** Every entry point of the workspace's packages: its package, report name and declarations. */
function entryPoints() {
  const packages = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces.filter(
    (folder) => folder.startsWith('packages/'),
  );
  return packages.flatMap((folder) => {
    const packageJson = join(root, folder, 'package.json');
    const manifest = JSON.parse(readFileSync(packageJson, 'utf8'));
    const short = manifest.name.replace(/^@agentlog\//, '');
    return Object.entries(manifest.exports).map(([key, conditions]) => ({
      folder: join(root, folder),
      packageJson,
      entry: key === '.' ? manifest.name : `${manifest.name}/${key.slice(2)}`,
      report: key === '.' ? short : `${short}.${key.slice(2).replaceAll('/', '.')}`,
      declarations: join(root, folder, conditions.types),
    }));
  });
}

/** One entry's API Extractor configuration: an API report only, written to `reportTemp`. */
function configOf(entry, reportTemp) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: entry.folder,
      newlineKind: 'lf',
      mainEntryPointFilePath: entry.declarations,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            lib: ['ES2023'],
            module: 'nodenext',
            moduleResolution: 'nodenext',
            types: ['node'],
            strict: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: true,
          },
          files: [entry.declarations],
        },
      },
      apiReport: {
        enabled: true,
        reportFileName: entry.report,
        reportFolder: reportTemp,
        reportTempFolder: join(reportTemp, 'temp'),
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning' },
          // No release tags (@public, @beta): what an entry exports is public.
          'ae-missing-release-tag': { logLevel: 'none' },
          // Members without TSDoc, and {@link}s API Extractor cannot follow: not the surface.
          'ae-undocumented': { logLevel: 'none' },
          'ae-unresolved-link': { logLevel: 'none' },
          // A type the surface uses but the entry does not export: noted in the report.
          'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
    configObjectFullPath: join(entry.folder, 'api-extractor.json'),
    packageJsonFullPath: entry.packageJson,
  });
}

const entries = entryPoints();
const missing = entries.filter((entry) => !existsSync(entry.declarations));
if (missing.length > 0) {
  console.error(`api: no declarations for ${missing.map((e) => e.entry).join(', ')}: run tsc -b`);
  process.exit(1);
}

/** The names each package's root entry exports, by package folder. */
function rootExports(program) {
  const checker = program.getTypeChecker();
  const names = new Map();
  for (const entry of entries.filter((e) => !e.entry.slice('@agentlog/'.length).includes('/'))) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(entry.declarations));
    names.set(entry.folder, new Set(checker.getExportsOfModule(module).map((s) => s.name)));
  }
  return names;
}

const forgotten = /^\s*\/\/ .*\(ae-forgotten-export\) The symbol "([^"]+)" needs to be exported/;
const position = /^\/\/ \S+:\d+:\d+ - /;
const warnings = '// Warnings were encountered during analysis:';

/**
 * `report` without the forgotten-export warnings of names that `exported` holds. The warnings
 * listed at its end lose their source positions, which move with every edit above them.
 */
function withoutExported(report, exported) {
  const kept = [];
  for (const line of report.split('\n').map((l) => l.replace(position, '// '))) {
    const name = forgotten.exec(line)?.[1];
    if (name !== undefined && (exported.has(name) || kept.includes(line))) continue;
    // A warning's block ends in a bare `//` before the TSDoc tags: gone with the last warning.
    if (/^\s*\/\/$/.test(line) && !/^\s*\/\//.test(kept.at(-1) ?? '')) continue;
    // The list of warnings at the end: gone with the last one.
    if (!line.startsWith('//') && kept.at(-1) === '//' && kept.at(-2) === warnings) {
      kept.splice(-2);
      if (line === '' && kept.at(-1) === '') continue;
    }
    kept.push(line);
  }
  return kept.join('\n');
}

const generated = mkdtempSync(join(tmpdir(), 'agentlog-api-'));
try {
  // One program for every entry: API Extractor would otherwise compile the workspace once per entry.
  const configs = entries.map((entry) => configOf(entry, generated));
  const compilerState = CompilerState.create(configs[0], {
    additionalEntryPoints: entries.map((entry) => entry.declarations),
  });
  const exportedByRoot = rootExports(compilerState.program);
  let failed = false;
  for (const [index, entry] of entries.entries()) {
    const result = Extractor.invoke(configs[index], {
      localBuild: true,
      compilerState,
      messageCallback(message) {
        // "Analysis will use the bundled TypeScript version": said once per entry, says nothing.
        if (message.category === 'console') message.handled = true;
      },
    });
    if (!result.succeeded) {
      console.error(`api: API Extractor failed on ${entry.entry}`);
      failed = true;
      continue;
    }
    const file = join(generated, `${entry.report}.api.md`);
    const isRoot = !entry.entry.slice('@agentlog/'.length).includes('/');
    const exported = isRoot ? new Set() : exportedByRoot.get(entry.folder);
    writeFileSync(file, withoutExported(readFileSync(file, 'utf8'), exported));
  }
  if (failed) process.exit(1);

  const fileOf = (entry) => `${entry.report}.api.md`;
  const expected = new Set(entries.map(fileOf));
  const stale = existsSync(reportFolder)
    ? readdirSync(reportFolder).filter((file) => file.endsWith('.api.md') && !expected.has(file))
    : [];
  if (update) {
    mkdirSync(reportFolder, { recursive: true });
    for (const file of stale) unlinkSync(join(reportFolder, file));
    let changed = 0;
    for (const entry of entries) {
      const target = join(reportFolder, fileOf(entry));
      const fresh = readFileSync(join(generated, fileOf(entry)), 'utf8');
      if (!existsSync(target) || readFileSync(target, 'utf8') !== fresh) changed += 1;
      copyFileSync(join(generated, fileOf(entry)), target);
    }
    console.log(
      `api: ${entries.length} reports in api/, ${changed} changed, ${stale.length} removed`,
    );
  } else {
    const differing = entries.filter((entry) => {
      const target = join(reportFolder, fileOf(entry));
      const fresh = readFileSync(join(generated, fileOf(entry)), 'utf8');
      return !existsSync(target) || readFileSync(target, 'utf8') !== fresh;
    });
    for (const entry of differing) {
      console.error(`api: the public surface of ${entry.entry} differs from api/${fileOf(entry)}:`);
      // git is where the reports are reviewed; its diff works on files outside a repository too.
      spawnSync(
        'git',
        [
          'diff',
          '--no-index',
          '--no-color',
          '--',
          `api/${fileOf(entry)}`,
          join(generated, fileOf(entry)),
        ],
        { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
      );
    }
    for (const file of stale) console.error(`api: api/${file} reports an entry that is gone`);
    if (differing.length > 0 || stale.length > 0) {
      console.error(
        'api: the public surface changed. If that is intended, run `npm run api:update` and commit api/.',
      );
      process.exit(1);
    }
    console.log(`api: ${entries.length} entries match their reports in api/`);
  }
} finally {
  rmSync(generated, { recursive: true, force: true });
}
