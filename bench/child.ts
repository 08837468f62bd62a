// The entry of agentlog's bench children, one measurement per fresh process, printed as a JSON
// line (see childResult.ts):
//   node bench/dist/child.js ping-memory|ping-sqlite|ping-floor <steps>
//   node bench/dist/child.js approval <cycles>
//   node bench/dist/child.js fold <events>
//   node bench/dist/child.js sqlite-prepare <dir> <events>
//   node bench/dist/child.js sqlite-build|sqlite-resume|sqlite-fork <dir>
import { reportChildResult } from './childResult.js';

const [scenario = '', first = '', second = ''] = process.argv.slice(2);

function count(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`bench child: bad count ${text}`);
  return value;
}

switch (scenario) {
  case 'ping-memory':
  case 'ping-sqlite': {
    const { agentlogPing } = await import('./agentlogPing.js');
    const store = scenario === 'ping-memory' ? 'memory' : 'sqlite';
    reportChildResult({ seconds: await agentlogPing(count(first), store) });
    break;
  }
  case 'ping-floor': {
    const { floorPing } = await import('./floorPing.js');
    reportChildResult({ seconds: await floorPing(count(first)) });
    break;
  }
  case 'approval': {
    const { agentlogApproval } = await import('./agentlogApproval.js');
    const cycles = await agentlogApproval(count(first));
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
  default:
    throw new Error(`bench child: unknown scenario ${scenario}`);
}
