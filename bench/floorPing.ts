/** One event of the floor loop: just enough to rebuild its history. */
export type FloorEvent =
  | { readonly type: 'UserMessageAdded'; readonly text: string }
  | {
      readonly type: 'ModelResponded';
      readonly text?: string;
      readonly calls: readonly FloorCall[];
    }
  | { readonly type: 'ToolCallCompleted'; readonly callId: string; readonly output: string }
  | { readonly type: 'Stopped' };

/** A tool call of the floor's model: its arguments are the JSON text `{}`. */
export interface FloorCall {
  readonly id: string;
  readonly name: string;
  readonly args: string;
}

/** A message of the floor's history, what its model is given. */
export type FloorMessage =
  | {
      readonly role: 'user' | 'assistant';
      readonly text: string;
      readonly calls?: readonly FloorCall[];
    }
  | { readonly role: 'tool'; readonly callId: string; readonly output: string };

interface FloorState {
  revision: number;
  stopped: boolean;
  readonly history: FloorMessage[];
  readonly open: Set<string>;
}

/** O(1) per event: the state is mutated in place, the history only grows at its end. */
function evolve(state: FloorState, event: FloorEvent): void {
  state.revision += 1;
  switch (event.type) {
    case 'UserMessageAdded':
      state.history.push({ role: 'user', text: event.text });
      return;
    case 'ModelResponded':
      for (const call of event.calls) state.open.add(call.id);
      state.history.push({ role: 'assistant', text: event.text ?? '', calls: event.calls });
      return;
    case 'ToolCallCompleted':
      state.open.delete(event.callId);
      state.history.push({ role: 'tool', callId: event.callId, output: event.output });
      return;
    case 'Stopped':
      state.stopped = true;
      return;
  }
}

/** One stored event of the floor: the event, its revision and its time. */
export interface FloorRecord {
  readonly event: FloorEvent;
  readonly revision: number;
  readonly at: number;
}

/**
 * What a variant of the floor adds, each called in the loop: `record` with each record as it is
 * appended, before it is folded (the JSONL floor writes it to a file there, see
 * `floorJsonlPing.ts`); `request` with the history before each completion; `call` with each tool
 * call before its tool runs.
 */
export interface FloorHooks {
  readonly record?: (record: FloorRecord) => void;
  readonly request?: (history: readonly FloorMessage[]) => void;
  readonly call?: (call: FloorCall) => void;
}

/**
 * The floor: a dependency-free event-sourced loop (an array of events, append, an O(1) evolve, a
 * scripted model, a `ping` tool) running the same scenario as the frameworks. Returns seconds.
 * `hooks` add what a variant does on top (none for the floor itself).
 */
export async function floorPing(steps: number, hooks: FloorHooks = {}): Promise<number> {
  const start = performance.now();
  const events: FloorRecord[] = [];
  const state: FloorState = { revision: -1, stopped: false, history: [], open: new Set() };
  const append = (event: FloorEvent) => {
    const record = { event, revision: state.revision + 1, at: Date.now() };
    hooks.record?.(record);
    events.push(record);
    evolve(state, event);
  };
  let completions = 0;
  const model = (
    history: readonly FloorMessage[],
  ): Promise<{ text?: string; calls: FloorCall[] }> => {
    completions += 1;
    if (history.length === 0) throw new Error('floor model: empty history');
    return Promise.resolve(
      completions <= steps
        ? { calls: [{ id: `ping-${completions}`, name: 'ping', args: '{}' }] }
        : { text: 'done', calls: [] },
    );
  };
  let pings = 0;
  const tools: Record<string, () => Promise<string>> = {
    ping: () => {
      pings += 1;
      return Promise.resolve('pong');
    },
  };
  append({ type: 'UserMessageAdded', text: 'go' });
  while (!state.stopped) {
    hooks.request?.(state.history);
    const response = await model(state.history);
    append({
      type: 'ModelResponded',
      ...(response.text === undefined ? {} : { text: response.text }),
      calls: response.calls,
    });
    if (response.calls.length === 0) {
      append({ type: 'Stopped' });
      break;
    }
    for (const call of response.calls) {
      const run = tools[call.name];
      if (run === undefined) throw new Error(`floor: unknown tool ${call.name}`);
      hooks.call?.(call);
      append({ type: 'ToolCallCompleted', callId: call.id, output: await run() });
    }
  }
  const seconds = (performance.now() - start) / 1_000;
  if (pings !== steps) throw new Error(`floor: expected ${steps} tool calls, made ${pings}`);
  if (events.length !== 2 * steps + 3) throw new Error(`floor: ${events.length} events`);
  return seconds;
}
