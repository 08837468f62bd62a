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

const REDACTED = '[redacted]';
// Bearer tokens and OpenAI-style keys that slip into free text.
const SECRET_PATTERNS = [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, /\bsk-[A-Za-z0-9_-]{8,}/g];

/**
 * Returns a copy of `value` with the values of secret keys (case-insensitive; the defaults plus
 * `fields`) replaced by `[redacted]`, also inside strings that hold JSON (tool-call arguments),
 * and bearer tokens and `sk-` keys masked inside other strings.
 */
export function redactSecrets<T>(value: T, fields: readonly string[] = []): T {
  const secret = new Set([...DEFAULT_SECRET_FIELDS, ...fields].map((field) => field.toLowerCase()));
  const visit = (item: unknown): unknown => {
    if (typeof item === 'string') {
      // Tool-call arguments are JSON text: redact inside them too.
      const inner = parseJsonText(item);
      if (inner !== undefined) return JSON.stringify(visit(inner));
      return SECRET_PATTERNS.reduce((text, pattern) => text.replace(pattern, REDACTED), item);
    }
    if (Array.isArray(item)) return item.map(visit);
    if (item !== null && typeof item === 'object') {
      return Object.fromEntries(
        Object.entries(item).map(([key, inner]) => [
          key,
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
