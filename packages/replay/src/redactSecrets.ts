import { REDACTED, secretMasker } from '@agentlog/core/replay-kit';

/** Keys whose values are never recorded, whatever the caller marks (SPEC RPL-3). */
export const DEFAULT_SECRET_FIELDS: readonly string[] = [
  'apiKey',
  'api_key',
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'password',
  'secret',
  'token',
  'accessToken',
  'access_token',
];

/**
 * Returns `text` with each of `secrets` (any shape: `sk-…`, an opaque Azure key, a token; longest
 * first), bearer tokens and `sk-` keys replaced by `[redacted]`.
 */
export function redactSecretText(text: string, secrets: readonly string[] = []): string {
  return secretMasker(secrets)(text);
}

/**
 * Returns a copy of `value` with the values of secret keys (case-insensitive; the defaults plus
 * `fields`) replaced by `[redacted]`, also inside strings that hold JSON (tool-call arguments),
 * and the given `secrets` values (whatever their shape), bearer tokens and `sk-` keys masked
 * inside every string and key. JSON text in which nothing is secret is kept as it was written.
 */
export function redactSecrets<T>(
  value: T,
  fields: readonly string[] = [],
  secrets: readonly string[] = [],
): T {
  const secret = new Set([...DEFAULT_SECRET_FIELDS, ...fields].map((field) => field.toLowerCase()));
  const mask = secretMasker(secrets);
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') {
      // Tool-call arguments are JSON text: redact inside them too.
      const inner = parseJsonText(item);
      if (inner !== undefined) {
        const redacted = JSON.stringify(visit(inner));
        return redacted === JSON.stringify(inner) ? mask(item) : redacted;
      }
      return mask(item);
    }
    if (Array.isArray(item)) return item.map(visit);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(
        Object.entries(item).map(([key, inner]) => [
          mask(key),
          secret.has(key.toLowerCase()) ? REDACTED : visit(inner),
        ]),
      );
    }
    return item;
  };
  return visit(value) as T;
}

function parseJsonText(text: string): object | undefined {
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}
