import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { loginView } from './loginView.js';

// What the console reads from a request, and its small answers, apart from its routes.

/** Whether a request comes from another site's page, by `Sec-Fetch-Site`, else by `Origin`. */
export function crossSite(c: Context): boolean {
  const site = c.req.header('Sec-Fetch-Site');
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = c.req.header('Origin');
  return origin !== undefined && origin !== 'null' && origin !== new URL(c.req.url).origin;
}

/**
 * The remote address of the request's connection (`unknown` when the app is called without one).
 * Behind a reverse proxy every client shares the proxy's address; `X-Forwarded-For` is not
 * trusted, since any client can write it.
 */
export function clientOf(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** 429 with `Retry-After`: this client sent too many wrong tokens. */
export function tooMany(c: Context, waitMs: number): Response {
  const seconds = Math.ceil(waitMs / 1000);
  const headers = { 'Retry-After': String(seconds) };
  return c.req.path.startsWith('/api/')
    ? c.json(
        { error: `too many wrong tokens from this address: try again in ${seconds} s` },
        429,
        headers,
      )
    : c.html(loginView(false, seconds), 429, headers);
}

/** Whether the request's body is a form. */
export function isForm(c: Context): boolean {
  const type = c.req.header('Content-Type') ?? '';
  return (
    type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')
  );
}

/** A refusal: JSON for the API, plain text for a page. */
export function refuse(c: Context, status: 403, message: string): Response {
  return c.req.path.startsWith('/api/')
    ? c.json({ error: message }, status)
    : c.text(message, status);
}
