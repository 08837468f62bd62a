// The entry of agentlog's bench children, one measurement per fresh process, printed as a JSON
// line (see childResult.ts); the ping scenarios print two, cold then warm (see coldAndWarm):
//   node bench/dist/child.js ping-memory|ping-floor|ping-floor-checked|ping-floor-jsonl <steps>
//   node bench/dist/child.js ping-sqlite <steps> full|sideEffects|process [idempotent]
//   node bench/dist/child.js steady memory|sqlite-process|floor|floor-checked|floor-jsonl <steps>
//   node bench/dist/child.js approval <cycles> full|sideEffects|process
//   node bench/dist/child.js fold <events>
//   node bench/dist/child.js sqlite-prepare <dir> <events>
//   node bench/dist/child.js sqlite-build|sqlite-resume|sqlite-fork <dir>
//   node bench/dist/child.js growth <dir> replay|report|inspect|fork|list|pending
//   node bench/dist/child.js resume-prepare <dir> <events>[,<events>…]
//   node --expose-gc bench/dist/child.js resume-build|resume-baseline|resume-fork|resume-fold|resume-decodeFold <dir> <events>
import { fileURLToPath } from 'node:url';
import type { SqliteDurability } from '@agentlog/store';
import { reportChildResult } from './childResult.js';

const [scenario = '', first = '', second = '', third = ''] = process.argv.slice(2);

function count(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`bench child: bad count ${text}`);
  return value;
}

switch (scenario) {
  case 'ping-memory': {
    const { agentlogPing } = await import('./agentlogPing.js');
    const steps = count(first);
    await coldAndWarm(() => agentlogPing(steps, { kind: 'memory' }));
    break;
  }
  case 'ping-sqlite': {
    const { agentlogPing } = await import('./agentlogPing.js');
    const steps = count(first);
    const store = {
      kind: 'sqlite',
      durability: durabilityOf(second),
      idempotentTool: third === 'idempotent',
    } as const;
    await coldAndWarm(() => agentlogPing(steps, store));
    break;
  }
  case 'ping-floor': {
    const { floorPing } = await import('./floorPing.js');
    const steps = count(first);
    await coldAndWarm(() => floorPing(steps));
    break;
  }
  case 'ping-floor-checked': {
    const { floorCheckedPing } = await import('./floorCheckedPing.js');
    const steps = count(first);
    await coldAndWarm(() => floorCheckedPing(steps));
    break;
  }
  case 'ping-floor-jsonl': {
    const { floorJsonlPing } = await import('./floorJsonlPing.js');
    const steps = count(first);
    await coldAndWarm(() => floorJsonlPing(steps));
    break;
  }
  case 'steady': {
    const { steadyRuns, steadyScenario } = await import('./steadyRuns.js');
    await steadyRuns(steadyScenario(first), count(second));
    break;
  }
  case 'approval': {
    const { agentlogApproval } = await import('./agentlogApproval.js');
    const cycles = await agentlogApproval(count(first), { durability: durabilityOf(second) });
    reportChildResult({ seconds: cycles.reduce((sum, time) => sum + time, 0), cycles });
    break;
  }
  case 'fold': {
    const { foldBench } = await import('./foldBench.js');
    await foldBench(count(first));
    break;
  }
  case 'sqlite-prepare': {
    const { prepareSqliteStream } = await import('./sqliteStreamBench.js');
    await prepareSqliteStream(first, count(second));
    break;
  }
  case 'sqlite-build':
  case 'sqlite-resume':
  case 'sqlite-fork': {
    const { measureSqliteStream } = await import('./sqliteStreamBench.js');
    const figure =
      scenario === 'sqlite-build' ? 'build' : scenario === 'sqlite-resume' ? 'resume' : 'fork';
    await measureSqliteStream(first, figure);
    break;
  }
  case 'growth': {
    const { growthCommands, measureCliGrowth } = await import('./measureCliGrowth.js');
    const command = growthCommands.find((name) => name === second);
    if (command === undefined) throw new Error(`bench child: unknown growth command ${second}`);
    const rootDir = fileURLToPath(new URL('../..', import.meta.url));
    await measureCliGrowth(rootDir, first, command);
    break;
  }
  case 'resume-prepare': {
    const { prepareResumeStreams } = await import('./resumeBench.js');
    await prepareResumeStreams(first, second.split(',').map(count));
    break;
  }
  case 'resume-build':
  case 'resume-baseline':
  case 'resume-fork':
  case 'resume-fold':
  case 'resume-decodeFold': {
    const { measureResume, resumeFigureOf } = await import('./resumeBench.js');
    await measureResume(first, count(second), resumeFigureOf(scenario.slice('resume-'.length)));
    break;
  }
  default:
    throw new Error(`bench child: unknown scenario ${scenario}`);
}

/**
 * Runs the scenario twice in this fresh process, each time with a fresh model, tool and store:
 * the first run's time is the cold figure, the second's (right after it) the warm one. Each is
 * printed as soon as it is known, with the peak RSS so far.
 */
async function coldAndWarm(run: () => Promise<number>): Promise<void> {
  reportChildResult({ seconds: await run(), phase: 'cold' });
  reportChildResult({ seconds: await run(), phase: 'warm' });
}

function durabilityOf(text: string): SqliteDurability {
  if (text === 'full' || text === 'sideEffects' || text === 'process') return text;
  throw new Error(`bench child: bad durability ${text}`);
}
