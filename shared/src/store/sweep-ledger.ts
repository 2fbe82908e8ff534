/**
 * The sweep store's exactly-once ledger: every write of a sweep's state goes through here and its
 * Lua scripts (scripts.ts) — creating a sweep, moving its status, claiming games for the queue and
 * handing them back, storing each game once with its aggregate increments, recording failures,
 * saving stopping and racing states, and the feeder's lock. What it reads back it reads through
 * the read side (sweep-reads.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { OutsideAgentRecord } from '../agents/index.js';
import { IncrementSum, gameIncrements, placementOf, type PairedShare } from '../lab/results/increments.js';
import type { GameSummary } from '../lab/game/game.js';
import type { CellStop } from '../lab/plan/stopping.js';
import type { RaceReport } from '../lab/plan/race.js';
import type { PackedGame } from '../lab/results/codec.js';
import type { GameKey, PlayedPart } from '../lab/threads/game-messages.js';
import type { Sweep } from '../lab/plan/sweep.js';
import type { CodeVersion, WorkerIdentity } from '../lab/results/provenance.js';
import { RATE_BUCKET_MS, RATE_SLOTS } from '../lab/results/throughput.js';
import type { Keys, SweepKeys } from './keys.js';
import { packGame, unpackSummary } from '../lab/results/codec.js';
import { CLAIM_GAMES, HAND_BACK, HOLD_LOCK, LOST, RECORD_BATCH, RECORD_FAILURE, RECORD_RESULT, RELEASE_LOCK, RETRY_FAILED, SET_STATUS, UNCLAIM } from './scripts.js';
import type { LoadedSweep, SweepMeta, SweepReads, SweepStatus } from './sweep-reads.js';

/** How a stored game was made: its thread's CPU time and the worker that played it. */
export interface GameMaking {
  cpuMs?: number;
  worker?: WorkerIdentity;
}

/** When a sweep is created, the code version that creates it, and its games per queue job. */
export interface CreateOptions {
  now?: number;
  code?: CodeVersion;
  batch?: number;
  /** The policy models the sweep's agents name, with their files' sha256 (checkSweepSpec's). */
  models?: Record<string, string>;
  /** The outside agents its seats name, each as installed at submit: manifest and the sha256 of its files (agentFingerprint). */
  agents?: Record<string, OutsideAgentRecord>;
  /**
   * A step of an SPSA or NTBEA tune: its id, made from the tune's and the step's (so that a step
   * made again after a restart is the same sweep, never a second one), and the tune it belongs to.
   * Steps are not in the list of sweeps (the tune is).
   */
  step?: { of: string; k: number };
}

/** Sortable and short (it is in every job's id): time in base 36 and 16 random bits. */
export function newSweepId(now = Date.now()): string {
  return `${now.toString(36)}${randomBytes(2).toString('hex')}`;
}

