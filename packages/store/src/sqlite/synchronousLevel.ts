/** What a committed SQLite append survives; see `SqliteEventStoreOptions.durability`. */
export type SqliteDurability = 'full' | 'sideEffects' | 'process';

/** Every durability setting, in order of what it survives. */
export const durabilities: readonly SqliteDurability[] = ['full', 'sideEffects', 'process'];

/**
 * The `synchronous` level an append commits at: `FULL` syncs the WAL to disk, which in WAL mode
 * makes this commit and every earlier one survive a power loss; `NORMAL` survives a killed
 * process. `durable` is the port's hint that the append precedes a side effect or records a
 * decision.
 */
export function synchronousLevel(
  durability: SqliteDurability,
  durable: boolean,
): 'FULL' | 'NORMAL' {
  if (durability === 'full') return 'FULL';
  return durability === 'sideEffects' && durable ? 'FULL' : 'NORMAL';
}
