import { describeEventStoreConformance } from '../conformance/eventStoreConformance.js';
import { createKurrentEventStore } from './createKurrentEventStore.js';

// Runs only against a real server, e.g. KURRENTDB_URL="kurrentdb://localhost:2113?tls=false" with
// KurrentDB started with system projections (listStreams reads $streams):
//   docker run -p 2113:2113 docker.kurrent.io/kurrent-latest/kurrentdb --insecure \
//     --run-projections=System --start-standard-projections=true
const url = process.env['KURRENTDB_URL'];

describeEventStoreConformance(
  'KurrentDB event store',
  () => {
    if (url === undefined || url === '') throw new Error('KURRENTDB_URL is not set');
    const store = createKurrentEventStore({ connectionString: url });
    return Promise.resolve({ store, close: () => store.close() });
  },
  url === undefined || url === ''
    ? { skip: 'KURRENTDB_URL is not set; no KurrentDB server to run against' }
    : {},
);
