// `npm run bench [-- --quick] [-- --no-peers]`: agentlog side by side with peer frameworks, the
// approval cycle, agentlog-only figures, the targets, and (full run) the store bench.
// Prints everything and writes it as Markdown to bench/results/latest.md (a quick run to
// bench/results/quick.md, which git ignores, so it never replaces the full figures). Missed targets do not
// fail the command; a crashing scenario does.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentlogFiguresTable } from './agentlogFiguresTable.js';
import { approvalBench, type ApprovalContender } from './approvalBench.js';
import { benchSettings, type SqliteVariant } from './benchSettings.js';
import { contenderNames } from './contenderNames.js';
import { ensurePeers } from './ensurePeers.js';
import { fixtureReplayFigure } from './fixtureReplayFigure.js';
import { floorRatio } from './floorRatio.js';
import { foldFigures } from './foldFigures.js';
import { growthFigures, growthRuns } from './growthFigures.js';
import { growthTable, growthTargets } from './growthTable.js';
import { machineInfo } from './machineInfo.js';
import { pingFigures } from './pingFigures.js';
import { formatSeconds } from './formatFigures.js';
import { pingTables } from './pingTables.js';
import { resumeFigures } from './resumeFigures.js';
import { resumeFiguresTable } from './resumeFiguresTable.js';
import { resumeTargets } from './resumeTargets.js';
import { tableMarkdown, tableText, type ResultTable } from './resultTable.js';
import { phases, sideBySide, type Contender, type Phase } from './sideBySide.js';
import { sqliteFigures } from './sqliteFigures.js';
import { steadyFigures, steadyTable } from './steadyFigures.js';
import { runStoreBench } from './storeBench.js';
import { approvalCycleSyncs, pingStepSyncs } from './syncCounts.js';
import { ratioTarget, targetLines, timeTarget } from './targets.js';

const settings = benchSettings(process.argv.slice(2));
const benchDir = fileURLToPath(new URL('..', import.meta.url));
const rootDir = join(benchDir, '..');
const childScript = fileURLToPath(new URL('./child.js', import.meta.url));
const peerScript = (file: string) => join(benchDir, 'peers', file);
const progress = (line: string) => console.error(line);
const sections: string[] = [];
const print = (table: ResultTable) => {
  console.log(`\n${tableText(table)}`);
  sections.push(tableMarkdown(table));
};

const began = performance.now();
const names = contenderNames;

const machine = machineInfo();
const mode = settings.quick ? 'quick' : 'full';
const header = `agentlog bench${settings.quick ? ' --quick' : ''} (${mode} run): ${machine}`;
console.log(header);
const peers = settings.noPeers
  ? ({ ok: false, reason: '--no-peers was given' } as const)
  : await ensurePeers(benchDir);
const peerLine = peers.ok
  ? undefined
  : `Peers not run (${peers.reason}): agentlog and the floor alone, no ratios to AI SDK 7.`;
if (peerLine !== undefined) console.log(peerLine);

// Each SQLite row says what it syncs: counted once, untimed, through a counting store wrapper.
const sqliteRows = await Promise.all(
  settings.sqliteVariants.map(async (variant) => ({
    ...variant,
    syncs: await pingStepSyncs(variant.durability, variant.idempotentTool),
  })),
);
const sqliteRowName = (row: (typeof sqliteRows)[number]) => {
  const { durability, idempotentTool, syncs } = row;
  const what =
    syncs.synced === 0
      ? 'no fsync in a step'
      : durability === 'full'
        ? `every append fsynced, ${syncs.synced} per step`
        : `${syncs.synced} fsync${syncs.synced === 1 ? '' : 's'} per step`;
  return `agentlog, SQLite, durability ${durability}${idempotentTool ? ', ping marked idempotent' : ''} (${durability === 'sideEffects' && !idempotentTool ? 'default, ' : ''}${what})`;
};

