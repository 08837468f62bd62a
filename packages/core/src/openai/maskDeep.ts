/** A copy of JSON-like `value` with every string (and object key) passed through `mask`. */
export function maskDeep(value: unknown, mask: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return mask(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, mask, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [mask(key), maskDeep(inner, mask, depth + 1)]),
  );
}
