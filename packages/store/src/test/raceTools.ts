/** The tool both race processes and the test process describe identically. */
export const raceTools = {
  deploy: { name: 'deploy', description: 'Deploys the service; a person approves every deploy.' },
} as const;
