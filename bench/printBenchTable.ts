/** One measured store: append throughput in batches and the time of one full read. */
export interface StoreBenchResult {
  readonly store: string;
  readonly appendPerSecond: number;
  readonly readSeconds: number;
  readonly note?: string;
}

/**
 * Prints one row per store: events/s appended, full-read time and events/s read, each rate also as
 * a ratio to `floor` (the JSONL file), which `total` events were read from.
 */
export function printBenchTable(
  results: readonly StoreBenchResult[],
  floor: StoreBenchResult,
  total: number,
): void {
  const readRate = (result: StoreBenchResult) => total / result.readSeconds;
  const rows = results.map((result) => [
    result.store,
    Math.round(result.appendPerSecond).toLocaleString('en-US'),
    `${(result.appendPerSecond / floor.appendPerSecond).toFixed(2)}×`,
    `${(result.readSeconds * 1_000).toFixed(0)} ms`,
    Math.round(readRate(result)).toLocaleString('en-US'),
    `${(readRate(result) / readRate(floor)).toFixed(2)}×`,
    result.note ?? '',
  ]);
  const header = ['store', 'append ev/s', 'vs JSONL', 'full read', 'read ev/s', 'vs JSONL', ''];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
}
