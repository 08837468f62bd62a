import { createHash, randomUUID, type Hash } from 'node:crypto';
import { z } from 'zod';
import { floorPing, type FloorMessage } from './floorPing.js';

/** The tool list of the floor's requests, as the fingerprint's tail hashes it. */
const toolsJson = JSON.stringify([
  { name: 'ping', description: 'Answers pong.', parameters: { type: 'object', properties: {} } },
]);

/**
 * The floor with the checks a step must keep (issue 21: "validation, serialisation and an
 * incremental fingerprint"), each done the plain way: every record gets an event id
 * (`crypto.randomUUID`) and an ISO time and is serialised to JSON, as a store would keep it; the
 * arguments of every tool call are parsed with zod; every request is fingerprinted with a SHA-256
 * that is extended by the new messages and copied to finish each digest. The floor builds its own
 * messages with their keys in one order, so `JSON.stringify` is canonical here. It leaves out
 * what agentlog does beyond these: a decider, states a reader may keep, hooks, masking of secrets,
 * expected revisions and idempotent appends. Returns seconds.
 */
export async function floorCheckedPing(steps: number): Promise<number> {
  const stored: string[] = [];
  const pingArgs = z.object({});
  const hash: Hash = createHash('sha256').update('{"messages":[');
  let hashed = 0;
  let fingerprint = '';
  const seconds = await floorPing(steps, {
    record: (record) => {
      const id = randomUUID();
      const at = new Date(record.at).toISOString();
      stored.push(JSON.stringify({ id, at, revision: record.revision, event: record.event }));
    },
    request: (history: readonly FloorMessage[]) => {
      let added = '';
      for (let index = hashed; index < history.length; index += 1)
        added += `${index === 0 ? '' : ','}${JSON.stringify(history[index])}`;
      if (added !== '') hash.update(added);
      hashed = history.length;
      fingerprint = hash.copy().update(`],"tools":${toolsJson}}`).digest('hex');
    },
    call: (call) => {
      const parsed = pingArgs.safeParse(JSON.parse(call.args));
      if (!parsed.success) throw new Error(`checked floor: bad arguments for ${call.name}`);
    },
  });
  if (stored.length !== 2 * steps + 3) throw new Error(`checked floor: ${stored.length} records`);
  if (fingerprint.length !== 64) throw new Error('checked floor: no fingerprint');
  return seconds;
}
