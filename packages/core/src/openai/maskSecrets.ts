/** What a masked secret becomes. */
export const REDACTED = '[redacted]';

/**
 * Configured values shorter than this are not masked by value: they cannot be real keys (a
 * placeholder such as `x` for a local gateway), and masking them would mangle ordinary text.
 */
export const MIN_SECRET_LENGTH = 8;

// Bearer tokens and OpenAI-style keys, whichever key the adapter was configured with.
const SECRET_PATTERNS = [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, /\bsk-[A-Za-z0-9_-]{8,}/g];

/** A function that masks `secrets` (any shape, longest first), bearer tokens and `sk-` keys. */
export function secretMasker(secrets: readonly string[]): (text: string) => string {
  const values = [...new Set(secrets)]
    .filter((secret) => secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) =>
    SECRET_PATTERNS.reduce(
      (masked, pattern) => masked.replace(pattern, REDACTED),
      values.reduce((masked, secret) => masked.split(secret).join(REDACTED), text),
    );
}

/** A copy of JSON-like `value` with every string (and object key) passed through `mask`. */
export function maskDeep(value: unknown, mask: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return mask(value);
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, mask, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [mask(key), maskDeep(inner, mask, depth + 1)]),
  );
}