const child =
  (...scenario: string[]): Contender['args'] =>
  (size) => [scenario[0] ?? '', String(size), ...scenario.slice(1)];
const peerArgs = (steps: number) => [String(steps)];
const peerSkip = (name: string) => (steps: number) => {
  const skip = settings.peerSkips[name];
  return skip !== undefined && steps > skip.above ? skip.why : undefined;
};
const peerContenders: Contender[] = peers.ok
  ? [
      { name: names.aiSdk, script: peerScript('aiSdkPing.mjs'), args: peerArgs, alwaysRuns: true },
      {
        name: names.openai,
        script: peerScript('openaiAgentsPing.mjs'),
        args: peerArgs,
        skip: peerSkip(names.openai),
      },
      {
        name: names.langgraph,
        script: peerScript('langgraphPing.mjs'),
        args: peerArgs,
        skip: peerSkip(names.langgraph),
      },
    ]
  : [];
const contenders: Contender[] = [
  { name: names.memory, script: childScript, args: child('ping-memory'), alwaysRuns: true },
  ...sqliteRows.map((row) => ({
    name: sqliteRowName(row),
    script: childScript,
    args: child('ping-sqlite', row.durability, ...(row.idempotentTool ? ['idempotent'] : [])),
    alwaysRuns: true,
  })),
  ...peerContenders,
  { name: names.floor, script: childScript, args: child('ping-floor'), alwaysRuns: true },
  {
    name: names.floorChecked,
    script: childScript,
    args: child('ping-floor-checked'),
    alwaysRuns: true,
  },
  {
    name: names.floorJsonl,
    script: childScript,
    args: child('ping-floor-jsonl'),
    alwaysRuns: true,
  },
];
const baseline = peers.ok ? names.aiSdk : undefined;

progress('side by side: the ping scenario, cold and warm …');
const runs = await sideBySide(contenders, settings, progress);
const ping = {
  cold: pingFigures(runs.cold, settings.steps, baseline),
  warm: pingFigures(runs.warm, settings.steps, baseline),
} as const;
for (const phase of phases)
  for (const table of pingTables(ping[phase], settings.steps, baseline, phase)) print(table);

progress('steady state: agentlog and the floors after warm-up runs …');
const steady = await steadyFigures(
  childScript,
  Math.max(...settings.steps),
  settings.rounds,
  settings.runTimeoutSeconds,
  progress,
);
print(steadyTable(steady));

progress('approval cycle …');
const approvalName = (durability: string) =>
  `agentlog, SQLite, durability ${durability}${durability === 'sideEffects' ? ' (default)' : ''}, persisted`;
const approvalContenders: ApprovalContender[] = [
  ...settings.approvalDurabilities.map((durability) => ({
    name: approvalName(durability),
    script: childScript,
    args: (cycles: number) => ['approval', String(cycles), durability],
  })),
  ...(peers.ok
    ? [
        {
          name: `${names.aiSdk} + JSON round trip`,
          script: peerScript('aiSdkApproval.mjs'),
          args: (cycles: number) => [String(cycles)],
          baseline: true,
        },
      ]
    : []),
];
const approval = await approvalBench(
  approvalContenders,
  settings.cycles,
  settings.runTimeoutSeconds * 2,
);
const cycleSyncs = await approvalCycleSyncs();
const agreed =
  // The start before the decision only asks (the approval gate runs nothing): it is not durable.
  cycleSyncs.durable ===
  cycleSyncs.decisions + cycleSyncs.sideEffectStarts - cycleSyncs.startsBeforeDecision
    ? 'they agree'
    : 'they DISAGREE';
