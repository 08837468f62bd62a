/** Seconds as a short human figure: µs, ms or s with three significant digits. */
export function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  if (seconds < 1e-3) return `${(seconds * 1e6).toPrecision(3)} µs`;
  if (seconds < 1) return `${(seconds * 1e3).toPrecision(3)} ms`;
  if (seconds < 1_000) return `${seconds.toPrecision(3)} s`;
  const hours = seconds >= 3_600 ? ` (${(seconds / 3_600).toPrecision(2)} h)` : '';
  return `${formatCount(seconds)} s${hours}`;
}

/** A ratio such as `0.042×`, with two significant digits below 1 and three above. */
export function formatRatio(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  return `${ratio < 1 ? ratio.toPrecision(2) : ratio.toPrecision(3)}×`;
}

/** A size in kB (as `maxRSS` reports it) in MB. */
export function formatKb(kb: number): string {
  return `${Math.round(kb / 1024)} MB`;
}

/** A whole number with thousands separators. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString('en-US');
}
