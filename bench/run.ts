import { runStoreBench } from './storeBench.js';

// Every bench of agentlog, one after the other; the exit code says whether all targets held.
const benches: readonly (() => Promise<boolean>)[] = [runStoreBench];

let allHeld = true;
for (const bench of benches) allHeld = (await bench()) && allHeld;
process.exitCode = allHeld ? 0 : 1;
