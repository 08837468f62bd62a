import { formatCount, formatRatio } from './formatFigures.js';
import type { ResumeFigures } from './resumeFigures.js';
import { ratioTarget, type Target } from './targets.js';

/**
 * The resume targets on the largest size measured (1,000,000 events in a full run; the
 * quick run's smaller sizes are named in each line). Times are CPU seconds: the machine is shared.
 */
export function resumeTargets(figures: ResumeFigures, foldBenchSeconds?: number): Target[] {
  const [small = 0, large = 0] = figures.sizes;
  const at = figures.at;
  const build = at('build', large);
  const quick = figures.quick ? ' (quick run: not 1,000,000)' : '';
  const events = `${formatCount(build.events)} events`;
  const bytesTarget = (label: string, bytes: number): Target => ({
    label: `${label} ≤ 600 B`,
    measured: `${bytes.toFixed(0)} B`,
    pass: bytes <= 600,
  });
  const fold = at('fold', large);
  const rate = fold.events / fold.cpuSeconds.median;
  const decodeFold = at('decodeFold', large);
  const withDecode = decodeFold.events / decodeFold.cpuSeconds.median;
  const reference =
    foldBenchSeconds === undefined
      ? ''
      : `; the fold bench above, wall: ${formatCount(Math.round(1_000_000 / foldBenchSeconds))}/s`;
  const growth = `${formatCount(small)} → ${formatCount(large)} events`;
  return [
    ratioTarget(
      `build an Agent on ${events} of SQLite ÷ JSON.parse + a reducer over the same rows, CPU${quick}`,
      build.cpuSeconds.median / at('baseline', large).cpuSeconds.median,
      2,
    ),
    bytesTarget(`build on ${events}: heap retained per event${quick}`, build.retainedBytesPerEvent),
    bytesTarget(
      `build on ${events}: peak RSS growth per event${quick}`,
      build.peakRssBytesPerEvent,
    ),
    ratioTarget(
      `build, CPU, ${growth}`,
      build.cpuSeconds.median / at('build', small).cpuSeconds.median,
      12,
    ),
    ratioTarget(
      `forkStream at the middle, CPU, ${growth}`,
      at('fork', large).cpuSeconds.median / at('fork', small).cpuSeconds.median,
      12,
    ),
    {
      label: `foldEvents of ${formatCount(fold.events)} events read from SQLite and decoded, nothing else held, CPU${quick} ≥ 2,000,000 events/s`,
      measured: `${formatCount(Math.round(rate))} events/s (${formatRatio(rate / 2_000_000)} of it; with decoding ${formatCount(Math.round(withDecode))}/s${reference})`,
      pass: rate >= 2_000_000,
    },
  ];
}
