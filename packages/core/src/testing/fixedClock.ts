/** A clock that starts at `start` and moves `stepMs` forward on every reading (SPEC EVT-2). */
export function fixedClock(start = '2026-01-01T00:00:00.000Z', stepMs = 1000): () => Date {
  let now = Date.parse(start);
  if (Number.isNaN(now)) throw new Error(`fixedClock: ${start} is not an ISO time`);
  return () => {
    const reading = new Date(now);
    now += stepMs;
    return reading;
  };
}

/** Ids `prefix-0001`, `prefix-0002`, … for byte-for-byte deterministic streams (SPEC EVT-2). */
export function counterIds(prefix = 'id'): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `${prefix}-${String(next).padStart(4, '0')}`;
  };
}
