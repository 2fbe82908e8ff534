/**
 * The lab's results store on Redis: sweeps (spec, status, counters), game results and full
 * records, aggregates, and the bookkeeping that feeds the queue a bounded window of games.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { IncrementSum, gameIncrements, placementOf, type PairedShare } from '../lab/results/increments.js';
import type { GameSummary } from '../lab/game/game.js';
import type { CellStop } from '../lab/plan/stopping.js';
import type { RaceReport } from '../lab/plan/race.js';
import type { PackedGame } from '../lab/results/codec.js';
import type { GameKey, PlayedPart } from '../lab/threads/game-messages.js';
import { Sweep, type SweepSpec } from '../lab/plan/sweep.js';
import { scheduledIndex, type ScheduleKind } from '../lab/plan/schedule.js';
import type { CodeVersion, WorkerIdentity } from '../lab/results/provenance.js';
import { RATE_BUCKET_MS, RATE_SLOTS, type RateRing } from '../lab/results/throughput.js';
import type { GameRecord, MoveLog } from '../engine/index.js';
import { keys, type Keys, type SweepKeys } from './keys.js';
import { recentMemory, type RedisMemory } from './lab-state.js';
import { isPackedForm, packGame, unpackLog, unpackRecord, unpackSummary } from '../lab/results/codec.js';
import { CLAIM_GAMES, HAND_BACK, HOLD_LOCK, LOST, RECORD_BATCH, RECORD_FAILURE, RECORD_RESULT, RELEASE_LOCK, RETRY_FAILED, SET_STATUS, UNCLAIM } from './scripts.js';

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
  /** The order its games are queued in: sweeps stored before the interleaved order are sequential. */
  schedule: ScheduleKind;
  /** When its first games were queued, and when it became done or was cancelled. */
  startedAt?: number;
  finishedAt?: number;
  /**
   * Its active clock (paused and stopped time not counted): milliseconds of past running spells and
   * the start of the current one; the clock's reading when the first and latest game finished.
   * Absent for sweeps stored before the clock.
   */
  activeMs?: number;
  runningSince?: number;
  firstDoneActive?: number;
  lastDoneActive?: number;
  /** The coordinator's code version when the sweep was created (absent for sweeps stored before). */
  code?: CodeVersion;
  /** The policy models its agents name, each with the sha256 of the file checked at submit. */
  models?: Record<string, string>;
  /** CPU milliseconds of its games' threads, summed (games stored before this was kept add nothing). */
  cpuMs?: number;
  /** Positions of its order per queue job (1: a job per game, as every sweep stored before batches). */
  batch: number;
  /** Games never played because their cell's stopping rule had decided (spec.stop), or their arm had left a race (spec.tune). */
  skipped: number;
  /** A racing tune's race as last saved (lab/plan/race.ts). */
  race?: RaceReport;
  /** The sweep that confirms a tune's recommendation, once made. */
  confirmation?: string;
  /** The tune this sweep confirms. */
  confirms?: string;
  /** Why the lab could not make a tune's confirmation. */
  confirmationError?: string;
}

/** How a stored game was made: its thread's CPU time and the worker that played it. */
export interface GameMaking {
  cpuMs?: number;
  worker?: WorkerIdentity;
}

/**
 * A sweep with its expansion, cached per process: the spec never changes once stored. `specText`
 * is the spec as stored, what a game thread is sent to expand the sweep itself (never stringified
 * again per batch).
 */
export interface LoadedSweep {
  id: string;
  spec: SweepSpec;
  specText: string;
  sweep: Sweep;
}

/** When a sweep is created, the code version that creates it, and its games per queue job. */
export interface CreateOptions {
  now?: number;
  code?: CodeVersion;
  batch?: number;
  /** The policy models the sweep's agents name, with their files' sha256 (checkSweepSpec's). */
  models?: Record<string, string>;
}

/** Sortable and short (it is in every job's id): time in base 36 and 16 random bits. */
export function newSweepId(now = Date.now()): string {
  return `${now.toString(36)}${randomBytes(2).toString('hex')}`;
}

/** A stopping sweep's claim scans at most this many positions past decided cells at a time. */
const CLAIM_SCAN = 100_000;