/** The id of an SPSA or NTBEA tune's step k: the tune's id, 's', k (a sweep id still: lowercase letters and digits). */
export function stepSweepId(tune: string, k: number): string {
  return `${tune}s${k}`;
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

export class SweepLedger {
  /** The keyspace's epoch as the coordinator found it: stamped on the sweeps it creates (see KEYSPACE_LOST). */
  epoch?: string;

  constructor(
    readonly redis: Redis,
    readonly keys: Keys,
    private readonly reads: SweepReads,
  ) {}

  private k(id: string): SweepKeys {
    return this.keys.sweep(id);
  }


  /**
   * Stores a validated spec's sweep (checkSweepSpec) as a new running sweep; the feeder takes it
   * from there, in the interleaved order. The expansion given is the one this store keeps for it
   * (unless it lacks the `models` given).
   */
  async create(sweep: Sweep, { now = Date.now(), code, batch = 1, models, agents, step }: CreateOptions = {}): Promise<SweepMeta> {
    // The store's shape fields say the interleaved order: a sweep in another order would be fed wrong.
    if (sweep.schedule !== 'interleaved') throw new Error(`a new sweep is stored in the interleaved order, not '${sweep.schedule}'`);
    const { spec } = sweep;
    const id = step ? stepSweepId(step.of, step.k) : newSweepId(now);
    const k = this.k(id);
    // A step made before (the coordinator stopped between making it and recording it): that one.
    if (step && (await this.redis.hexists(k.meta, 'spec'))) return (await this.reads.meta(id))!;
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
      schedule: 'interleaved',
      skipped: 0,
      sCells: sweep.shape.cells,
      sSets: sweep.shape.sets,
      sDeals: sweep.shape.deals,
      sOrders: sweep.shape.orders,
      activeMs: 0,
      runningSince: now,
      batch,
      ...(code ? { code: JSON.stringify(code) } : {}),
      ...(models && Object.keys(models).length ? { models: JSON.stringify(models) } : {}),
      ...(agents && Object.keys(agents).length ? { agents: JSON.stringify(agents) } : {}),
      ...(this.epoch ? { epoch: this.epoch } : {}),
      ...(step ? { stepOf: step.of } : {}),
    };
    const multi = this.redis.multi().hset(k.meta, fields).zadd(this.keys.active, spec.priority, id);
    await (step ? multi : multi.zadd(this.keys.sweeps, now, id)).exec();
    // An expansion without the models recorded here would play its games unchecked: such a sweep
    // is expanded again, with them, when it is first loaded.
    if (sweep.models || !fields.models) this.reads.remember({ id, spec, specText, sweep });
    return (await this.reads.meta(id))!;
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
    const meta = await this.reads.meta(id);
    const batch = meta?.batch ?? 1;
    if (batch === 1) return { singles: indices, batches: [] };
    const batches: { p: number; n: number }[] = [];
    for (let p = from; p < stop; p += batch) batches.push({ p, n: Math.min(batch, stop - p) });
    return { singles: indices.slice(0, indices.length - (stop - from)), batches };
  }


  private async claimRaw(id: string, window: number, now: number): Promise<{ indices: number[]; from: number; stop: number }> {
    const k = this.k(id);
    const loaded = await this.reads.load(id);
    if (!loaded) return { indices: [], from: 0, stop: 0 };
    const replies = (await this.redis.pipeline().hmget(k.meta, 'cursor', 'batch').scard(k.out).smembers(k.stopped).exec()) ?? [];
    const [[cursorText, batchText], out, stopped] = replies.map(([err, value]) => {
      if (err) throw err;
      return value;
    }) as [(string | null)[], number, string[]];
    const cursor = Number(cursorText ?? 0);
    const offer = claimOffer(loaded.sweep, cursor, window - out, Number(batchText), new Set(stopped.map(Number)));
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


  /** Saves a cell's stopping test; once decided, the claim script skips the cell's games not yet queued. */
  async saveStop(id: string, cell: number, stop: CellStop): Promise<void> {
    const k = this.k(id);
    const multi = this.redis.multi().hset(k.stops, String(cell), JSON.stringify(stop));
    if (stop.decision && stop.decision !== 'max') multi.sadd(k.stopped, String(cell));
    await multi.exec();
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


  /** Records an SPSA or NTBEA tune's step k as proposed (once: a step proposed before keeps its record). */
  async proposeStep(id: string, k: number, record: string): Promise<void> {
    await this.redis.hsetnx(this.k(id).steps, String(k), record);
  }

  /** Rewrites a step's record (its sweep made). */
  async saveStep(id: string, k: number, record: string): Promise<void> {
    await this.redis.hset(this.k(id).steps, String(k), record);
  }

  /** Appends a step's result to the tune's applied results, in the order the tune applies them. */
  async applyStep(id: string, k: number, value: number | null): Promise<void> {
    await this.redis.rpush(this.k(id).applied, JSON.stringify({ k, value }));
  }

  /** An SPSA or NTBEA tune has spent its budget: its recommendation saved, the tune done. */
  async finishTune(id: string, recommendation: string, priority: number, now = Date.now()): Promise<void> {
    await this.redis.hset(this.k(id).meta, 'recommendation', recommendation);
    if (await this.transition(id, ['running', 'paused'], 'done', priority, now)) await this.redis.hset(this.k(id).meta, 'finishedAt', now);
  }

  /**
   * A game failed by an outside agent's fault (its message names the agent): one more failure in a
   * row for it in this sweep — in a tune's step, in the tune, whose steps are a couple of games
   * each. At `limit` the sweep is paused and says why (meta `suspended`), and a step's tune with
   * it: an agent that fails every game would otherwise burn the sweep's games. Returns the count.
   */
  async agentFault(id: string, agent: string, message: string, limit: number, priority: number): Promise<number> {
    const k = this.k(id);
    const tune = await this.redis.hget(k.meta, 'stepOf');
    const count = await this.redis.hincrby(this.k(tune ?? id).agentFaults, agent, 1);
    if (count >= limit) {
      const reason = `outside agent '${agent}' failed ${count} games in a row, the last: ${message.slice(0, 500)}`;
      if (tune) {
        // Its steps in flight (this one too) are paused first, so that whoever sees the tune
        // suspended sees them paused; then the tune, which says which step, and whose resume
        // (resuming its steps) is the one action that goes on; then the steps again, for one the
        // tune driver made meanwhile or resumed while the tune still ran (TuneDriver.check: a
        // running tune's steps run with it).
        await this.pauseSteps(tune, priority);
        await this.suspend(tune, `its step ${id}: ${reason}`, priority);
        await this.suspend(id, reason, priority);
        await this.pauseSteps(tune, priority);
      } else await this.suspend(id, reason, priority);
    }
    return count;
  }

  /** A tune's running steps in flight, paused (as a tune's pause pauses them). */
  private async pauseSteps(tune: string, priority: number): Promise<void> {
    for (const step of await this.reads.stepsInFlight(tune)) await this.transition(step, ['running'], 'paused', priority);
  }

  /**
   * Pauses a running sweep, saying why. The reason first: whoever sees the sweep paused sees why
   * (another slot may have paused it already: its reason stands). A sweep that is neither running
   * nor paused keeps none.
   */
  private async suspend(id: string, reason: string, priority: number): Promise<void> {
    const k = this.k(id);
    await this.redis.hset(k.meta, 'suspended', reason);
    if (!(await this.transition(id, ['running'], 'paused', priority)) && (await this.redis.hget(k.meta, 'status')) !== 'paused') await this.redis.hdel(k.meta, 'suspended');
  }

  /** Games these outside agents played through (in a tune's step: in the tune): their failures in a row start again from 0. */
  async agentsPlayed(id: string, agents: readonly string[]): Promise<void> {
    if (agents.length === 0) return;
    const tune = await this.redis.hget(this.k(id).meta, 'stepOf');
    await this.redis.hdel(this.k(tune ?? id).agentFaults, ...agents);
  }

  /** Resumed: a suspension is over, its counts start again. */
  async clearSuspension(id: string): Promise<void> {
    const k = this.k(id);
    await this.redis.multi().hdel(k.meta, 'suspended').del(k.agentFaults).exec();
  }

  /** Why a tune's confirmation could not be made. */
  async saveConfirmationError(tune: string, message: string): Promise<void> {
    await this.redis.hset(this.k(tune).meta, 'confirmationError', message);
  }


  /** Links a tune and the sweep that confirms its recommendation (each names the other). */
  async linkConfirmation(tune: string, confirmation: string): Promise<void> {
    await this.redis.multi().hset(this.k(tune).meta, 'confirmation', confirmation).hset(this.k(confirmation).meta, 'confirms', tune).exec();
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


  /** Takes or renews the feeder's lock for `owner` (one coordinator feeds at a time); true when held. */
  async holdFeederLock(owner: string, ttlMs: number): Promise<boolean> {
    return (await HOLD_LOCK.run(this.redis, { lock: this.keys.feederLock }, { owner, ttlMs })) === 1;
  }


  async releaseFeederLock(owner: string): Promise<void> {
    await RELEASE_LOCK.run(this.redis, { lock: this.keys.feederLock }, { owner });
  }
}
