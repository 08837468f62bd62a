import { readFileSync } from 'node:fs';
import type pg from 'pg';

/**
 * The CPU time the PostgreSQL server on this machine has used, in ms: its postmaster's own, the
 * children it has reaped (backends that ended) and its live children's (backends, WAL writer,
 * checkpointer...), from /proc. Differences of two readings are what the server spent in between,
 * whichever backends came and went. `undefined` when the server is not a process of this machine.
 */
export async function postgresServerCpu(client: pg.Client): Promise<(() => number) | undefined> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const backend = rows[0]?.pid;
  const postmaster = backend === undefined ? undefined : statOf(backend)?.ppid;
  if (postmaster === undefined || statOf(postmaster) === undefined) return undefined;
  const tick = 1000 / 100; // USER_HZ is 100 on Linux.
  return () => {
    const own = statOf(postmaster);
    if (own === undefined) return Number.NaN;
    let ticks = own.utime + own.stime + own.cutime + own.cstime;
    for (const pid of childrenOf(postmaster)) {
      const child = statOf(pid);
      if (child !== undefined) ticks += child.utime + child.stime;
    }
    return ticks * tick;
  };
}

interface Stat {
  readonly ppid: number;
  readonly utime: number;
  readonly stime: number;
  readonly cutime: number;
  readonly cstime: number;
}

function statOf(pid: number): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces: the fields start after its closing parenthesis.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const field = (n: number) => Number(fields[n - 3]);
    return {
      ppid: field(4),
      utime: field(14),
      stime: field(15),
      cutime: field(16),
      cstime: field(17),
    };
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return text === '' ? [] : text.split(' ').map(Number);
  } catch {
    return [];
  }
}
