import type * as OtelApi from '@opentelemetry/api';
import { loadOptionalPeer } from '../errors/loadOptionalPeer.js';

/**
 * `@opentelemetry/api`, an optional peer dependency, loaded once: the only module of agentlog that
 * loads it, so the core's root never does. Without it, importing `@agentlog/core/otel` fails with
 * one line: `npm install @opentelemetry/api`.
 */
export const otelApi: typeof OtelApi = await loadOptionalPeer(
  '@opentelemetry/api',
  '@agentlog/core/otel',
  () => import('@opentelemetry/api'),
);
