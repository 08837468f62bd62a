import { formatRatio, formatSeconds } from './formatFigures.js';

/** One of the issue's targets with its measured figure; `pass` is undefined when not measured. */
export interface Target {
  readonly label: string;
  readonly measured: string;
  readonly pass: boolean | undefined;
}

/**
 * A ratio target `value ≤ limit` (undefined: not measured, with `why`); `qualifier` goes after the
 * limit in parentheses, such as `cold` or `warm`.
 */
export function ratioTarget(
  label: string,
  value: number | undefined,
  limit: number,
  why = 'not measured',
  qualifier?: string,
): Target {
  const full = `${label} ≤ ${limit}×${qualifier === undefined ? '' : ` (${qualifier})`}`;
  return value === undefined
    ? { label: full, measured: why, pass: undefined }
    : { label: full, measured: formatRatio(value), pass: value <= limit };
}

/** A time target `seconds < limit`, with a note such as "extrapolated". */
export function timeTarget(
  label: string,
  seconds: number | undefined,
  limit: number,
  note?: string,
): Target {
  return seconds === undefined
    ? { label: `${label} < ${formatSeconds(limit)}`, measured: 'not measured', pass: undefined }
    : {
        label: `${label} < ${formatSeconds(limit)}`,
        measured: `${formatSeconds(seconds)}${note === undefined ? '' : ` (${note})`}`,
        pass: seconds < limit,
      };
}

/** `PASS`, `MISS` or `n/a` lines, the figure after each. */
export function targetLines(targets: readonly Target[]): string[] {
  const width = Math.max(...targets.map((target) => target.label.length));
  return targets.map(
    (target) =>
      `${target.pass === undefined ? 'n/a ' : target.pass ? 'PASS' : 'MISS'}  ${target.label.padEnd(width)}  ${target.measured}`,
  );
}
