import { idempotencyKey } from '../decider/planBatch.js';
import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { StreamWriter } from '../writer/streamWriter.js';

/** What every context reads of the stream: its id, the history, idempotency keys (SPEC TOOL-7). */
export abstract class StreamContext {
  constructor(protected readonly writer: StreamWriter) {}

  get streamId(): string {
    return this.writer.streamId;
  }

  history(): readonly ChatMessage[] {
    return this.writer.state.history;
  }

  idempotencyKey(toolCall: ToolCall): string {
    return idempotencyKey(this.writer.streamId, toolCall);
  }
}
