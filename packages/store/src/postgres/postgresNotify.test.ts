import { randomBytes, randomUUID } from 'node:crypto';
import { Client, escapeIdentifier, type Notification } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore, type PostgresEventStore } from './createPostgresEventStore.js';
import { postgresNames } from './postgresSchema.js';
import { eventually } from '../test/eventually.js';
import { labelledEvent } from '../test/labelledEvent.js';

// Issue 28: a NOTIFY wakes every listening backend of the database, whatever its channel (the
// workers' LISTEN for work too), so an append notifies its stream's channel only while a
// subscription follows the stream. Absence is checked by order, not by waiting: notifications
// arrive in commit order, so once a later append's arrives, an earlier one would have too.

const url = process.env['AGENTLOG_POSTGRES_URL'];
const skipReason =
  url === undefined || url === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;
const schema = `agentlog_notify_${randomBytes(4).toString('hex')}`;
const opened: PostgresEventStore[] = [];
const clients: Client[] = [];

function openStore(): PostgresEventStore {
  const store = createPostgresEventStore({ connectionString: url ?? '', schema });
  opened.push(store);
  return store;
}

afterAll(async () => {
  if (skipReason !== undefined) return;
  await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
  await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`);
  await client.end();
});

/** A raw LISTEN on the store's channel, recording the payloads (stream ids) in order. */
async function listen(): Promise<{ payloads: string[]; next: () => Promise<string> }> {
  const client = new Client({ connectionString: url });
  clients.push(client);
  await client.connect();
  const payloads: string[] = [];
  let waiting: ((payload: string) => void) | undefined;
  client.on('notification', (message: Notification) => {
    payloads.push(message.payload ?? '');
    waiting?.(message.payload ?? '');
  });
  await client.query(`LISTEN ${escapeIdentifier(postgresNames(schema).channel)}`);
  const next = () => new Promise<string>((resolve) => (waiting = resolve));
  return { payloads, next };
}

describe.skipIf(skipReason !== undefined)(`PostgreSQL NOTIFY ${skipReason ?? ''}`, () => {
  it('an append notifies its stream only while a subscription (of any store) follows it', async () => {
    const [writer, reader] = [openStore(), openStore()];
    const raw = await listen();
    const quiet = `quiet-${randomUUID()}`;
    const followed = `followed-${randomUUID()}`;
    const marker = `marker-${randomUUID()}`;
    await writer.appendToStream(followed, [labelledEvent('f1')], {
      expectedRevision: 'noStream',
    });
    await writer.appendToStream(marker, [labelledEvent('m1')], { expectedRevision: 'noStream' });
    // Another store's subscription: once it delivered what is stored, it listens.
    const seen: number[] = [];
    const following = reader.subscribeToStream(followed).subscribe((event) => {
      seen.push(event.metadata.revision);
    });
    await eventually(() => Promise.resolve(seen.length === 1), 'the catch-up', 60_000);
    await writer.appendToStream(quiet, [labelledEvent('q')], { expectedRevision: 'noStream' });
    const notified = raw.next();
    await writer.appendToStream(followed, [labelledEvent('f2')], { expectedRevision: 0 });
    expect(await notified).toBe(followed);
    // Notifications come in commit order: the quiet stream, appended first, did not notify.
    expect(raw.payloads).toEqual([followed]);
    await eventually(() => Promise.resolve(seen.length === 2), 'the live delivery', 60_000);

    // Once the subscription stopped, the stream is quiet again.
    following.unsubscribe();
    const admin = new Client({ connectionString: url });
    clients.push(admin);
    await admin.connect();
    const { subscribers } = postgresNames(schema);
    await eventually(
      async () =>
        (await admin.query(`SELECT 1 FROM ${subscribers} WHERE stream_id = $1`, [followed]))
          .rowCount === 0,
      'the entry is dropped',
      60_000,
    );
    const markers: number[] = [];
    const marking = reader.subscribeToStream(marker).subscribe((event) => {
      markers.push(event.metadata.revision);
    });
    await eventually(() => Promise.resolve(markers.length === 1), 'the marker catch-up', 60_000);
    const markerNotified = raw.next();
    await writer.appendToStream(followed, [labelledEvent('f3')], { expectedRevision: 1 });
    await writer.appendToStream(marker, [labelledEvent('m2')], { expectedRevision: 0 });
    expect(await markerNotified).toBe(marker);
    marking.unsubscribe();
    expect(raw.payloads).toEqual([followed, marker]);
  }, 120_000);
});
