// A separate OS process (run as another user by the REV-2 test) that opens an SQLite store
// read-only, reads one stream and the stream list, and prints what it read as one JSON line, or
// the error's code and message.
import { createSqliteEventStore } from '@agentlog/store';

const [path = '', streamId = ''] = process.argv.slice(2);
try {
  const store = createSqliteEventStore({ path, readonly: true });
  try {
    const events = await store.readStream(streamId);
    const streams = await store.listStreams();
    console.log(JSON.stringify({ ok: true, ids: events.map((e) => e.metadata.eventId), streams }));
  } finally {
    store.close();
  }
} catch (error) {
  const { code, message } = error as { code?: string; message?: string };
  console.log(JSON.stringify({ ok: false, code, message }));
}
