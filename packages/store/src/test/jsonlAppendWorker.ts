// A separate OS process appending to a shared JSON Lines file: waits for the parent's "go", then
// appends `count` events of about `bytes` bytes each, one appendJsonl call per event, and
// reports how it ended.
import { appendJsonl } from '@agentlog/store/jsonl';

const [path, name, count, bytes] = process.argv.slice(2) as [string, string, string, string];
const padding = name.charAt(0).repeat(Number(bytes));

process.send?.({ ready: true });
process.once('message', () => {
  void (async () => {
    for (let n = 0; n < Number(count); n += 1) {
      await appendJsonl(path, [
        {
          type: 'Padded',
          data: { writer: name, n, padding },
          metadata: {
            eventId: `${name}-${n}`,
            at: '2025-01-02T03:04:05.678Z',
            schemaVersion: 1,
            revision: n,
          },
        },
      ]);
    }
  })().then(
    () => finish({ name, ok: true }),
    (error: { code?: string; message?: string }) =>
      finish({ name, ok: false, code: error.code, message: error.message }),
  );
});

function finish(result: Record<string, unknown>): void {
  process.send?.(result, () => process.exit(0));
}
