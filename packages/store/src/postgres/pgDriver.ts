import { loadOptionalPeer } from '@agentlog/core/store-kit';

/**
 * The `pg` driver, an optional peer dependency: loaded when `@agentlog/store/postgres` is imported,
 * and never by any other entry. Without it, the import fails with one line: `npm install pg`.
 */
export const pg = (await loadOptionalPeer('pg', '@agentlog/store/postgres', () => import('pg')))
  .default;
