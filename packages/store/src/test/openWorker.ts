// A separate OS process that opens SQLite files when told: for each path the parent sends, it
// waits until the moment the parent named, creates the store on the path, appends one event to a
// stream named after itself, closes it and reports how that went. The parent sends the same new
// path and moment to several such processes.
import { createSqliteEventStore } from '@agentlog/store';

const name = process.argv[2] ?? 'worker';

process.on('message', ({ path, at }: { path: string; at: number }) => {
  void (async () => {
    // Sleep to just before the moment, then spin: the processes start within microseconds.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() - 20)));
    while (Date.now() < at);
    const store = createSqliteEventStore({ path });
    try {
      await store.appendToStream(
        name,
        [
          {
            type: 'Opened',
            data: { by: name },
            metadata: { eventId: `${name}-0`, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
          },
        ],
        { expectedRevision: 'noStream' },
      );
    } finally {
      store.close();
    }
  })().then(
    () => process.send?.({ name, ok: true }),
    (error: { code?: string; message?: string }) =>
      process.send?.({ name, ok: false, code: error.code, message: error.message }),
  );
});
process.send?.({ name, ready: true });
