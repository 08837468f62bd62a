import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** One line naming the machine, Node, the date and the load average, for the bench header. */
export function machineInfo(): string {
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`;
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${model}, ${availableParallelism()} cores, ${memory} RAM; Node ${process.version}; ${new Date().toISOString()}; load average ${load}`;
}
