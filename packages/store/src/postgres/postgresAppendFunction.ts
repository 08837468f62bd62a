import type { PoolClient } from 'pg';
import { pg } from './pgDriver.js';
import type { PostgresNames } from './postgresSchema.js';

/**
 * The first key of the `pg_advisory_xact_lock(int, int)` an append takes on a stream that has no
 * work row yet; the second is `hashtext(stream_id)`. Spells "agtr".
 */
const runLockClass = 0x61677472;

/**
 * The first key of the advisory lock on a stream that its appends take shared, and a new
 * subscription exclusive (`registerSubscriber`); the second is `hashtext(stream_id)`. Spells
 * "agts".
 */
export const subscriberLockClass = 0x61677473;

/** The SQLSTATE the append function raises when the stream is not as the append predicted. */
export const notAsPredicted = 'AGL01';

/**
 * The name of the server-side append function of a store. The suffix is its version: a change of
 * its body or its parameters takes a new name, so stores of both versions can share a schema.
 */
export function appendFunctionName(names: PostgresNames): string {
  return `${pg.escapeIdentifier(names.schema)}.append_run_v3`;
}

/**
 * Creates the append function (`appendFunctionSql`) unless the schema has it; run under the
 * schema lock (`ensurePostgresSchema`).
 */
export async function createAppendFunction(
  client: PoolClient,
  names: PostgresNames,
): Promise<void> {
  const found = await client.query(
    `SELECT 1 FROM pg_proc JOIN pg_namespace ON pg_namespace.oid = pg_proc.pronamespace
     WHERE nspname = $1 AND proname = 'append_run_v3'`,
    [names.schema],
  );
  if (found.rowCount === 0) await client.query(appendFunctionSql(names));
}

/** The SQL types of the append function's parameters, in order (see `appendFunctionSql`). */
const parameterTypes = [
  'text',
  'text',
  'boolean',
  'bigint',
  'bigint',
  'boolean',
  'text[]',
  'text',
  'text',
  'text',
  'bigint',
  'boolean',
  'boolean',
];

/**
 * The function's arguments as statement parameters: the INSERT passes the events' ids as $7 and
 * their types, data and metadata as $8-$10 (its own), so its work entry comes after them; the
 * read has no events but ids.
 */
function functionArguments(first: number, workFrom: number): string {
  return parameterTypes
    .map((type, index) => `$${index < 7 ? index + first : index - 7 + workFrom}::${type}`)
    .join(', ');
}

/**
 * The append's statement (issue 28: one statement instead of five): an INSERT of the events whose
 * rows come from the append function, called once, first (the events depend on its result). In
 * mode `check` the function locks and reads the stream's run and raises `notAsPredicted` unless
 * the stream is as predicted; in mode `write` it only writes the run's row. Either way the INSERT
 * then inserts the events from the revision it returns. Prepared once per connection.
 */
export function appendInsertSql(names: PostgresNames): string {
  return `INSERT INTO ${names.events} (stream_id, revision, event_id, type, data, metadata)
    SELECT $1, c.o_first + t.ord - 1, t.event_id, t.type, t.data::json, t.metadata::json
    FROM ${appendFunctionName(names)}(${functionArguments(1, 11)}) AS c
    CROSS JOIN LATERAL unnest(
      CASE WHEN c.o_first IS NOT NULL THEN $7::text[] END, $8::text[], $9::text[], $10::text[]
    ) WITH ORDINALITY AS t(event_id, type, data, metadata, ord)
    ORDER BY t.ord`;
}

/** The read of the locked path: the function in mode `read`, its row as it is. */
export function appendReadSql(names: PostgresNames): string {
  return `SELECT * FROM ${appendFunctionName(names)}(${functionArguments(1, 8)})`;
}

