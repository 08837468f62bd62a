import { tool, type Tool } from '@agentlog/core';
import { z } from 'zod';

/** A `ping` tool that answers "pong" and counts its invocations, optionally under another name. */
export interface CountingTool {
  readonly tool: Tool;
  invocations(): number;
}

/** The bench's trivial tool, built with agentlog's `tool()` helper and an empty zod schema. */
export function pingTool(name = 'ping'): CountingTool {
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
    }),
    invocations: () => invocations,
  };
}