/**
 * The games a claim offers (CLAIM_GAMES): those at the positions after `cursor`, in the sweep's
 * order (Sweep.indexAt), enough for `want` games in whole batches. With decided cells, their games
 * are left out (the script counts them as skipped), each offered game's position is given, and
 * the scan stops after `want` games, at the end, or after CLAIM_SCAN positions (scanEnd).
 */
export function claimOffer(sweep: Sweep, cursor: number, want: number, batch: number, decided: ReadonlySet<number>): { games: number[]; positions: number[]; scanEnd: number } {
  const games: number[] = [];
  const positions: number[] = [];
  if (want <= 0) return { games, positions, scanEnd: cursor };
  if (decided.size === 0) {
    const stop = Math.min(sweep.size, cursor + Math.ceil(want / batch) * batch);
    for (let p = cursor; p < stop; p++) games.push(sweep.indexAt(p));
    return { games, positions, scanEnd: stop };
  }
  if (decided.size >= sweep.cells.length) return { games, positions, scanEnd: sweep.size };
  let p = cursor;
  for (; p < sweep.size && games.length < want && p - cursor < CLAIM_SCAN; p++) {
    const k = sweep.indexAt(p);
    if (decided.has(sweep.cellOf(k))) continue;
    games.push(k);
    positions.push(p);
  }
  return { games, positions, scanEnd: p };
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
    schedule: h.sCells ? 'interleaved' : 'sequential',
    batch: Number(h.batch ?? 1),
    skipped: Number(h.skipped ?? 0),
    ...Object.fromEntries(
      (['startedAt', 'finishedAt', 'activeMs', 'runningSince', 'firstDoneActive', 'lastDoneActive', 'cpuMs'] as const).filter((k) => h[k] !== undefined).map((k) => [k, num(k)]),
    ),
    ...(h.code ? { code: JSON.parse(h.code) as CodeVersion } : {}),
    ...(h.models ? { models: JSON.parse(h.models) as Record<string, string> } : {}),
    ...(h.race ? { race: JSON.parse(h.race) as RaceReport } : {}),
    ...(h.confirmation ? { confirmation: h.confirmation } : {}),
    ...(h.confirms ? { confirms: h.confirms } : {}),
    ...(h.confirmationError ? { confirmationError: h.confirmationError } : {}),
  };
}

/**
 * A result script found its sweep gone from the keyspace (a FLUSHALL, a Redis restarted without
 * its data) or of another epoch: nothing was written, and nothing of the sweep can be stored.
 */
export class KeyspaceLostError extends Error {
  constructor(readonly sweepId: string) {
    super(`sweep ${sweepId} is no longer in Redis (its data was lost: FLUSHALL or a restart without persistence): its games are not stored`);
    this.name = 'KeyspaceLostError';
  }
}

/** The summary of a game that comes without its packed form, which must then be whole to be packed here. */
function whole(summary: GameSummary | GameKey): GameSummary {
  if (!('players' in summary)) throw new Error(`game ${summary.id} came with neither its whole summary nor its packed form`);
  return summary;
}

/** A deflated blob from a game thread (a Uint8Array once it has crossed threads) as a Buffer, without a copy. */
const asBuffer = (u: Uint8Array): Buffer => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

/** A paired design's group share as the record scripts take it (undefined when the design is not paired). */
function shareJson(share: PairedShare | undefined, cell: number) {
  if (!share) return undefined;
  return {
    group: share.group,
    size: share.size,
    keys: share.keys.map((key, i) => ({ key, wins: share.wins[i], seats: share.seats[i] })),
    ...(share.compared ? { a: share.compared[0], b: share.compared[1] } : {}),
    cell: `c${cell}`,
  };
}

export class SweepStore {
  readonly keys: Keys;
  private readonly loaded = new Map<string, LoadedSweep>();
  /** The keyspace's epoch as the coordinator found it: stamped on the sweeps it creates (see KEYSPACE_LOST). */
  epoch?: string;

  constructor(
    readonly redis: Redis,
    prefix: string,
  ) {
    this.keys = keys(prefix);
  }

  /** Whether the connection is up now (no round trip). */
  isReady(): boolean {
    return this.redis.status === 'ready';
  }

  /** The connection's state as ioredis names it ('ready', 'reconnecting', …), for messages. */
  connectionStatus(): string {
    return this.redis.status;
  }