/**
 * The server side of an append (issue 28): one PL/pgSQL function, whose plans are prepared once
 * per connection. It decides nothing the client would not: it is a compare-and-set.
 *
 * Every mode first takes the stream's subscriber lock shared (see below). Modes `check` and `read`
 * then lock the stream's run when `p_lock` (the work row FOR UPDATE, or an advisory lock on the
 * stream id while there is no row: two appends that find none take turns), then read the last
 * revision, which offered ids the stream holds, and the run. `read` returns that. `check` goes on
 * only when the stream is as the client predicted: none of the ids stored, the last revision
 * `p_first - 1`, the row's fence `p_fence` (when given), and no live run for a start (`p_start`);
 * otherwise it raises `notAsPredicted` with what it read as the detail (JSON), and the client
 * decides on that. `check` and `write` then upsert the work row when `p_status` is given
 * (`p_claim`: the fence becomes `p_first`), notify (the stream's channel only when a subscription
 * follows it), and return `p_first`, from which the calling INSERT writes the events.
 *
 * A run's appends (`check`, locking, with a work entry, on a stream that has its row) take a
 * shorter way with the same outcome, one statement instead of six (each statement of a function
 * costs its executor's start and end): the work row's UPDATE, which locks the row and writes it
 * only when the fence and the run's start pass on the row as locked (the latest version), and
 * says whether revision `p_first - 1` is stored and whether a subscription follows the stream.
 * The ids and the revisions from `p_first` on are left to the unique indexes: an id already
 * stored, or an append that came first, fails the INSERT with a unique violation, and the client
 * takes the locked path (`lockedAppend`), which reads and decides. Anything else not as predicted
 * goes the long way, which raises with what it read.
 */
