import { formatKb, formatRatio, formatSeconds } from './formatFigures.js';
import type { ResultTable } from './resultTable.js';
import { runChild } from './runChild.js';
import { summarise, type Summary } from './summarise.js';

/** One framework of the approval scenario and how to start it for a number of cycles. */
export interface ApprovalContender {
  readonly name: string;
  /** The contender the others are divided by (at most one). */
  readonly baseline?: boolean;
  readonly script: string;
  args(cycles: number): readonly string[];
}

/** What one framework's approval run measured. */
export interface ApprovalFigure {
  readonly name: string;
  readonly perCycle: Summary;
  /** Mean of the last 20 cycles ÷ mean of the first 20. */
  readonly drift: number;
  readonly rssKb: number;
  /** Median per cycle ÷ the baseline's, when there is a baseline. */
  readonly ratio?: number;
}

/** The approval figures and their table. */
export interface ApprovalResult {
  readonly figures: readonly ApprovalFigure[];
  readonly table: ResultTable;
}

/**
 * Runs each contender's approval scenario once in a fresh process, `cycles` cycles in a row, and
 * summarises the per-cycle times: median, min–max, and the drift of the last 20 over the first 20.
 */
export async function approvalBench(
  contenders: readonly ApprovalContender[],
  cycles: number,
  timeoutSeconds: number,
): Promise<ApprovalResult> {
  const measured: (Omit<ApprovalFigure, 'ratio'> & { readonly baseline: boolean })[] = [];
  for (const contender of contenders) {
    const outcome = await runChild(contender.script, contender.args(cycles), {
      budgetSeconds: timeoutSeconds,
    });
    if (outcome.kind === 'timedOut')
      throw new Error(`${contender.name}: the approval scenario timed out`);
    const times = outcome.result.cycles ?? [];
    if (times.length !== cycles)
      throw new Error(`${contender.name}: ${times.length} of ${cycles} cycles reported`);
    const window = Math.min(20, Math.floor(cycles / 2));
    const mean = (values: readonly number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length;
    measured.push({
      name: contender.name,
      baseline: contender.baseline === true,
      perCycle: summarise(times),
      drift: mean(times.slice(-window)) / mean(times.slice(0, window)),
      rssKb: outcome.result.maxRssKb,
    });
  }
  const baseline = measured.find((figure) => figure.baseline);
  const figures: ApprovalFigure[] = measured.map(({ baseline: _, ...figure }) =>
    baseline === undefined
      ? figure
      : { ...figure, ratio: figure.perCycle.median / baseline.perCycle.median },
  );
  const table: ResultTable = {
    title: `Approval cycle, ${cycles} cycles (ask → stop for approval → reload → approve → tool runs → text)`,
    header: [
      'framework',
      'per cycle (median)',
      'min–max',
      baseline === undefined ? 'ratio' : `÷ ${baseline.name}`,
      'last 20 ÷ first 20',
      'peak RSS',
    ],
    rows: figures.map((figure) => [
      figure.name,
      formatSeconds(figure.perCycle.median),
      `${formatSeconds(figure.perCycle.min)}–${formatSeconds(figure.perCycle.max)}`,
      figure.ratio === undefined ? '' : formatRatio(figure.ratio),
      formatRatio(figure.drift),
      formatKb(figure.rssKb),
    ]),
    notes: [
      'agentlog: each cycle builds a new Agent from the SQLite store to `query`, and another to record the approval and `run()`; the approved tool is not idempotent. ' +
        'AI SDK 7: `toolApproval: user-approval`; the conversation goes through JSON.stringify/JSON.parse after the request and after the answer. ' +
        'One run per row; the cycles are the samples.',
    ],
  };
  return { figures, table };
}