  /** Redis's memory against maxmemory, read at most once per `maxAgeMs`; undefined when Redis refuses INFO (lab-state.ts). */
  memory(maxAgeMs = 1000): Promise<RedisMemory | undefined> {
    return recentMemory(this.redis, maxAgeMs);
  }

  /** Whether Redis answers PING within `timeoutMs`. */
  async ping(timeoutMs: number): Promise<boolean> {
    if (!this.isReady()) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.redis.ping().then((r) => r === 'PONG', () => false), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private k(id: string): SweepKeys {
    return this.keys.sweep(id);
  }

  /**
   * Stores a validated spec's sweep (checkSweepSpec) as a new running sweep; the feeder takes it
   * from there, in the interleaved order. The expansion given is the one this store keeps for it
   * (unless it lacks the `models` given).
   */
  async create(sweep: Sweep, { now = Date.now(), code, batch = 1, models }: CreateOptions = {}): Promise<SweepMeta> {
    // The store's shape fields say the interleaved order: a sweep in another order would be fed wrong.
    if (sweep.schedule !== 'interleaved') throw new Error(`a new sweep is stored in the interleaved order, not '${sweep.schedule}'`);
    const { spec } = sweep;
    const id = newSweepId(now);
    const k = this.k(id);
    const specText = JSON.stringify(spec);
    const fields = {
      name: spec.name,
      status: 'running',
      spec: specText,
      total: sweep.size,
      cursor: 0,
      done: 0,
      failed: 0,
      priority: spec.priority,
      created: now,
      sCells: sweep.shape.cells,
      sSets: sweep.shape.sets,
      sDeals: sweep.shape.deals,
      sOrders: sweep.shape.orders,
      activeMs: 0,
      runningSince: now,
      batch,
      ...(code ? { code: JSON.stringify(code) } : {}),
      ...(models && Object.keys(models).length ? { models: JSON.stringify(models) } : {}),
      ...(this.epoch ? { epoch: this.epoch } : {}),
    };
    await this.redis.multi().hset(k.meta, fields).zadd(this.keys.sweeps, now, id).zadd(this.keys.active, spec.priority, id).exec();
    // An expansion without the models recorded here would play its games unchecked: such a sweep
    // is expanded again, with them, when it is first loaded.
    if (sweep.models || !fields.models) this.loaded.set(id, { id, spec, specText, sweep });
    return (await this.meta(id))!;
  }

  async meta(id: string): Promise<SweepMeta | undefined> {
    return parseMeta(id, await this.redis.hgetall(this.k(id).meta));
  }

  /** The sweeps, newest first: `limit` of them from `offset` (all by default). */
  async list(offset = 0, limit = Infinity): Promise<SweepMeta[]> {
    const ids = await this.redis.zrevrange(this.keys.sweeps, offset, Number.isFinite(limit) ? offset + limit - 1 : -1);
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
    const [text, interleaved, models] = await this.redis.hmget(this.k(id).meta, 'spec', 'sCells', 'models');
    if (!text) return undefined;
    // Validated when it was created (checkSweepSpec at the API): stored, it is only read back.
    const spec = JSON.parse(text) as SweepSpec;
    // Its models' recorded hashes go with every game's plan: a file changed since fails the game.
    const sweep = new Sweep(spec, { schedule: interleaved ? 'interleaved' : 'sequential', ...(models ? { models: JSON.parse(models) as Record<string, string> } : {}) });
    const loaded = { id, spec, specText: text, sweep };
    this.loaded.set(id, loaded);
    return loaded;
  }

  async status(id: string): Promise<SweepStatus | undefined> {
    return ((await this.redis.hget(this.k(id).meta, 'status')) ?? undefined) as SweepStatus | undefined;
  }

  /** Moves the status from one of `from` to `to`; returns the old status, or undefined if not allowed. */
  async transition(id: string, from: readonly SweepStatus[], to: SweepStatus, priority: number, now = Date.now()): Promise<SweepStatus | undefined> {
    const k = this.k(id);
    const old = await SET_STATUS.run(this.redis, { meta: k.meta, active: this.keys.active }, { sweepId: id, to, priority, from: JSON.stringify(from), now });
    return (old ?? undefined) as SweepStatus | undefined;
  }

  /**
   * A claim as queue jobs: the games handed back, a job each, and the positions taken from the
   * cursor in jobs of the sweep's batch (a batch of 1 is a single game's job).
   */
  async claimJobs(id: string, window: number, now = Date.now()): Promise<{ singles: number[]; batches: { p: number; n: number }[] }> {
    const { indices, from, stop } = await this.claimRaw(id, window, now);
    const meta = await this.meta(id);
    const batch = meta?.batch ?? 1;
    if (batch === 1) return { singles: indices, batches: [] };
    const batches: { p: number; n: number }[] = [];
    for (let p = from; p < stop; p += batch) batches.push({ p, n: Math.min(batch, stop - p) });
    return { singles: indices.slice(0, indices.length - (stop - from)), batches };
  }

  private async claimRaw(id: string, window: number, now: number): Promise<{ indices: number[]; from: number; stop: number }> {
    const k = this.k(id);
    const loaded = await this.load(id);
    if (!loaded) return { indices: [], from: 0, stop: 0 };
    const replies = (await this.redis.pipeline().hmget(k.meta, 'cursor', 'batch').scard(k.out).smembers(k.stopped).exec()) ?? [];
    const [[cursorText, batchText], out, stopped] = replies.map(([err, value]) => {
      if (err) throw err;
      return value;
    }) as [(string | null)[], number, string[]];
    const cursor = Number(cursorText ?? 0);
    const offer = claimOffer(loaded.sweep, cursor, window - out, Number(batchText ?? 1), new Set(stopped.map(Number)));
    const [got, from, stop] = (await CLAIM_GAMES.run(
      this.redis,
      { meta: k.meta, out: k.out, requeue: k.requeue, stopped: k.stopped, active: this.keys.active },
      {
        window,
        now,
        sweepId: id,
        cursor,
        decided: stopped.length,
        games: JSON.stringify(offer.games.map(String)),
        positions: JSON.stringify(offer.positions),
        scanEnd: offer.scanEnd,
      },
    )) as [string[], number, number];
    return { indices: got.map(Number), from: Number(from), stop: Number(stop) };
  }

  /**
   * Undoes the tail of a claim whose jobs were not queued: the games at positions [rollback, stop)
   * of the order (see UNCLAIM); returns how many were taken back.
   */
  async unclaim(id: string, games: readonly number[], rollback: number, stop: number): Promise<number> {
    const k = this.k(id);
    return (await UNCLAIM.run(this.redis, { meta: k.meta, out: k.out, requeue: k.requeue }, { games: JSON.stringify(games.map(String)), rollback, stop })) as number;
  }

  /**
   * The games at these positions of a sweep's order, from the shape fields of its meta alone (no
   * spec is parsed: what a worker needs when the spec itself cannot be expanded).
   */
  async indicesAt(id: string, positions: readonly number[]): Promise<number[]> {
    const [cells, sets, deals, orders] = (await this.redis.hmget(this.k(id).meta, 'sCells', 'sSets', 'sDeals', 'sOrders')).map(Number);
    if (!cells) return [...positions];
    return positions.map((p) => scheduledIndex({ cells, sets, deals, orders }, p));
  }

  /** Each cell's stopping test as last saved (spec.stop), by cell. */
  async stopStates(id: string): Promise<Map<number, CellStop>> {
    const h = await this.redis.hgetall(this.k(id).stops);
    return new Map(Object.entries(h).map(([cell, json]) => [Number(cell), JSON.parse(json) as CellStop]));
  }

  /** Saves a racing tune's race (its report), with the stopping states of its arms that changed. */
  async saveRace(id: string, race: RaceReport, arms: ReadonlyMap<number, CellStop>): Promise<void> {
    const k = this.k(id);
    const multi = this.redis.multi().hset(k.meta, 'race', JSON.stringify(race));
    for (const [cell, stop] of arms) {
      multi.hset(k.stops, String(cell), JSON.stringify(stop));
      if (stop.decision && stop.decision !== 'max') multi.sadd(k.stopped, String(cell));
    }
    await multi.exec();
  }

  /** Why a tune's confirmation could not be made. */
  async saveConfirmationError(tune: string, message: string): Promise<void> {
    await this.redis.hset(this.k(tune).meta, 'confirmationError', message);
  }

  /** Links a tune and the sweep that confirms its recommendation (each names the other). */
  async linkConfirmation(tune: string, confirmation: string): Promise<void> {
    await this.redis.multi().hset(this.k(tune).meta, 'confirmation', confirmation).hset(this.k(confirmation).meta, 'confirms', tune).exec();
  }

  /** Saves a cell's stopping test; once decided, the claim script skips the cell's games not yet queued. */
  async saveStop(id: string, cell: number, stop: CellStop): Promise<void> {
    const k = this.k(id);
    const multi = this.redis.multi().hset(k.stops, String(cell), JSON.stringify(stop));
    if (stop.decision && stop.decision !== 'max') multi.sadd(k.stopped, String(cell));
    await multi.exec();
  }

  /** Of these game indices, those still outstanding (claimed, not yet stored, failed or handed back). */
  async stillOutstanding(id: string, indices: readonly number[]): Promise<number[]> {
    if (indices.length === 0) return [];
    const member = await this.redis.smismember(this.k(id).out, ...indices.map(String));
    return indices.filter((_, i) => member[i] === 1);
  }

  async outstanding(id: string): Promise<number[]> {
    return (await this.redis.smembers(this.k(id).out)).map(Number);
  }

  /** Games whose jobs were taken off the queue go back in line; returns how many. */
  async handBack(id: string, indices: readonly number[]): Promise<number> {
    if (indices.length === 0) return 0;
    const k = this.k(id);
    return (await HAND_BACK.run(this.redis, { out: k.out, requeue: k.requeue }, { indices: JSON.stringify(indices.map(String)) })) as number;
  }

  /** Forgets outstanding games without playing them (a cancelled sweep). */
  async dropOutstanding(id: string, indices: readonly number[]): Promise<void> {
    if (indices.length) await this.redis.srem(this.k(id).out, ...indices);
  }

  async retryFailed(id: string, priority: number, now = Date.now()): Promise<number> {
    const k = this.k(id);
    return (await RETRY_FAILED.run(this.redis, { meta: k.meta, failed: k.failed, requeue: k.requeue, active: this.keys.active }, { sweepId: id, priority, now })) as number;
  }

  /**
   * Stores a finished game and its aggregate increments atomically; false when this game id was
   * stored before (a job delivered twice).
   */
  async recordResult(loaded: LoadedSweep, summary: GameSummary | GameKey, now = Date.now(), made: GameMaking = {}, packed?: PackedGame): Promise<boolean> {
    const k = this.k(loaded.id);
    const placement = placementOf(loaded.sweep, summary.index);
    const ready = packed ?? packGame(whole(summary), placement);
    const share = shareJson(ready.share, placement.cell);
    const stored = await RECORD_RESULT.run(this.redis, this.recordKeys(k), {
      sweepId: loaded.id,
      gameId: summary.id,
      index: summary.index,
      summary: asBuffer(ready.summary),
      record: ready.record ? asBuffer(ready.record) : '',
      now,
      increments: JSON.stringify([...ready.increments].map(([field, delta]) => [field, String(delta)])),
      share: share ? JSON.stringify(share) : '',
      rateBucketMs: RATE_BUCKET_MS,
      rateSlots: RATE_SLOTS,
      cpuMs: made.cpuMs !== undefined && Number.isFinite(made.cpuMs) ? made.cpuMs.toFixed(3) : '',
      worker: made.worker ? JSON.stringify(made.worker) : '',
    });
    if (stored === LOST) throw new KeyspaceLostError(loaded.id);
    return stored === 1;
  }

  /**
   * Stores games a thread played in a row and packed, each part with its games' increments
   * summed there (GameLane.playSeries): one script call for all the parts. When one of the games
   * was stored before, each game is stored on its own instead, its increments counted again from
   * its packed summary.
   */
  async recordParts(loaded: LoadedSweep, parts: readonly PlayedPart[], now = Date.now(), worker?: WorkerIdentity): Promise<number> {
    const k = this.k(loaded.id);
    const list: [string, number, number, number][] = [];
    const blobs: Buffer[] = [];
    const sum = new IncrementSum();
    const shares: ReturnType<typeof shareJson>[] = [];
    let cpuMs = 0;
    let cpuKnown = false;
    for (const part of parts) {
      sum.addSummed(part.increments);
      for (const game of part.games) {
        const packedSummary = asBuffer(game.summary);
        const packedRecord = game.record && asBuffer(game.record);
        list.push([game.key.id, game.key.index, packedSummary.length, packedRecord?.length ?? 0]);
        blobs.push(packedSummary, ...(packedRecord ? [packedRecord] : []));
        if (game.share) shares.push(shareJson(game.share, loaded.sweep.cellOf(game.key.index)));
        if (Number.isFinite(game.cpuMs)) {
          cpuMs += game.cpuMs;
          cpuKnown = true;
        }
      }
    }
    if (list.length === 0) return 0;
    const stored = (await RECORD_BATCH.run(this.redis, this.recordKeys(k), {
      sweepId: loaded.id,
      games: JSON.stringify(list),
      blobs: Buffer.concat(blobs),
      now,
      increments: JSON.stringify(sum.forScript()),
      shares: JSON.stringify(shares),
      rateBucketMs: RATE_BUCKET_MS,
      rateSlots: RATE_SLOTS,
      cpuMs: cpuKnown ? cpuMs.toFixed(3) : '',
      worker: worker ? JSON.stringify(worker) : '',
    })) as number;
    if (stored === LOST) throw new KeyspaceLostError(loaded.id);
    if (stored >= 0) return stored;
    let one = 0;
    for (const part of parts) {
      for (const game of part.games) {
        const summary = asBuffer(game.summary);
        const increments = gameIncrements(unpackSummary(summary), placementOf(loaded.sweep, game.key.index));
        const packed: PackedGame = { summary, record: game.record, increments, share: game.share };
        if (await this.recordResult(loaded, game.key, now, { cpuMs: game.cpuMs, worker }, packed)) one++;
      }
    }
    return one;
  }

  private recordKeys(k: SweepKeys) {
    return { meta: k.meta, results: k.results, records: k.records, agg: k.agg, groups: k.groups, out: k.out, active: this.keys.active, stats: this.keys.stats, rate: k.rate, workers: k.workers, epoch: this.keys.epoch };
  }

  /** Records a game that failed every attempt; false when already recorded or since played. */
  async recordFailure(id: string, index: number, gameId: string, message: string, now = Date.now()): Promise<boolean> {
    const k = this.k(id);
    const stored = await RECORD_FAILURE.run(
      this.redis,
      { meta: k.meta, failed: k.failed, out: k.out, active: this.keys.active, results: k.results, stats: this.keys.stats, epoch: this.keys.epoch },
      { sweepId: id, index, gameId, message: message.slice(0, 2000), now },
    );
    if (stored === LOST) throw new KeyspaceLostError(id);
    return stored === 1;
  }

  /** The errors of these game indices, undefined where the game has not failed. */
  async failureErrors(id: string, indices: readonly number[]): Promise<(string | undefined)[]> {
    if (indices.length === 0) return [];
    const rows = await this.redis.hmget(this.k(id).failed, ...indices.map(String));
    return rows.map((r) => r ?? undefined);
  }

  /** Games of a sweep in the queue now, and games handed back waiting to be queued again. */
  async queueState(id: string): Promise<{ queued: number; handedBack: number }> {
    const k = this.k(id);
    const [queued, handedBack] = await Promise.all([this.redis.scard(k.out), this.redis.llen(k.requeue)]);
    return { queued, handedBack };
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
    return rows.map((r) => (r ? unpackSummary(r) : undefined));
  }

  /** The sweep's throughput ring: games finished per bucket of active time (see RECORD_RESULT). */
  async rateRing(id: string): Promise<RateRing> {
    const h = await this.redis.hgetall(this.k(id).rate);
    const ring: RateRing = [];
    for (let slot = 0; slot < RATE_SLOTS; slot++) {
      if (h[`b${slot}`] !== undefined) ring.push({ bucket: Number(h[`b${slot}`]), games: Number(h[`n${slot}`] ?? 0) });
    }
    return ring;
  }

  /** The workers that stored the sweep's games, with how many each stored, most first. */
  async workers(id: string): Promise<(WorkerIdentity & { games: number })[]> {
    const h = await this.redis.hgetall(this.k(id).workers);
    return Object.entries(h)
      .map(([who, games]) => ({ ...(JSON.parse(who) as WorkerIdentity), games: Number(games) }))
      .sort((a, b) => b.games - a.games || a.host.localeCompare(b.host) || a.pid - b.pid);
  }

  /** Games finished in each cell (the aggregates' per-cell count), in cell order. */
  async cellsDone(loaded: LoadedSweep): Promise<number[]> {
    const cells = loaded.sweep.cells.length;
    if (cells === 0) return [];
    const rows = await this.redis.hmget(this.k(loaded.id).agg, ...Array.from({ length: cells }, (_, c) => `c${c}|n`));
    return rows.map((r) => Number(r ?? 0));
  }

  /** Stored move logs of the given game ids; undefined where none is stored (or it predates logs). */
  async moveLogs(id: string, gameIds: readonly string[]): Promise<(MoveLog | undefined)[]> {
    if (gameIds.length === 0) return [];
    const blobs = await this.redis.hmgetBuffer(this.k(id).records, ...gameIds);
    return blobs.map((b) => (b && isPackedForm(b) ? unpackLog(b) : undefined));
  }

  async gameRecord(id: string, gameId: string): Promise<GameRecord | undefined> {
    const blob = await this.redis.hgetBuffer(this.k(id).records, gameId);
    return blob ? unpackRecord(blob) : undefined;
  }

  /** A sweep's finishing-order counters (`c<cell>|O<order>` → games), read by a server-side scan of its aggregates. */
  async finishingOrders(id: string): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.hscan(this.k(id).agg, cursor, 'MATCH', 'c*|O*', 'COUNT', 1000);
      for (let i = 0; i < flat.length; i += 2) out.set(flat[i], Number(flat[i + 1]));
      cursor = next;
    } while (cursor !== '0');
    return out;
  }

  async aggregateTable(id: string): Promise<Record<string, string>> {
    return this.redis.hgetall(this.k(id).agg);
  }

  /** Games finished and games failed (every attempt) lab-wide since the store began: counters, in one round trip. */
  async gameCounters(): Promise<{ done: number; failed: number }> {
    const [done, failed] = await this.redis.hmget(this.keys.stats, 'done', 'failed');
    return { done: Number(done ?? 0), failed: Number(failed ?? 0) };
  }

  /** Unfinished games of running sweeps: queued plus not yet queued (what workers should scale on). */
  async backlog(): Promise<number> {
    const ids = await this.activeIds();
    if (ids.length === 0) return 0;
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hmget(this.k(id).meta, 'total', 'done', 'failed', 'skipped');
    let sum = 0;
    for (const [, row] of (await pipeline.exec()) ?? []) {
      const [total, done, failed, skipped] = (row as (string | null)[] | null) ?? [];
      if (total) sum += Number(total) - Number(done ?? 0) - Number(failed ?? 0) - Number(skipped ?? 0);
    }
    return sum;
  }

  /** Takes or renews the feeder's lock for `owner` (one coordinator feeds at a time); true when held. */
  async holdFeederLock(owner: string, ttlMs: number): Promise<boolean> {
    return (await HOLD_LOCK.run(this.redis, { lock: this.keys.feederLock }, { owner, ttlMs })) === 1;
  }

  async releaseFeederLock(owner: string): Promise<void> {
    await RELEASE_LOCK.run(this.redis, { lock: this.keys.feederLock }, { owner });
  }

  /** Of these BullMQ job ids of the queue whose keys start with `queueKey`, those with no job. */
  async missingJobs(queueKey: string, jobIds: readonly string[]): Promise<string[]> {
    if (jobIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of jobIds) pipeline.exists(`${queueKey}:${id}`);
    const exists = (await pipeline.exec()) ?? [];
    return jobIds.filter((_, i) => exists[i][1] === 0);
  }

  /** Sweeps by status, from each sweep's status field alone (no spec is read). */
  async statusCounts(): Promise<Record<SweepStatus, number>> {
    const ids = await this.redis.zrange(this.keys.sweeps, 0, -1);
    const counts = Object.fromEntries(SWEEP_STATUSES.map((s) => [s, 0])) as Record<SweepStatus, number>;
    if (ids.length === 0) return counts;
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hget(this.k(id).meta, 'status');
    for (const [, status] of (await pipeline.exec()) ?? []) if (typeof status === 'string' && status in counts) counts[status as SweepStatus]++;
    return counts;
  }
}