export function appendFunctionSql(names: PostgresNames): string {
  const { events, work } = names;
  const lockRow = `
      SELECT x.status, x.owner, x.lease_until, x.fence INTO v_status, v_owner, v_lease, v_fence
      FROM ${work} AS x WHERE x.stream_id = p_stream FOR UPDATE;
      v_found := FOUND;`;
  const refused = `(p_fence IS NOT NULL AND (NOT v_found OR v_fence IS DISTINCT FROM p_fence))
      OR (p_start AND v_found AND v_status = 'running' AND (v_lease IS NULL OR v_lease > now()))`;
  const notify = `
    IF v_followed THEN
      v_void := pg_notify(${pg.escapeLiteral(names.channel)}, p_stream)::text;
    END IF;
    -- An entry that makes the stream need work wakes the workers (a lapsed lease cannot notify:
    -- workers poll for those).
    IF p_notify_work THEN
      v_void := pg_notify(${pg.escapeLiteral(names.workChannel)}, p_stream)::text;
    END IF;
    o_first := p_first;
    RETURN NEXT;
    RETURN;`;
  return `
CREATE FUNCTION ${appendFunctionName(names)}(
  p_stream text, p_mode text, p_lock boolean, p_first bigint, p_fence bigint, p_start boolean,
  p_ids text[], p_status text, p_agent text, p_owner text, p_lease_ms bigint, p_claim boolean,
  p_notify_work boolean)
RETURNS TABLE (o_first bigint, o_last bigint, o_known_ids text[], o_known_revisions bigint[],
  o_found boolean, o_status text, o_owner text, o_lease_until float8, o_fence bigint,
  o_now float8)
LANGUAGE plpgsql AS $fn$
DECLARE
  v_found boolean := false;
  v_status text;
  v_owner text;
  v_lease timestamptz;
  v_fence bigint;
  v_follows boolean;
  v_followed boolean;
  v_void text;
BEGIN
  -- Only a stream that a subscription follows is notified: every NOTIFY wakes every listening
  -- backend of the database (the workers' too), whatever its channel. This lock, taken shared
  -- before any statement that reads the subscribers, makes a new subscription wait for this
  -- append, and this append wait for the subscription's entry: so either the subscription's first
  -- read sees this append, or this append sees the entry. (Assigned, not PERFORMed: a simple
  -- expression, no statement of its own.)
  v_void := pg_advisory_xact_lock_shared(${subscriberLockClass}, hashtext(p_stream))::text;
  IF p_mode = 'check' AND p_lock AND p_status IS NOT NULL AND p_first IS NOT NULL THEN
    UPDATE ${work} AS w SET
      since = CASE WHEN w.status = p_status THEN w.since ELSE now() END,
      status = p_status,
      agent = coalesce(p_agent, w.agent),
      owner = p_owner,
      lease_until = now() + p_lease_ms * interval '1 millisecond',
      updated = now(),
      fence = CASE WHEN p_claim THEN p_first ELSE w.fence END
    WHERE w.stream_id = p_stream AND (p_fence IS NULL OR w.fence = p_fence)
      AND NOT (p_start AND w.status = 'running' AND (w.lease_until IS NULL OR w.lease_until > now()))
    RETURNING p_first = 0 OR EXISTS (
        SELECT 1 FROM ${events} AS e WHERE e.stream_id = p_stream AND e.revision = p_first - 1),
      EXISTS (SELECT 1 FROM ${names.subscribers} AS s WHERE s.stream_id = p_stream)
    INTO v_follows, v_followed;
    IF FOUND AND v_follows THEN${notify}
    END IF;
  END IF;
  IF p_mode <> 'write' THEN
    IF p_lock THEN${lockRow}
      IF NOT v_found THEN
        PERFORM pg_advisory_xact_lock(${runLockClass}, hashtext(p_stream));${lockRow}
      END IF;
    END IF;
    SELECT max(e.revision) INTO o_last FROM ${events} AS e WHERE e.stream_id = p_stream;
    IF o_last IS NOT NULL THEN
      SELECT array_agg(e.event_id), array_agg(e.revision) INTO o_known_ids, o_known_revisions
      FROM ${events} AS e WHERE e.stream_id = p_stream AND e.event_id = ANY(p_ids);
    END IF;
    o_found := v_found;
    o_status := v_status;
    o_owner := v_owner;
    o_lease_until := extract(epoch FROM v_lease) * 1000;
    o_fence := v_fence;
    o_now := extract(epoch FROM now()) * 1000;
    IF p_mode = 'read' THEN
      RETURN NEXT;
      RETURN;
    END IF;
    IF p_first IS NULL OR o_known_ids IS NOT NULL OR coalesce(o_last, -1) <> p_first - 1
      OR ${refused}
    THEN
      RAISE EXCEPTION USING ERRCODE = '${notAsPredicted}',
        MESSAGE = 'the stream is not as the append predicted',
        DETAIL = json_build_object('o_last', o_last, 'o_known_ids', o_known_ids,
          'o_known_revisions', o_known_revisions, 'o_found', o_found, 'o_status', o_status,
          'o_owner', o_owner, 'o_lease_until', o_lease_until, 'o_fence', o_fence,
          'o_now', o_now)::text;
    END IF;
  END IF;
  IF p_status IS NOT NULL THEN
    INSERT INTO ${work} AS w (stream_id, status, agent, owner, lease_until, since, updated, fence)
    VALUES (p_stream, p_status, p_agent, p_owner,
      now() + p_lease_ms * interval '1 millisecond', now(), now(),
      CASE WHEN p_claim THEN p_first END)
    ON CONFLICT (stream_id) DO UPDATE SET
      since = CASE WHEN w.status = excluded.status THEN w.since ELSE excluded.since END,
      status = excluded.status,
      agent = coalesce(excluded.agent, w.agent),
      owner = excluded.owner,
      lease_until = excluded.lease_until,
      updated = excluded.updated,
      fence = coalesce(excluded.fence, w.fence);
  END IF;
  -- Delivered to listeners when the transaction commits, never for a rolled-back append.
  v_followed := EXISTS (SELECT 1 FROM ${names.subscribers} AS s WHERE s.stream_id = p_stream);${notify}
END
$fn$`;
}
