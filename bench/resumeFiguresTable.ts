import { formatCount, formatSeconds } from './formatFigures.js';
import type { ResumeFigure } from './resumeBench.js';
import type { ResumeFigures } from './resumeFigures.js';
import type { ResultTable } from './resultTable.js';

const what: Readonly<Record<ResumeFigure, string>> = {
  baseline: 'baseline: JSON.parse + a reducer over the rows',
  build: 'build an Agent on the stream',
  fold: 'foldEvents of the decoded stream',
  decodeFold: 'foldStream (decode + fold) of the parsed stream',
  fork: 'forkStream at the middle',
};

/** The resume figures as one table: per size and figure, wall and CPU time and memory per event. */
export function resumeFiguresTable(figures: ResumeFigures): ResultTable {
  const figureNames: readonly ResumeFigure[] = ['baseline', 'build', 'fold', 'decodeFold', 'fork'];
  return {
    title: `Resume on SQLite (each run a fresh node --expose-gc process${figures.quick ? '; quick run: smaller sizes' : ''})`,
    header: [
      'figure',
      'events',
      'runs',
      'wall',
      'CPU',
      'heap retained/event',
      'peak RSS growth/event',
    ],
    rows: figures.sizes.flatMap((size) =>
      figureNames.map((figure) => {
        const measured = figures.at(figure, size);
        const folding = figure === 'fold' || figure === 'decodeFold';
        return [
          what[figure],
          formatCount(measured.events),
          String(measured.runs),
          formatSeconds(measured.seconds.median),
          formatSeconds(measured.cpuSeconds.median),
          folding ? '–' : `${measured.retainedBytesPerEvent.toFixed(0)} B`,
          folding ? '–' : `${measured.peakRssBytesPerEvent.toFixed(0)} B`,
        ];
      }),
    ),
    notes: [
      'Streams synthesised from a real ping run, written once per bench run through the SQLite store. Medians; CPU is user + system time of the process during the timed part (GC threads included).',
      'Baseline: better-sqlite3 `.raw().iterate()` over `SELECT event … ORDER BY revision` of the same stream, `JSON.parse` of each row and a reducer that counts events and keeps the last revision; it keeps nothing else and checks nothing.',
      'Heap retained: heapUsed after two full collections with the result (the Agent, the state) still held, minus heapUsed after two full collections before. Peak RSS growth: the process peak RSS minus its RSS before the timed part.',
      'foldEvents: page by page, as a resume folds: each page of 1,000 rows is read, parsed and decoded (in place: the decoded events are the parsed objects, no second copy) untimed, then checked and folded onto the state of the pages before it, timed; only the page and the state are alive, and the seconds are the sum of the timed folds. foldStream: the same pages parsed untimed, and the timed part decodes, checks and folds. Memory columns are left out for both: their input is made outside the timed part.',
    ],
  };
}
