import type { Observable } from 'rxjs';
import type { Logger } from '../api/hooks.js';
import type { WorkerActivity } from './workerActivity.js';

const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[agentlog worker] ${message}`, details ?? ''),
};

/**
 * Logs what a person running the worker must hear of: a failed run, a lost lease, a stream whose
 * agent name it does not have (once each, SPEC WRK-9), and a cap its `caps` option changed in the
 * store (WRK-10). A run that stopped for a person's decision is expected, and is not logged.
 */
export function reportActivity(
  activity: Observable<WorkerActivity>,
  logger: Logger = consoleLogger,
  worker: string,
): void {
  activity.subscribe((fact) => {
    switch (fact.kind) {
      case 'failed':
        logger.warn(`the run of stream ${fact.streamId} failed: ${fact.message}`, {
          streamId: fact.streamId,
          worker,
        });
        return;
      case 'storeFailed':
        logger.warn(fact.message, { worker });
        return;
      case 'lost':
        logger.warn(fact.message, { streamId: fact.streamId, worker });
        return;
      case 'unserved':
        logger.warn(
          fact.agent === undefined
            ? `stream ${fact.streamId} needs a worker but records no agent name: build its agent with .name(...) and run it, or continue it in code`
            : `stream ${fact.streamId} needs a worker for agent ${fact.agent}, which this worker's agents module does not have`,
          {
            streamId: fact.streamId,
            worker,
            ...(fact.agent === undefined ? {} : { agent: fact.agent }),
          },
        );
        return;
      case 'capChanged':
        logger.warn(
          fact.cap === null
            ? `this worker's caps option removed the cap of agent ${fact.agent} (it was ${runs(fact.previous)} at once) for every worker on the store`
            : `this worker's caps option changed the cap of agent ${fact.agent} from ${runs(fact.previous)} to ${runs(fact.cap)} at once for every worker on the store (the last worker to start sets it)`,
          { worker, agent: fact.agent },
        );
        return;
      case 'claimed':
      case 'waiting':
      case 'finished':
      case 'released':
        return;
    }
  });
}

/** `1 run`, `2 runs`. */
function runs(count: number): string {
  return `${count} ${count === 1 ? 'run' : 'runs'}`;
}
