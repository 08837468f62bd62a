import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createConsole, type ConsoleOptions } from './createConsole.js';

/** A console listening for requests. */
export interface RunningConsole {
  /** Where it listens, e.g. `http://127.0.0.1:4317`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and ends open connections (live event streams included). */
  close(): Promise<void>;
}

/**
 * Starts the console ({@link createConsole}) on `host` (default `127.0.0.1`: this machine only)
 * and `port` (`0` picks a free one); resolves once it listens.
 */
export function startConsole(
  options: ConsoleOptions & { readonly host?: string; readonly port?: number },
): Promise<RunningConsole> {
  const app = createConsole(options);
  const hostname = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, hostname, port: options.port ?? 4317 },
      (info: AddressInfo) => {
        const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              server.closeAllConnections();
            }),
        });
      },
    ) as Server;
    server.once('error', reject);
  });
}
