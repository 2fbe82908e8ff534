/**
 * The lab's results store on Redis: sweeps (spec, status, counters), game results and full
 * records, aggregates, and the bookkeeping that feeds the queue a bounded window of games.
 */
import { randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Redis } from 'ioredis';
import { gameIncrements, pairedShare, placementOf, summarizeAggregates, type CellAggregate } from '../lab/aggregates.js';
import type { GameSummary } from '../lab/game.js';
import { Sweep, type SweepSpec } from '../lab/sweep.js';
import type { GameRecord } from '../engine/index.js';
import { keys, type Keys, type SweepKeys } from './keys.js';
import { CLAIM_GAMES, HAND_BACK, RECORD_FAILURE, RECORD_RESULT, RETRY_FAILED, SET_STATUS } from './scripts.js';

export const SWEEP_STATUSES = ['running', 'paused', 'cancelled', 'done'] as const;
export type SweepStatus = (typeof SWEEP_STATUSES)[number];

export interface SweepMeta {
  id: string;
  name: string;
  status: SweepStatus;
  spec: SweepSpec;
  total: number;
  /** Games handed to the queue so far (the next index to enqueue). */
  cursor: number;
  done: number;
  failed: number;
  priority: number;
  /** Milliseconds since the epoch. */
  created: number;
  firstDone?: number;
  lastDone?: number;
}

/** A sweep with its expansion, cached: the spec never changes once stored. */
export interface LoadedSweep {
  id: string;
  spec: SweepSpec;
  sweep: Sweep;
}

/** Sortable and short (it is in every job's id): time in base 36 and 16 random bits. */
export function newSweepId(now = Date.now()): string {
  return `${now.toString(36)}${randomBytes(2).toString('hex')}`;
}

function parseMeta(id: string, h: Record<string, string>): SweepMeta | undefined {
  if (!h.spec) return undefined;
  const num = (k: string) => (h[k] === undefined ? undefined : Number(h[k]));
  return {
    id,
    name: h.name,
    status: h.status as SweepStatus,
    spec: JSON.parse(h.spec) as SweepSpec,
    total: Number(h.total),
    cursor: Number(h.cursor),
    done: Number(h.done ?? 0),
    failed: Number(h.failed ?? 0),
    priority: Number(h.priority),
    created: Number(h.created),
    ...(h.firstDone ? { firstDone: num('firstDone') } : {}),
    ...(h.lastDone ? { lastDone: num('lastDone') } : {}),
  };
}

/**
 * Results and records are stored as deflated JSON: a 3-player summary shrinks from about 1.6 KB
 * to about 0.75 KB, which is what a million-game sweep's Redis has to hold.
 */
function pack(value: unknown): Buffer {
  return deflateRawSync(JSON.stringify(value));
}

function unpack(blob: Buffer): unknown {
  return JSON.parse(inflateRawSync(blob).toString('utf8'));
}

export class SweepStore {
  readonly keys: Keys;
  private readonly loaded = new Map<string, LoadedSweep>();

  constructor(
    readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = keys(prefix);
  }

  private k(id: string): SweepKeys {
    return this.keys.sweep(id);
  }

  /** Stores a validated spec as a new running sweep; the feeder takes it from there. */
  async create(spec: SweepSpec, sweep = new Sweep(spec), now = Date.now()): Promise<SweepMeta> {
    const id = newSweepId(now);
    const k = this.k(id);
    const fields = {
      name: spec.name,
      status: 'running',
      spec: JSON.stringify(spec),
      total: sweep.size,
      cursor: 0,
      done: 0,
      failed: 0,
      priority: spec.priority,
      created: now,
    };
    await this.redis.multi().hset(k.meta, fields).zadd(this.keys.sweeps, now, id).zadd(this.keys.active, spec.priority, id).exec();
    this.loaded.set(id, { id, spec, sweep });
    return (await this.meta(id))!;
  }

  async meta(id: string): Promise<SweepMeta | undefined> {
    return parseMeta(id, await this.redis.hgetall(this.k(id).meta));
  }

