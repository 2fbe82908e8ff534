/**
 * The read side of the sweep store: a sweep's meta, spec and expansion, its stored games, records,
 * aggregates, failures and queue bookkeeping as the views, the API and the feeder read them. It
 * writes nothing (sweep-ledger.ts writes); the one state it keeps is the per-process cache of
 * loaded sweeps (a stored spec never changes).
 */
import type { Redis } from 'ioredis';
import type { OutsideAgentRecord } from '../agents/index.js';
import type { GameSummary } from '../lab/game/game.js';
import type { CellStop } from '../lab/plan/stopping.js';
import type { RaceReport } from '../lab/plan/race.js';
import type { StepRecord } from '../lab/plan/tune-steps.js';
import { Sweep, type SweepSpec } from '../lab/plan/sweep.js';
import { scheduledIndex, type ScheduleKind } from '../lab/plan/schedule.js';
import type { CodeVersion, WorkerIdentity } from '../lab/results/provenance.js';
import { RATE_SLOTS, type RateRing } from '../lab/results/throughput.js';
import type { GameRecord, MoveLog } from '../engine/index.js';
import { isPackedForm, unpackLog, unpackRecord, unpackSummary } from '../lab/results/codec.js';
import type { Keys, SweepKeys } from './keys.js';

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
  /** The order its games are queued in (sequential: sweeps stored before the interleaved order, schema.ts). */
  schedule: ScheduleKind;
  /** When its first games were queued, and when it became done or was cancelled. */
  startedAt?: number;
  finishedAt?: number;
  /**
   * Its active clock (paused and stopped time not counted): milliseconds of past running spells and
   * the start of the current one (while running); the clock's reading when the first and latest
   * game finished.
   */
  activeMs: number;
  runningSince?: number;
  firstDoneActive?: number;
  lastDoneActive?: number;
  /** The coordinator's code version when the sweep was created (absent for sweeps stored before). */
  code?: CodeVersion;
  /** The policy models its agents name, each with the sha256 of the file checked at submit. */
  models?: Record<string, string>;
  /** The outside agents its seats name, as installed at submit: manifest, files' sha256 and count. */
  agents?: Record<string, OutsideAgentRecord>;
  /** CPU milliseconds of its games' threads, summed (games stored before this was kept add nothing). */
  cpuMs?: number;
  /** Positions of its order per queue job (1: a job per game). */
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
  /** Why the lab paused it: an outside agent failed that many games in a row (cleared on resume). */
  suspended?: string;
  /** An SPSA or NTBEA tune's recommendation, once its budget is spent. */
  recommendation?: string;
  /** For a step of an SPSA or NTBEA tune: the tune. */
  stepOf?: string;
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
    done: Number(h.done),
    failed: Number(h.failed),
    priority: Number(h.priority),
    created: Number(h.created),
    ...(h.firstDone ? { firstDone: num('firstDone') } : {}),
    ...(h.lastDone ? { lastDone: num('lastDone') } : {}),
    schedule: h.schedule as ScheduleKind,
    batch: Number(h.batch),
    skipped: Number(h.skipped),
    activeMs: Number(h.activeMs),
    ...Object.fromEntries(
      (['startedAt', 'finishedAt', 'runningSince', 'firstDoneActive', 'lastDoneActive', 'cpuMs'] as const).filter((k) => h[k] !== undefined).map((k) => [k, num(k)]),
    ),
    ...(h.code ? { code: JSON.parse(h.code) as CodeVersion } : {}),
    ...(h.models ? { models: JSON.parse(h.models) as Record<string, string> } : {}),
    ...(h.agents ? { agents: JSON.parse(h.agents) as Record<string, OutsideAgentRecord> } : {}),
    ...(h.race ? { race: JSON.parse(h.race) as RaceReport } : {}),
    ...(h.confirmation ? { confirmation: h.confirmation } : {}),
    ...(h.confirms ? { confirms: h.confirms } : {}),
    ...(h.confirmationError ? { confirmationError: h.confirmationError } : {}),
    ...(h.suspended ? { suspended: h.suspended } : {}),
    ...(h.recommendation ? { recommendation: h.recommendation } : {}),
    ...(h.stepOf ? { stepOf: h.stepOf } : {}),
  };
}

export class SweepReads {
  private readonly loaded = new Map<string, LoadedSweep>();

  constructor(
    readonly redis: Redis,
    readonly keys: Keys,
  ) {}

  private k(id: string): SweepKeys {
    return this.keys.sweep(id);
  }

  /** Keeps a sweep's expansion made as it was stored, so that its first games need not expand it again. */
  remember(loaded: LoadedSweep): void {
    this.loaded.set(loaded.id, loaded);
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
    const [text, schedule, models] = await this.redis.hmget(this.k(id).meta, 'spec', 'schedule', 'models');
    if (!text) return undefined;
    // Validated when it was created (checkSweepSpec at the API): stored, it is only read back.
    const spec = JSON.parse(text) as SweepSpec;
    // Its models' recorded hashes go with every game's plan: a file changed since fails the game.
    const sweep = new Sweep(spec, { schedule: schedule as ScheduleKind, ...(models ? { models: JSON.parse(models) as Record<string, string> } : {}) });
    const loaded = { id, spec, specText: text, sweep };
    this.loaded.set(id, loaded);
    return loaded;
  }


  async status(id: string): Promise<SweepStatus | undefined> {
    return ((await this.redis.hget(this.k(id).meta, 'status')) ?? undefined) as SweepStatus | undefined;
  }


  /**
   * The games at these positions of a sweep's order, from the shape fields of its meta alone (no
   * spec is parsed: what a worker needs when the spec itself cannot be expanded).
   */
  async indicesAt(id: string, positions: readonly number[]): Promise<number[]> {
    const [schedule, ...shape] = await this.redis.hmget(this.k(id).meta, 'schedule', 'sCells', 'sSets', 'sDeals', 'sOrders');
    if (schedule === 'sequential') return [...positions];
    const [cells, sets, deals, orders] = shape.map(Number);
    return positions.map((p) => scheduledIndex({ cells, sets, deals, orders }, p));
  }


  /** An SPSA or NTBEA tune's steps as recorded (step k → its record's JSON), and its results in the order applied. */
  async tuneSteps(id: string): Promise<{ steps: Map<number, string>; applied: { k: number; value: number | null }[] }> {
    const k = this.k(id);
    const [steps, applied] = await Promise.all([this.redis.hgetall(k.steps), this.redis.lrange(k.applied, 0, -1)]);
    return { steps: new Map(Object.entries(steps).map(([step, json]) => [Number(step), json])), applied: applied.map((json) => JSON.parse(json) as { k: number; value: number | null }) };
  }

  /** The steps of a tune not yet applied that have a sweep: what pausing, resuming, cancelling or suspending the tune acts on. */
  async stepsInFlight(id: string): Promise<string[]> {
    const { steps, applied } = await this.tuneSteps(id);
    const done = new Set(applied.map((a) => a.k));
    return [...steps]
      .filter(([k]) => !done.has(k))
      .map(([, json]) => (JSON.parse(json) as StepRecord).sweep)
      .filter((s): s is string => s !== undefined);
  }

  /** Each cell's stopping test as last saved (spec.stop), by cell. */
  async stopStates(id: string): Promise<Map<number, CellStop>> {
    const h = await this.redis.hgetall(this.k(id).stops);
    return new Map(Object.entries(h).map(([cell, json]) => [Number(cell), JSON.parse(json) as CellStop]));
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
