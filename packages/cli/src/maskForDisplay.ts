import { redactSecrets } from '@agentlog/replay';
import type { FoldedStream } from '@agentlog/core/read-models';

/**
 * The stream as `inspect` and `report` show it (SPEC RPL-3): events and state with the default
 * secret fields, `sk-` keys and bearer tokens redacted, for streams stored before the agent
 * masked its model's secrets. Both are plain JSON, so the copies keep their shape.
 */
export function maskForDisplay(loaded: FoldedStream): FoldedStream {
  return {
    ...loaded,
    events: redactSecrets(loaded.events),
    state: redactSecrets(loaded.state),
  };
}
