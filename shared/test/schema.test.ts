/**
 * The stored data's schema version and its one migration path (store/schema.ts), on a real Redis:
 * a lab stored in the oldest shape still supported (fixtures/store-v0.json) is brought to the
 * current version once, reads and plays as a current one, and a second run changes nothing; a new
 * keyspace starts at the current version; a newer version is refused, untouched.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Redis } from 'ioredis';
import { Sweep, playGame, throughput } from '../src/lab/index.js';
import { MIGRATIONS, SCHEMA_VERSION, SchemaTooNewError, SweepStore, migrateStore, storedSchemaVersion } from '../src/store/index.js';
import { claim, storeForTests } from './store-support.js';

interface Fixture {
  sweeps: Record<string, Record<string, string>>;
}
const fixture = JSON.parse(readFileSync(new URL('fixtures/store-v0.json', import.meta.url), 'utf8')) as Fixture;
const NOW = 1_700_000_500_000;

/** Writes the fixture's sweeps under the store's prefix, as the lab of that time left them. */
async function storeV0(redis: Redis, store: SweepStore): Promise<void> {
  for (const [id, meta] of Object.entries(fixture.sweeps)) {
    await redis.hset(store.keys.sweep(id).meta, meta);
    await redis.zadd(store.keys.sweeps, Number(meta.created), id);
    if (meta.status === 'running') await redis.zadd(store.keys.active, Number(meta.priority), id);
  }
}

describe('a keyspace of the oldest shape (version 0)', () => {
  const opened = storeForTests('schema-v0');
  let redis: Redis;
  let store: SweepStore;
  beforeAll(async () => {
    [redis, store] = [opened.redis(), opened.store()];
    await storeV0(redis, store);
  });

  test('is version 0 before, the current version after, and each step says what it changed', async () => {
    expect(await storedSchemaVersion(redis, store.keys)).toBe(0);
    const report = await migrateStore(redis, store.keys, NOW);
    expect(report).toEqual({ from: 0, to: SCHEMA_VERSION, steps: MIGRATIONS.map((m) => ({ to: m.to, what: m.what, sweeps: 3 })) });
    expect(await redis.get(store.keys.schema)).toBe(String(SCHEMA_VERSION));
  });

  test('its sweeps read with the fields the current code relies on: schedule, batch, counters, clock', async () => {
    const done = (await store.reads.meta('old-done'))!;
    expect(done).toMatchObject({ schedule: 'sequential', batch: 1, skipped: 0, done: 4, failed: 0 });
    // The clock from wall time: created → finished is 20 s; the first and last game at 5 s and 20 s.
    expect([done.activeMs, done.firstDoneActive, done.lastDoneActive, done.runningSince]).toEqual([20_000, 5_000, 20_000, undefined]);
    // So the rate over the finished games is what the wall clock gave: 3 games after the first in 15 s.
    const rate = throughput(done, await store.reads.rateRing('old-done'), NOW);
    expect(rate).toEqual({ gamesPerSecond: 3 / 15, etaSeconds: null, activeSeconds: 20, basis: 'whole' });
    const paused = (await store.reads.meta('old-paused'))!;
    expect([paused.activeMs, paused.runningSince, paused.firstDoneActive]).toEqual([10_000, undefined, 10_000]);
    const running = (await store.reads.meta('old-running'))!;
    expect([running.activeMs, running.runningSince, running.firstDoneActive]).toEqual([NOW - 1_700_000_060_000, NOW, undefined]);
  });

  test('a running sweep of that time is fed in its sequential order and stores its games on the clock', async () => {
    const fresh = new SweepStore(redis, opened.prefix);
    const loaded = (await fresh.reads.load('old-running'))!;
    expect(loaded.sweep.schedule).toBe('sequential');
    expect(await claim(fresh, 'old-running', 4)).toEqual([0, 1, 2, 3]);
    expect(await fresh.reads.indicesAt('old-running', [2, 0])).toEqual([2, 0]);
    expect(await fresh.ledger.recordResult(loaded, playGame(loaded.sweep.game(0)), NOW + 3000)).toBe(true);
    const after = (await fresh.reads.meta('old-running'))!;
    expect(after.done).toBe(1);
    expect(after.firstDoneActive).toBe(NOW - 1_700_000_060_000 + 3000);
    expect((await fresh.reads.rateRing('old-running')).reduce((s, b) => s + b.games, 0)).toBe(1);
  });

  test('a second migration changes nothing: the version is current, and the step itself writes nothing again', async () => {
    const before = await redis.hgetall(store.keys.sweep('old-done').meta);
    expect((await migrateStore(redis, store.keys, NOW + 1)).steps).toEqual([]);
    for (const step of MIGRATIONS) expect(await step.run(redis, store.keys, NOW + 2)).toBe(0);
    expect(await redis.hgetall(store.keys.sweep('old-done').meta)).toEqual(before);
  });
});

describe('a new keyspace', () => {
  const opened = storeForTests('schema-new');

  test('starts at the current version with nothing to migrate, and sweeps created there need none', async () => {
    const [redis, store] = [opened.redis(), opened.store()];
    expect(await storedSchemaVersion(redis, store.keys)).toBeUndefined();
    expect(await migrateStore(redis, store.keys)).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, steps: [] });
    const meta = await store.ledger.create(new Sweep(fixtureSpec()));
    for (const step of MIGRATIONS) expect(await step.run(redis, store.keys, Date.now())).toBe(0);
    expect(meta).toMatchObject({ schedule: 'interleaved', batch: 1, skipped: 0, activeMs: 0 });
  });
});

describe('a keyspace of a newer version', () => {
  const opened = storeForTests('schema-newer');

  test('is refused, naming both versions, and left as it is', async () => {
    const [redis, store] = [opened.redis(), opened.store()];
    await storeV0(redis, store);
    await redis.set(store.keys.schema, String(SCHEMA_VERSION + 1));
    const before = await redis.hgetall(store.keys.sweep('old-done').meta);
    const err = await migrateStore(redis, store.keys).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaTooNewError);
    expect((err as Error).message).toContain(`schema version ${SCHEMA_VERSION + 1}, newer than this lab's ${SCHEMA_VERSION}`);
    expect(await redis.hgetall(store.keys.sweep('old-done').meta)).toEqual(before);
    expect(await redis.get(store.keys.schema)).toBe(String(SCHEMA_VERSION + 1));
  });
});

function fixtureSpec() {
  return JSON.parse(fixture.sweeps['old-done'].spec);
}