print({
  ...approval.table,
  notes: [
    ...(approval.table.notes ?? []),
    `fsyncs per approval cycle with durability sideEffects (the default): ${cycleSyncs.synced.sideEffects}. ` +
      `Counted from the code path: a counting wrapper around the SQLite store saw ${cycleSyncs.durable} of the cycle's ${cycleSyncs.appends} appends marked durable, ` +
      `the ones the store commits with synchronous = FULL. Verified by reading the cycle's events back from the stream: ` +
      `${cycleSyncs.decisions} FeedbackReceived (the decision) and ${cycleSyncs.sideEffectStarts} ToolCallStarted of approve_ping, which is not idempotent ` +
      `(${cycleSyncs.startsBeforeDecision} before the decision, when the model asks for the call and the approval gate stops for a person, ` +
      `${cycleSyncs.sideEffectStarts - cycleSyncs.startsBeforeDecision} after it, when the approved call runs); ${agreed}. ` +
      `With durability process: ${cycleSyncs.synced.process}; with full: ${cycleSyncs.synced.full} (every append). WAL checkpoints aside.`,
  ],
});

progress('agentlog alone: fold, SQLite stream, fixture replay …');
const fold = await foldFigures(childScript, settings, progress);
const sqlite = await sqliteFigures(
  childScript,
  10_000,
  settings.figureRuns,
  Math.min(settings.runTimeoutSeconds, 60),
);
const fixtures = await fixtureReplayFigure(rootDir, settings.fixtureRuns);
print(agentlogFiguresTable(fold, sqlite, fixtures));
progress('resume on SQLite: build, baseline, fold, fork …');
const resume = await resumeFigures(childScript, settings.quick, progress);
print(resumeFiguresTable(resume));

progress('growth: replay, report, inspect, fork, list, pending at two sizes …');
const growth = await growthFigures(childScript, settings, progress);
print(growthTable(growth, growthRuns(settings.quick)));

const fewest = Math.min(...settings.steps);
const most = Math.max(...settings.steps);
const [fewestText, mostText] = [fewest, most].map((steps) => steps.toLocaleString('en-US'));
const noPeers = peers.ok ? 'not measured' : 'peers not run';
const phaseTargets = (phase: Phase) => {
  const row = (name: string) => ping[phase].find((figures) => figures.name === name);
  const growthLabel = `per step at ${mostText} ÷ per step at ${fewestText}`;
  const processRow = sqliteRows.find((sqliteRow) => sqliteRow.durability === 'process');
  const toFloor = (name: string, floor: string) => floorRatio(runs[phase], name, floor, most);
  return [
    ratioTarget(
      `per step in memory, ${mostText} steps, agentlog ÷ the floor`,
      toFloor(names.memory, names.floor),
      6,
      undefined,
      phase,
    ),
    ratioTarget(
      `per step on SQLite (durability process), ${mostText} steps, agentlog ÷ the floor's JSONL append`,
      processRow === undefined ? undefined : toFloor(sqliteRowName(processRow), names.floorJsonl),
      3,
      undefined,
      phase,
    ),
    ratioTarget(
      `per step in memory, ${fewestText} steps, agentlog ÷ AI SDK 7`,
      row(names.memory)?.bySteps.get(fewest)?.ratio,
      0.05,
      noPeers,
      phase,
    ),
    ...sqliteRows.map((sqliteRow) =>
      ratioTarget(
        `per step on SQLite (${variantText(sqliteRow)}), ${fewestText} steps, ÷ AI SDK 7 in memory`,
        row(sqliteRowName(sqliteRow))?.bySteps.get(fewest)?.ratio,
        0.25,
        noPeers,
        phase,
      ),
    ),
    ratioTarget(
      `${growthLabel}, agentlog in memory`,
      row(names.memory)?.growth,
      1.5,
      undefined,
      phase,
    ),
    ...sqliteRows.map((sqliteRow) =>
      ratioTarget(
        `${growthLabel}, agentlog on SQLite (${variantText(sqliteRow)})`,
        row(sqliteRowName(sqliteRow))?.growth,
        1.5,
        undefined,
        phase,
      ),
    ),
  ];
};
const approvalFigure = (durability: string) =>
  approval.figures.find((figure) => figure.name === approvalName(durability));
