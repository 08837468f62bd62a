import {
  isAgentlogError,
  type EventStore,
  type ReadStreamOptions,
  type StreamEvent,
} from '@agentlog/core';

/**
 * The events of `streamId`, `[]` when the stream does not exist or the id is one no store accepts
 * (`invalidStreamId`: a `/`, a control or invisible character): a URL can name anything, and the
 * console answers such a name with "no stream", not an error.
 */
export async function storedEvents(
  store: EventStore,
  streamId: string,
  options: ReadStreamOptions = {},
): Promise<StreamEvent[]> {
  try {
    return await store.readStream(streamId, options);
  } catch (error) {
    if (isAgentlogError(error) && error.code === 'invalidStreamId') return [];
    throw error;
  }
}
