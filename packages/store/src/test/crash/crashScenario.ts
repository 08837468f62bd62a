// The RES-5 crash scenario, as both the crash workers and the test process describe it: three
// tools with side effects, a model that answers from the request alone, and the shapes of what a
// worker leaves behind (the effects log, the stored-events log, its final report).
import { appendFileSync } from 'node:fs';
import {
  approvalRequired,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
  type Tool,
  type ToolCall,
} from '@agentlog/core';
import { toolCallResponse } from '@agentlog/core/testing';

/** The user's task; the stream starts with it. */
export const task = 'Look up the api service, tell ops, deploy it, then stop.';

export const systemPrompt = 'You deploy services. Call approval-gated tools on their own.';

/** The tools by role: (a) idempotent, (b) not idempotent, (c) not idempotent and approval-gated. */
export const crashTools = {
  lookup: { name: 'lookup', callId: 'a1', idempotent: true, gated: false },
  notify: { name: 'notify', callId: 'b1', idempotent: false, gated: false },
  deploy: { name: 'deploy', callId: 'c1', idempotent: false, gated: true },
} as const;

export type CrashToolName = keyof typeof crashTools;

export const crashToolNames = Object.keys(crashTools) as CrashToolName[];

/** Who approves in the workers (HITL-3 `by`). */
export const approver = 'crash-test';

/**
 * Where a worker SIGKILLs itself:
 * - `rev:N`: right after the append that made revision N (or a later one) durable;
 * - `append:J`: right after this process's J-th append returned;
 * - `tool:NAME`: inside tool NAME, after its side effect, before it returns.
 */
export type KillPoint = `rev:${number}` | `append:${number}` | `tool:${CrashToolName}`;

/** One line of the stored-events log: an event an append of `worker` returned as stored. */
export interface StoredEntry {
  readonly worker: string;
  /** Which append of that worker stored it (1, 2, …): events of one append are one commit. */
  readonly append: number;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
}

/** One line of the effects log: a side effect a tool performed. */
export interface EffectEntry {
  readonly tool: CrashToolName;
  readonly callId: string;
  readonly worker: string;
  readonly idempotencyKey: string;
}

/** What a worker that was not killed reports over IPC. */
export interface WorkerReport {
  readonly worker: string;
  readonly ok: boolean;
  /** The stop reason kind the worker ended with. */
  readonly stopReason?: string;
  /** Each command the worker gave and how it ended, in order. */
  readonly trail: readonly string[];
  readonly error?: string;
}

/**
 * The model: it decides the next answer from the request alone (which calls already have an
 * output), so every process answers alike whatever an earlier process recorded.
 */
export function answer(request: CompletionRequest): CompletionResponse {
  const answered = new Set(
    request.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCall.id] : [])),
  );
  // Like OpenAI, refuse a history where a tool call has no output (it answers 400 to that).
  for (const message of request.messages) {
    if (message.role !== 'assistant') continue;
    const missing = message.toolCalls.find((call) => !answered.has(call.id));
    if (missing !== undefined) {
      throw new Error(
        `invalid request: tool call ${missing.id} (${missing.name}) has no tool output in the history`,
      );
    }
  }
  const { lookup, notify, deploy } = crashTools;
  if (answered.has(deploy.callId)) {
    return toolCallResponse([{ name: 'stop', args: {}, id: 's1' }], 'deployed; stopping');
  }
  if (answered.has(lookup.callId) && answered.has(notify.callId)) {
    return toolCallResponse(
      [{ name: deploy.name, args: { service: 'api' }, id: deploy.callId }],
      'looked up and notified; deploying',
    );
  }
  return toolCallResponse([
    { name: lookup.name, args: { service: 'api' }, id: lookup.callId },
    { name: notify.name, args: { channel: 'ops' }, id: notify.callId },
  ]);
}

const outputs: Record<CrashToolName, string> = {
  lookup: 'api runs 1.4.2',
  notify: 'ops notified',
  deploy: 'api 1.4.3 deployed',
};

const parameters = (key: string) => ({
  type: 'object',
  properties: { [key]: { type: 'string' } },
  required: [key],
  additionalProperties: false,
});

/**
 * The three tools. Each appends its side effect to `effectsFile` (synchronously, so a SIGKILL
 * right after it cannot lose it) and then calls `afterEffect`, where a worker may kill itself.
 */
export function buildCrashTools(
  effectsFile: string,
  worker: string,
  afterEffect: (name: CrashToolName) => void,
): Tool[] {
  const make = (name: CrashToolName): Tool => {
    const { idempotent, gated } = crashTools[name];
    const inner: Tool = {
      name,
      idempotent,
      spec: () => ({
        name,
        description: `The ${name} tool of the crash scenario.`,
        parameters: parameters(name === 'notify' ? 'channel' : 'service'),
      }),
      invoke: (context, toolCall: ToolCall) => {
        const entry: EffectEntry = {
          tool: name,
          callId: toolCall.id,
          worker,
          idempotencyKey: context.idempotencyKey(toolCall),
        };
        appendFileSync(effectsFile, `${JSON.stringify(entry)}\n`);
        afterEffect(name);
        return outputs[name];
      },
    };
    return gated ? approvalRequired(inner) : inner;
  };
  return crashToolNames.map(make);
}

/** A history message without ids: what RES-5 compares between a crashed and an uninterrupted run. */
export function historyShape(history: readonly ChatMessage[]): unknown[] {
  return history.map((message) => {
    switch (message.role) {
      case 'assistant':
        return {
          role: 'assistant',
          text: message.text,
          toolCalls: message.toolCalls.map(({ name, args }) => ({ name, args })),
        };
      case 'tool':
        return { role: 'tool', tool: message.toolCall.name, output: message.output };
      default:
        return message;
    }
  });
}
