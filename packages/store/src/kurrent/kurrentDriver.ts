import type * as KurrentClient from '@kurrent/kurrentdb-client';
import { loadOptionalPeer } from '@agentlog/core/store-kit';

/**
 * The KurrentDB client, an optional peer dependency: loaded when `@agentlog/store/kurrentdb` is
 * imported, and never by any other entry. Without it, the import fails with one line naming
 * `npm install @kurrent/kurrentdb-client`.
 */
export const kurrent: typeof KurrentClient = await loadOptionalPeer(
  '@kurrent/kurrentdb-client',
  '@agentlog/store/kurrentdb',
  () => import('@kurrent/kurrentdb-client'),
);
