// `npm run bench [-- --quick] [-- --no-peers]`: agentlog side by side with peer frameworks, the
// approval cycle, agentlog-only figures, the targets, and (full run) the store bench.
// Prints everything and writes it as Markdown to bench/results/latest.md. Missed targets do not
// fail the command; a crashing scenario does.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { agentlogFiguresTable } from './agentlogFiguresTable.js';
import { approvalBench, type ApprovalContender } from './approvalBench.js';
import { benchSettings } from './benchSettings.js';
import { ensurePeers } from './ensurePeers.js';
import { fixtureReplayFigure } from './fixtureReplayFigure.js';
import { foldFigures } from './foldFigures.js';
import { machineInfo } from './machineInfo.js';
import { pingFigures } from './pingFigures.js';
import { pingTables } from './pingTables.js';
import { tableMarkdown, tableText, type ResultTable } from './resultTable.js';
import { sideBySide, type Contender } from './sideBySide.js';
import { sqliteFigures } from './sqliteFigures.js';
import { runStoreBench } from './storeBench.js';
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

const names = {
  memory: 'agentlog, in memory',
  sqlite: 'agentlog, SQLite',
  aiSdk: 'AI SDK 7',
  openai: 'OpenAI Agents JS',
  langgraph: 'LangGraph',
  floor: 'floor: minimal event-sourced loop',
} as const;

const machine = machineInfo();
const header = `agentlog bench${settings.quick ? ' --quick' : ''}: ${machine}`;
console.log(header);
const peers = settings.noPeers
  ? ({ ok: false, reason: '--no-peers was given' } as const)
  : await ensurePeers(benchDir);
const peerLine = peers.ok
  ? undefined
  : `Peers not run (${peers.reason}): agentlog and the floor alone, no ratios to AI SDK 7.`;
if (peerLine !== undefined) console.log(peerLine);

const child =
  (scenario: string): Contender['args'] =>
  (size) => [scenario, String(size)];
const peerContenders: Contender[] = peers.ok
  ? [
      { name: names.aiSdk, script: peerScript('aiSdkPing.mjs'), args: (steps) => [String(steps)] },
      {
        name: names.openai,
        script: peerScript('openaiAgentsPing.mjs'),
        args: (steps) => [String(steps)],
      },
      {
        name: names.langgraph,
        script: peerScript('langgraphPing.mjs'),
        args: (steps) => [String(steps)],
      },
    ]
  : [];
const contenders: Contender[] = [
  { name: names.memory, script: childScript, args: child('ping-memory') },
  { name: names.sqlite, script: childScript, args: child('ping-sqlite') },
  ...peerContenders,
  { name: names.floor, script: childScript, args: child('ping-floor') },
];
const baseline = peers.ok ? names.aiSdk : undefined;

progress('side by side: the ping scenario …');
const ping = pingFigures(
  await sideBySide(contenders, settings, progress),
  settings.steps,
  baseline,
);
for (const table of pingTables(ping, settings.steps, baseline)) print(table);

progress('approval cycle …');
const approvalContenders: ApprovalContender[] = [
  { name: `${names.sqlite} (persisted)`, script: childScript, args: child('approval') },
  ...(peers.ok
    ? [
        {
          name: `${names.aiSdk} + JSON round trip`,
          script: peerScript('aiSdkApproval.mjs'),
          args: (cycles: number) => [String(cycles)],
        },
      ]
    : []),
];
const approval = await approvalBench(
  approvalContenders,
  settings.cycles,
  settings.runTimeoutSeconds * 2,
);
print(approval.table);

progress('agentlog alone: fold, SQLite stream, fixture replay …');
const fold = await foldFigures(childScript, settings, progress);
const sqlite = await sqliteFigures(
  childScript,
  10_000,
  settings.figureRuns,
  Math.min(settings.runTimeoutSeconds, 60),
);
const fixtures = await fixtureReplayFigure(rootDir, settings.figureRuns);
print(agentlogFiguresTable(fold, sqlite, fixtures));

const figure = (name: string, steps: number) =>
  ping.find((row) => row.name === name)?.bySteps.get(steps);
const fewest = Math.min(...settings.steps);
const most = Math.max(...settings.steps);
const [fewestText, mostText] = [fewest, most].map((steps) => steps.toLocaleString('en-US'));
const noPeers = peers.ok ? 'not measured' : 'peers not run';
const agentlogDrift = approval.figures[0]?.drift;
const targets = [
  ratioTarget(
    `per step in memory, ${fewestText} steps, agentlog ÷ AI SDK 7`,
    figure(names.memory, fewest)?.ratio,
    0.05,
    noPeers,
  ),
  ratioTarget(
    `per step on SQLite, ${fewestText} steps, ÷ AI SDK 7 in memory`,
    figure(names.sqlite, fewest)?.ratio,
    0.25,
    noPeers,
  ),
  ratioTarget(
    `per step at ${mostText} ÷ per step at ${fewestText}, agentlog in memory`,
    ping.find((row) => row.name === names.memory)?.growth,
    1.5,
  ),
  ratioTarget(
    `per step at ${mostText} ÷ per step at ${fewestText}, agentlog on SQLite`,
    ping.find((row) => row.name === names.sqlite)?.growth,
    1.5,
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
  ratioTarget(
    'persisted approval cycle ÷ AI SDK 7 with a JSON round trip',
    approval.ratio,
    0.33,
    noPeers,
  ),
  ratioTarget('approval: last 20 cycles ÷ first 20, agentlog', agentlogDrift, 1.5),
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

await writeMarkdown(
  join(benchDir, 'results', 'latest.md'),
  [
    '# agentlog bench results',
    '',
    `\`npm run bench${settings.quick ? ' -- --quick' : ''}\` on ${machine}.`,
    ...(peerLine === undefined ? [] : ['', peerLine]),
    ...sections.flatMap((section) => ['', section]),
    '',
  ].join('\n'),
);

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
