import { tool, type Tool } from '@agentlog/core';
import { z } from 'zod';

/** The tests' `deploy` tool: `deployed <service>`; `ran` collects the services it deployed. */
export function deployTool(ran?: string[]): Tool {
  return tool({
    name: 'deploy',
    description: 'Deploys a service.',
    parameters: z.object({ service: z.string() }),
    execute: ({ service }) => {
      ran?.push(service);
      return `deployed ${service}`;
    },
  });
}
