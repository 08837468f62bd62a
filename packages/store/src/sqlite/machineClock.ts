import { readFileSync } from 'node:fs';

/**
 * The clock of the machine a SQLite store lives on, as one process reads it (SPEC WRK-4): the
 * kernel's boot time plus the time since boot, both read once from `/proc`, advanced by this
 * process's monotonic clock. Every process on the machine reads the same clock, whatever its own
 * time of day says (a process under `faketime`, a wall clock set back or forward after it
 * started), so a lease written by one process is judged alike by every other. Processes agree to
 * within the 10 ms resolution of `/proc/uptime`. Without `/proc` (not Linux) it is the wall clock.
 */
export function machineClock(): () => Date {
  const base = bootAnchoredNow();
  if (base === undefined) return () => new Date();
  const started = performance.now();
  return () => new Date(base + (performance.now() - started));
}

/** Boot time plus uptime, in ms, or undefined when `/proc` cannot tell. */
function bootAnchoredNow(): number | undefined {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    const uptime = readFileSync('/proc/uptime', 'utf8').split(' ')[0];
    if (btime === undefined || uptime === undefined) return undefined;
    const ms = Number(btime) * 1000 + Number(uptime) * 1000;
    return Number.isFinite(ms) ? ms : undefined;
  } catch {
    return undefined;
  }
}
