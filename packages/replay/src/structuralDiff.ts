/** Options of {@link structuralDiff}. */
export interface DiffOptions {
  /** At most this many differing paths are listed. Default 12. */
  readonly maxLines?: number;
}

/**
 * A readable, terminal-friendly diff of two JSON values: one `path` line per difference with the
 * expected (`-`) and actual (`+`) value, long strings shortened around where they differ.
 */
export function structuralDiff(
  expected: unknown,
  actual: unknown,
  options: DiffOptions = {},
): string {
  const lines: string[] = [];
  const max = options.maxLines ?? 12;
  let count = 0;
  const visit = (path: string, a: unknown, b: unknown): void => {
    if (count >= max) {
      count += 1;
      return;
    }
    if (Object.is(a, b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
        if (index >= a.length) report(`${path}[${index}]`, undefined, b[index]);
        else if (index >= b.length) report(`${path}[${index}]`, a[index], undefined);
        else visit(`${path}[${index}]`, a[index], b[index]);
      }
      return;
    }
    if (isRecord(a) && isRecord(b)) {
      for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
        visit(`${path}.${key}`, a[key], b[key]);
      }
      return;
    }
    report(path, a, b);
  };
  const report = (path: string, a: unknown, b: unknown): void => {
    count += 1;
    if (count > max) return;
    const [left, right] =
      typeof a === 'string' && typeof b === 'string' ? shorten(a, b) : [show(a), show(b)];
    lines.push(`  ${path}`, `    - ${left}`, `    + ${right}`);
  };
  visit('$', expected, actual);
  if (count > max) lines.push(`  … and ${count - max} more difference(s)`);
  return lines.length === 0 ? '  (no difference)' : lines.join('\n');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
}

function shorten(a: string, b: string): [string, string] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  const from = Math.max(0, start - 40);
  const cut = (text: string) => {
    const part = text.slice(from, from + 120);
    return `${from > 0 ? '…' : ''}${JSON.stringify(part).slice(1, -1)}${from + 120 < text.length ? '…' : ''}`;
  };
  return [`"${cut(a)}"`, `"${cut(b)}"`];
}
