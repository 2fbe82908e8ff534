/**
 * The version of the lab's stored data, and the one path that brings older data to it.
 *
 * `<prefix>:schema` holds the version the keyspace is in. A coordinator migrates once, when it
 * first finds the keyspace (lab-health.ts, before its feeder may feed): each step below runs in
 * turn from the stored version to SCHEMA_VERSION, and the version is written after each. The code
 * that reads and writes sweeps then knows one shape, the current one, instead of branching on
 * "stored before" at every read. A keyspace with no version and no sweeps is new and starts at
 * SCHEMA_VERSION; one with sweeps and no version is version 0, the oldest shape migrated (a
 * sweep stored before the interleaved order, before batches and before the active clock). A
 * keyspace of a newer version than this code knows is refused, never rewritten.
 *
 * Every step is idempotent (it only writes fields that are absent, HSETNX), so two coordinators
 * starting together, or a step stopped half-way and run again, leave the same data.
 */
import type { Redis } from 'ioredis';
import type { Keys } from './keys.js';

export const SCHEMA_VERSION = 1;

/** One step: what it changes, and how, from version `to - 1` to `to`. */
export interface Migration {
  to: number;
  what: string;
  /** Migrates the keyspace; returns how many sweeps it changed. */
  run(redis: Redis, keys: Keys, now: number): Promise<number>;
}

/** The stored data is of a version this code does not know: a newer lab wrote it. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`the stored data is of schema version ${found}, newer than this lab's ${known}: run the lab's newer version on it (this one would misread it)`);
    this.name = 'SchemaTooNewError';
  }
}

/** The fields of a version-0 sweep's meta that version 1 writes, from what it holds. */
export function sweepV1Fields(h: Record<string, string>, now: number): Record<string, string | number> {
  const fields: Record<string, string | number> = {
    // Before the interleaved order, a sweep's queue order was its game order: the shape fields
    // (sCells, …) that define the interleaved order were written with it, and only with it.
    schedule: h.sCells ? 'interleaved' : 'sequential',
    // Before batches, every queue job was one game.
    batch: 1,
    done: 0,
    failed: 0,
    skipped: 0,
  };
  if (h.activeMs === undefined) {
    // Before the active clock: its readings from wall time since the sweep was created (paused
    // time was not recorded, so it counts as running). The rate over the finished games is then
    // what the wall clock gave, (done − 1) / (lastDone − firstDone); a running sweep's clock runs
    // from now.
    const created = Number(h.created);
    const end = h.status === 'running' ? now : Number(h.finishedAt ?? h.lastDone ?? h.created);
    fields.activeMs = Math.max(0, end - created);
    if (h.status === 'running') fields.runningSince = now;
    if (h.firstDone !== undefined) fields.firstDoneActive = Math.max(0, Number(h.firstDone) - created);
    if (h.lastDone !== undefined) fields.lastDoneActive = Math.max(0, Number(h.lastDone) - created);
  }
  return fields;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    to: 1,
    what: "every sweep's meta says its queue order (schedule), its batch, its counters and its active clock",
    async run(redis, keys, now) {
      let changed = 0;
      const ids = await redis.zrange(keys.sweeps, 0, -1);
      for (const id of ids) {
        const meta = keys.sweep(id).meta;
        const h = await redis.hgetall(meta);
        if (!h.spec) continue;
        const multi = redis.multi();
        let writes = 0;
        for (const [field, value] of Object.entries(sweepV1Fields(h, now))) {
          if (h[field] !== undefined) continue;
          multi.hsetnx(meta, field, String(value));
          writes++;
        }
        if (writes === 0) continue;
        await multi.exec();
        changed++;
      }
      return changed;
    },
  },
];

/** What a migration did: the version found, the version now, and the sweeps each step changed. */
export interface MigrationReport {
  from: number;
  to: number;
  steps: { to: number; what: string; sweeps: number }[];
}

/** The keyspace's schema version as stored (0 when absent and the keyspace holds sweeps; undefined when it holds nothing). */
export async function storedSchemaVersion(redis: Redis, keys: Keys): Promise<number | undefined> {
  const found = await redis.get(keys.schema);
  if (found !== null) return Number(found);
  return (await redis.exists(keys.sweeps)) > 0 ? 0 : undefined;
}

/** Brings the keyspace to SCHEMA_VERSION (see the file's note); throws SchemaTooNewError for a newer one. */
export async function migrateStore(redis: Redis, keys: Keys, now = Date.now()): Promise<MigrationReport> {
  const stored = await storedSchemaVersion(redis, keys);
  if (stored === undefined) {
    // A new keyspace: nothing to migrate (SET NX: another coordinator may be writing it too).
    await redis.set(keys.schema, String(SCHEMA_VERSION), 'NX');
    return { from: SCHEMA_VERSION, to: SCHEMA_VERSION, steps: [] };
  }
  if (!Number.isInteger(stored) || stored < 0) throw new Error(`the schema version stored at ${keys.schema} is not a version: '${await redis.get(keys.schema)}'`);
  if (stored > SCHEMA_VERSION) throw new SchemaTooNewError(stored, SCHEMA_VERSION);
  const steps: MigrationReport['steps'] = [];
  for (const step of MIGRATIONS) {
    if (step.to <= stored) continue;
    const sweeps = await step.run(redis, keys, now);
    await redis.set(keys.schema, String(step.to));
    steps.push({ to: step.to, what: step.what, sweeps });
  }
  return { from: stored, to: SCHEMA_VERSION, steps };
}