  /** Every sweep, newest first. */
  async list(): Promise<SweepMeta[]> {
    const ids = await this.redis.zrevrange(this.keys.sweeps, 0, -1);
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.k(id).meta);
    const rows = (await pipeline.exec()) ?? [];
    return ids.map((id, i) => parseMeta(id, rows[i][1] as Record<string, string>)).filter((m): m is SweepMeta => m !== undefined);
  }

  /** Running sweeps, highest priority (lowest number) first. */
  async activeIds(): Promise<string[]> {
    return this.redis.zrange(this.keys.active, 0, -1);
  }

  async load(id: string): Promise<LoadedSweep | undefined> {
    const cached = this.loaded.get(id);
    if (cached) return cached;
    const text = await this.redis.hget(this.k(id).meta, 'spec');
    if (!text) return undefined;
    const spec = JSON.parse(text) as SweepSpec;
    const loaded = { id, spec, sweep: new Sweep(spec) };
    this.loaded.set(id, loaded);
    return loaded;
  }

  async status(id: string): Promise<SweepStatus | undefined> {
    return ((await this.redis.hget(this.k(id).meta, 'status')) ?? undefined) as SweepStatus | undefined;
  }

  /** Moves the status from one of `from` to `to`; returns the old status, or undefined if not allowed. */
  async transition(id: string, from: readonly SweepStatus[], to: SweepStatus, priority: number): Promise<SweepStatus | undefined> {
    const k = this.k(id);
    const old = await SET_STATUS.run(this.redis, [k.meta, this.keys.active], [id, to, priority, ...from]);
    return (old ?? undefined) as SweepStatus | undefined;
  }

  /** Up to `window` minus the outstanding games' indices, now outstanding (see CLAIM_GAMES). */
  async claim(id: string, window: number): Promise<number[]> {
    const k = this.k(id);
    const got = (await CLAIM_GAMES.run(this.redis, [k.meta, k.out, k.requeue], [window])) as string[];
    return got.map(Number);
  }

  async outstanding(id: string): Promise<number[]> {
    return (await this.redis.smembers(this.k(id).out)).map(Number);
  }

  /** Games whose jobs were taken off the queue go back in line; returns how many. */
  async handBack(id: string, indices: readonly number[]): Promise<number> {
    if (indices.length === 0) return 0;
    const k = this.k(id);
    return (await HAND_BACK.run(this.redis, [k.out, k.requeue], indices)) as number;
  }

  /** Forgets outstanding games without playing them (a cancelled sweep). */
  async dropOutstanding(id: string, indices: readonly number[]): Promise<void> {
    if (indices.length) await this.redis.srem(this.k(id).out, ...indices);
  }

  async retryFailed(id: string, priority: number): Promise<number> {
    const k = this.k(id);
    return (await RETRY_FAILED.run(this.redis, [k.meta, k.failed, k.requeue, this.keys.active], [id, priority])) as number;
  }

  /**
   * Stores a finished game and its aggregate increments atomically; false when this game id was
   * stored before (a job delivered twice).
   */
  async recordResult(loaded: LoadedSweep, summary: GameSummary, now = Date.now()): Promise<boolean> {
    const k = this.k(loaded.id);
    const placement = placementOf(loaded.sweep, summary.index);
    const { record, ...rest } = summary;
    const args: (string | number | Buffer)[] = [loaded.id, summary.id, summary.index, pack(rest), record ? pack(record) : '', now];
    const increments = gameIncrements(summary, placement);
    args.push(increments.size);
    for (const [field, delta] of increments) args.push(field, String(delta));
    const share = pairedShare(summary, placement);
    if (share) {
      args.push(share.group, share.size, share.keys.length);
      share.keys.forEach((key, i) => args.push(key, share.wins[i], share.seats[i]));
      args.push(share.compared ? share.compared[0] : '', share.compared ? share.compared[1] : '', `c${placement.cell}`);
    } else {
      args.push('');
    }
    const stored = await RECORD_RESULT.run(this.redis, [k.meta, k.results, k.records, k.agg, k.groups, k.out, this.keys.active, this.keys.stats], args);
    return stored === 1;
  }

  /** Records a game that failed every attempt; false when already recorded or since played. */
  async recordFailure(id: string, index: number, gameId: string, message: string): Promise<boolean> {
    const k = this.k(id);
    const stored = await RECORD_FAILURE.run(this.redis, [k.meta, k.failed, k.out, this.keys.active, k.results], [id, index, gameId, message.slice(0, 2000)]);
    return stored === 1;
  }

  async failures(id: string): Promise<{ index: number; error: string }[]> {
    const h = await this.redis.hgetall(this.k(id).failed);
    return Object.entries(h)
      .map(([index, error]) => ({ index: Number(index), error }))
      .sort((a, b) => a.index - b.index);
  }

  /** Stored summaries (without records) of the given game ids; undefined where not played yet. */
  async results(id: string, gameIds: readonly string[]): Promise<(GameSummary | undefined)[]> {
    if (gameIds.length === 0) return [];
    const rows = await this.redis.hmgetBuffer(this.k(id).results, ...gameIds);
    return rows.map((r) => (r ? (unpack(r) as GameSummary) : undefined));
  }

  async resultCount(id: string): Promise<number> {
    return this.redis.hlen(this.k(id).results);
  }

  async gameRecord(id: string, gameId: string): Promise<GameRecord | undefined> {
    const blob = await this.redis.hgetBuffer(this.k(id).records, gameId);
    return blob ? (unpack(blob) as GameRecord) : undefined;
  }

  async aggregateTable(id: string): Promise<Record<string, string>> {
    return this.redis.hgetall(this.k(id).agg);
  }

  async aggregates(loaded: LoadedSweep): Promise<CellAggregate[]> {
    return summarizeAggregates(await this.aggregateTable(loaded.id), loaded.sweep.cells, loaded.sweep.gamesPerCell);
  }

  /** Games finished lab-wide since the store began (a Prometheus counter). */
  async gamesDone(): Promise<number> {
    return Number((await this.redis.hget(this.keys.stats, 'done')) ?? 0);
  }
}