const steadyStepsText = steady.steps.toLocaleString('en-US');
const targets = [
  ...phaseTargets('cold'),
  ...phaseTargets('warm'),
  ratioTarget(
    `per step in memory, ${steadyStepsText} steps, agentlog ÷ the floor`,
    steady.memoryToFloor,
    6,
    undefined,
    'steady',
  ),
  ratioTarget(
    `per step on SQLite (durability process), ${steadyStepsText} steps, agentlog ÷ the floor's JSONL append`,
    steady.sqliteToJsonl,
    3,
    undefined,
    'steady',
  ),
  timeTarget(
    'fold 1,000,000 parsed events',
    fold.million?.seconds,
    0.5,
    fold.million?.extrapolated,
  ),
  timeTarget(
    `build an Agent on a ${sqlite.events.toLocaleString('en-US')}-event SQLite stream`,
    sqlite.build.median,
    0.05,
  ),
  timeTarget(
    `forkStream at the middle of a ${sqlite.events.toLocaleString('en-US')}-event stream`,
    sqlite.fork.median,
    0.05,
  ),
  ...settings.approvalDurabilities.map((durability) =>
    ratioTarget(
      `persisted approval cycle (durability ${durability}${durability === 'sideEffects' ? ', default' : ''}) ÷ AI SDK 7 with a JSON round trip`,
      approvalFigure(durability)?.ratio,
      0.33,
      noPeers,
    ),
  ),
  ...settings.approvalDurabilities.map((durability) =>
    ratioTarget(
      `approval: last 20 cycles ÷ first 20, agentlog (durability ${durability})`,
      approvalFigure(durability)?.drift,
      1.5,
    ),
  ),
  ...growthTargets(growth),
  ...resumeTargets(resume, fold.million?.seconds),
];
const lines = targetLines(targets);
console.log(`\nTargets (the issue's; a miss does not fail the command)\n\n${lines.join('\n')}`);
sections.push(['### Targets', '', '```text', ...lines, '```'].join('\n'));

if (settings.storeBench) {
  progress('store bench …');
  console.log('');
  const storeLines: string[] = [];
  const log = console.log;
  console.log = (...args: unknown[]) => {
    storeLines.push(args.map(String).join(' '));
    log(...args);
  };
  try {
    await runStoreBench();
  } finally {
    console.log = log;
  }
  sections.push(
    ['### Store bench', '', '```text', ...storeLines.join('\n').trim().split('\n'), '```'].join(
      '\n',
    ),
  );
}

const wallLine = `Total wall time: ${formatSeconds((performance.now() - began) / 1_000)} (${mode} run; \`tsc -b\` before it not included).`;
console.log(`\n${wallLine}`);
await writeMarkdown(
  join(benchDir, 'results', settings.quick ? 'quick.md' : 'latest.md'),
  [
    '# agentlog bench results',
    '',
    `${settings.quick ? 'Quick' : 'Full'} run: \`npm run bench${settings.quick ? ' -- --quick' : ''}\` on ${machine}.`,
    '',
    wallLine,
    ...(peerLine === undefined ? [] : ['', peerLine]),
    ...sections.flatMap((section) => ['', section]),
    '',
  ].join('\n'),
);

/** A SQLite row's setting in a few words, for target lines. */
function variantText(variant: SqliteVariant): string {
  return `durability ${variant.durability}${variant.durability === 'sideEffects' ? (variant.idempotentTool ? ', ping idempotent' : ', default') : ''}`;
}

/** Writes `markdown` to `path`, formatted by Prettier with the project's settings when it is installed. */
async function writeMarkdown(path: string, markdown: string): Promise<void> {
  let text = markdown;
  try {
    const prettier = await import('prettier');
    const options = (await prettier.resolveConfig(path)) ?? {};
    text = await prettier.format(markdown, { ...options, filepath: path });
  } catch {
    // Prettier is a dev dependency; without it the Markdown is written as it is.
  }
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  console.log(`\nwritten to ${path}`);
}
