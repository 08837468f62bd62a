import { tool, type Tool } from '@agentlog/core';
import { z } from 'zod';

/** A `ping` tool that answers "pong" and counts its invocations, optionally under another name. */
export interface CountingTool {
  readonly tool: Tool;
  invocations(): number;
}

/**
 * The bench's trivial tool, built with agentlog's `tool()` helper and an empty zod schema. It is
 * not idempotent unless `idempotent` is set (then its start is not synced under the default
 * SQLite durability).
 */
export function pingTool(
  name = 'ping',
  options: { readonly idempotent?: boolean } = {},
): CountingTool {
  let invocations = 0;
  return {
    tool: tool({
      name,
      description: 'Answers pong.',
      parameters: z.object({}),
      execute: () => {
        invocations += 1;
        return 'pong';
      },
      ...(options.idempotent === true ? { idempotent: true } : {}),
    }),
    invocations: () => invocations,
  };
}
