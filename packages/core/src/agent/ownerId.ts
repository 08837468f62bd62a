import { hostname } from 'node:os';

let prefix: string | undefined;
let count = 0;

/**
 * A new owner id for an agent object's runs (SPEC WRK-4): the host, the process id and a number
 * that counts up in this process, so the work index and `agentlog list` say where a run lives.
 */
export function ownerId(): string {
  prefix ??= `${hostname()}-${process.pid}`;
  count += 1;
  return `${prefix}-agent-${count}`;
}
