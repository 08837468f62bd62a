// Shared by the peer runners: read N from argv, run the scenario cold then warm, check each run,
// print one JSON line per run for the parent.

/** The step count passed as the first argument. */
export function stepsFromArgv() {
  const steps = Number(process.argv[2]);
  if (!Number.isInteger(steps) || steps < 1) throw new Error(`bad step count: ${process.argv[2]}`);
  return steps;
}

/** Fails loudly unless the run made exactly `steps` tool calls and ended with "done". */
function check({ steps, toolCalls, finalText }) {
  if (toolCalls !== steps)
    throw new Error(`expected ${steps} tool calls, the run made ${toolCalls}`);
  if (finalText !== 'done')
    throw new Error(`expected the final text "done", got ${JSON.stringify(finalText)}`);
}

/**
 * Runs `runOnce` twice in this fresh process (it builds a fresh model, tools and agent or graph
 * each time and resolves to `{ seconds, toolCalls, finalText }`): the first run is the cold
 * figure, the second, right after it, the warm one. Checks each and prints it as soon as it is
 * known, with the peak RSS so far.
 */
export async function reportColdAndWarm(steps, runOnce) {
  for (const phase of ['cold', 'warm']) {
    const run = await runOnce();
    check({ steps, ...run });
    const maxRssKb = process.resourceUsage().maxRSS;
    process.stdout.write(`${JSON.stringify({ seconds: run.seconds, maxRssKb, phase })}\n`);
  }
}
