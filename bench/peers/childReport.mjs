// Shared by the peer runners: read N from argv, check the run, print one JSON line for the parent.

/** The step count passed as the first argument. */
export function stepsFromArgv() {
  const steps = Number(process.argv[2]);
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`bad step count: ${process.argv[2]}`);
  return steps;
}

/** Fails loudly unless the run made exactly `steps` tool calls, then prints the result line. */
export function reportResult({ seconds, steps, toolCalls, finalText }) {
  if (toolCalls !== steps)
    throw new Error(`expected ${steps} tool calls, the run made ${toolCalls}`);
  if (finalText !== 'done')
    throw new Error(`expected the final text "done", got ${JSON.stringify(finalText)}`);
  const maxRssKb = process.resourceUsage().maxRSS;
  process.stdout.write(`${JSON.stringify({ seconds, maxRssKb })}\n`);
}
