/**
 * A queue worker: takes game jobs, plays each on a thread of a GamePool (one slot per CPU), and
 * stores the result with its aggregate updates in one atomic step keyed by the game id.
 */
import { DelayedError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { GameAbortedError, GameFailedError, GamePool, gameSeconds, parseAgentSpec, placementOf, recordKeeping, workerIdentity, type GameLane, type GameKey, type PlayedGame, type PlayedPart, type Sweep, type WorkerIdentity } from '@wonderlab/shared';
import { HEARTBEAT_MS, KeyspaceLostError, OutageLog, REMOVE_FINISHED, SweepStore, WorkerRoster, isOutOfMemory, isRedisUnavailable, within, type GameJobData, type LoadedSweep, type RosterWorker, type SweepStatus } from '@wonderlab/shared/store';
import { AGENT_SUSPEND_AFTER } from './config.js';

export interface GameWorkerOptions {
  redis: Redis;
  prefix: string;
  queueName: string;
  slots: number;
  lockDuration: number;
  stalledInterval: number;
  logger: Logger;
  /** Where Redis outages are logged (once, then at a bounded rate); by default one of its own. */
  outage?: OutageLog;
  /** An outside agent that fails this many games of a sweep in a row suspends the sweep (paused, with the reason). */
  agentSuspendAfter?: number;
}

/** The outside agent a failed game's message blames (AgentFault's messages begin so), if any. */
const BLAMED = /outside agent '([a-z0-9._-]+)'/;

/** Each sweep's outside agents by cell (ext(name=…) seats), worked out once per expansion; null when it has none. */
const outsideByCell = new WeakMap<object, string[][] | null>();
function outsideAgents(sweep: LoadedSweep['sweep'], index: number): string[] {
  let byCell = outsideByCell.get(sweep);
  if (byCell === undefined) {
    byCell = sweep.cells.map((c) => [...new Set(c.agents.flatMap((text) => {
      const spec = parseAgentSpec(text);
      return spec.kind === 'ext' ? [spec.name] : [];
    }))]);
    if (byCell.every((names) => names.length === 0)) byCell = null;
    outsideByCell.set(sweep, byCell);
  }
  // A sweep without outside agents (most) costs a lookup, not a game's expansion, per stored game.
  return byCell === null ? [] : (byCell[sweep.game(index).cell] ?? []);
}

/** How a close went: clean when every running game finished or was handed back in time. */
export interface CloseOutcome {
  clean: boolean;
  /** Games handed back at once because their estimate said they could not finish within the grace. */
  handedBackEarly: number;
}

/** 'lost': the sweep's data is gone from Redis (KeyspaceLostError), nothing was stored. */
export type JobOutcome = 'stored' | 'duplicate' | 'failed' | 'cancelled' | 'paused' | 'unknown-sweep' | 'lost';

/**
 * How long a batch's games play on their thread before they are sent back together (ms): cheap
 * games then cost the queue's thread one message per part, not one per game, and an abort loses
 * at most this much play (those games are played again by whoever takes the batch).
 */
const PART_MS = 100;

/** How long a sweep's status is trusted before it is read again. */
const STATUS_TTL_MS = 1000;

/**
 * How long a job whose results Redis refused for want of memory waits before it is played again
 * (its games were not stored, so they are played again then: deterministic, the same results).
 */
const OOM_RETRY_MS = 5000;

/** At most one log line per this long for each of the refusals below (a full Redis refuses every job). */
const REFUSAL_LOG_MS = 30_000;

/** The estimated CPU seconds of a sweep's games (lab/plan/cost.ts), for close(): a game's depends on its cell's agents only. */
function estimatedSeconds(sweep: Sweep, games: readonly number[]): number {
  const perCell = new Map<number, number>();
  let seconds = 0;
  for (const k of games) {
    const cell = sweep.cellOf(k);
    let cost = perCell.get(cell);
    if (cost === undefined) perCell.set(cell, (cost = gameSeconds(sweep.cells[cell].agents)));
    seconds += cost;
  }
  return seconds;
}

export class GameWorker {
  readonly store: SweepStore;
  readonly pool: GamePool;
  readonly worker: Worker<GameJobData, JobOutcome>;
  private readonly statuses = new Map<string, { status: SweepStatus | undefined; at: number }>();
  private readonly log: Logger;
  private readonly outage: OutageLog;
  /** Running games by job id: when each started and its estimated CPU seconds. */
  private readonly running = new Map<string, { started: number; seconds: number; game: string }>();
  /** What the sweeps record of this worker with each game it stores (host, pid, code version). */
  readonly identity: WorkerIdentity = workerIdentity();
  /** Games this worker finished, by outcome (for logs and tests). */
  readonly counts: Record<JobOutcome, number> = { stored: 0, duplicate: 0, failed: 0, cancelled: 0, paused: 0, 'unknown-sweep': 0, lost: 0 };
  /** Jobs whose results Redis refused for want of memory (for logs and tests). */
  memoryRefusals = 0;
  /** When each kind of refusal was last logged, and how many came since. */
  private readonly refusals = new Map<string, { at: number; since: number }>();
  /** Where this worker reports itself while it runs (the lab's view of its capacity). */
  readonly roster: WorkerRoster;
  readonly rosterEntry: RosterWorker;
  private heartbeat?: NodeJS.Timeout;

  constructor(private readonly options: GameWorkerOptions) {
    this.log = options.logger;
    this.store = new SweepStore(options.redis, options.prefix);
    this.pool = new GamePool(options.slots);
    this.roster = new WorkerRoster(options.redis, this.store.keys);
    this.rosterEntry = { host: this.identity.host, pid: this.identity.pid, slots: options.slots, ...(this.identity.commit ? { commit: this.identity.commit } : {}) };
    this.worker = new Worker<GameJobData, JobOutcome>(options.queueName, (job, token, signal) => this.process(job, token, signal), {
      connection: options.redis,
      prefix: this.store.keys.bullPrefix,
      concurrency: options.slots,
      lockDuration: options.lockDuration,
      stalledInterval: options.stalledInterval,
      maxStalledCount: 1000,
      ...REMOVE_FINISHED,
      autorun: false,
    });
    this.outage = options.outage ?? new OutageLog(this.log, 30_000);
    // An outage makes BullMQ report an error per retry: those go through the outage log.
    this.worker.on('error', (err) => {
      if (isRedisUnavailable(err)) this.outage.error(err, 'queue worker');
      // Redis out of memory refuses BullMQ's every move (taking a job, renewing a lock): one line
      // now and then, not one per retry.
      else if (isOutOfMemory(err)) this.refused('oom-queue', { err: err.message }, 'redis is out of memory: the queue cannot move jobs until memory is freed');
      else this.log.error({ err }, 'queue worker error');
    });
    this.worker.on('failed', (job, err) => this.log.warn({ job: job?.id, attempt: job?.attemptsMade, err: err.message }, 'game attempt failed'));
    this.worker.on('stalled', (id) => this.log.warn({ job: id }, 'job stalled; it goes back to the queue'));
  }

  start(): void {
    void this.worker.run();
    // Reported now and every HEARTBEAT_MS; a report Redis refuses (down, full) is simply late: the
    // outage is logged by the connection's own watcher.
    const report = () => void this.roster.report(this.rosterEntry).catch(() => {});
    report();
    this.heartbeat = setInterval(report, HEARTBEAT_MS).unref();
  }

  /** Logs a refusal the first time, then at most once per REFUSAL_LOG_MS with the count since. */
  private refused(kind: string, fields: Record<string, unknown>, message: string): void {
    const now = Date.now();
    const last = this.refusals.get(kind);
    if (last && now - last.at < REFUSAL_LOG_MS) {
      last.since++;
      return;
    }
    this.log.error({ ...fields, ...(last ? { refusedSinceLastLine: last.since } : {}) }, message);
    this.refusals.set(kind, { at: now, since: 0 });
  }

  private async statusOf(id: string): Promise<SweepStatus | undefined> {
    const now = Date.now();
    const cached = this.statuses.get(id);
    // Only 'running' is trusted from the cache: a resumed sweep must not wait out the TTL.
    if (cached?.status === 'running' && now - cached.at < STATUS_TTL_MS) return cached.status;
    const status = await this.store.reads.status(id);
    this.statuses.set(id, { status, at: now });
    return status;
  }

  /** The job processor (public so tests can deliver a job twice). For a batch, the outcome of its last game. */
  async process(job: Job<GameJobData>, token?: string, signal?: AbortSignal): Promise<JobOutcome> {
    const { s } = job.data;
    try {
      const status = await this.statusOf(s);
      if (job.data.p !== undefined) return await this.playBatch(job, job.data.p, job.data.n, status, token, signal);
      const outcome = await this.play(job, job.data.k, status, token, signal);
      this.counts[outcome]++;
      return outcome;
    } catch (err) {
      if (err instanceof KeyspaceLostError) {
        // Nothing of the sweep can be stored: the job ends here (its queue was most likely lost too).
        this.refused('lost', { sweep: s, job: job.id, err: err.message }, 'the sweep is gone from Redis (its data was lost): the job ends without storing');
        // Counted once a job: a batch's games are not told apart here.
        this.counts.lost++;
        return 'lost';
      }
      if (isOutOfMemory(err) && token) {
        this.memoryRefusals++;
        // Redis refused the results whole (deny-oom): nothing was written. The job waits and is
        // played again, without spending an attempt: a full Redis is no fault of the game. If even
        // the delay is refused, the error goes on: the job's lock then lapses and BullMQ's stalled
        // check gives it back to the queue once memory allows; no game is marked failed.
        await job.moveToDelayed(Date.now() + OOM_RETRY_MS, token).catch(() => {
          throw err;
        });
        this.refused('oom', { sweep: s, job: job.id, retryInMs: OOM_RETRY_MS }, 'redis is out of memory: results not stored, the job waits and plays again');
        throw new DelayedError();
      }
      throw err;
    } finally {
      if (job.id) this.running.delete(job.id);
    }
  }

  private async play(job: Job<GameJobData>, k: number, status: SweepStatus | undefined, token?: string, signal?: AbortSignal): Promise<JobOutcome> {
    const { s } = job.data;
    if (status === undefined) return 'unknown-sweep';
    if (status === 'cancelled') {
      await this.store.ledger.dropOutstanding(s, [k]);
      return 'cancelled';
    }
    if (status === 'paused') {
      // Queued in a race with the pause: back in line behind the cursor, played on resume.
      await this.store.ledger.handBack(s, [k]);
      return 'paused';
    }
    const started = performance.now();
    let loaded;
    let plan;
    let played: PlayedGame;
    try {
      loaded = (await this.store.reads.load(s))!;
      plan = loaded.sweep.game(k);
      this.log.debug({ sweep: s, game: plan.id }, 'game started');
      if (job.id) this.running.set(job.id, { started: Date.now(), seconds: gameSeconds(plan.agents), game: plan.id });
      // Packed on the game's thread, as a batch's games are: only its key and bytes come back.
      played = await this.pool.playMeasured(plan, recordKeeping(loaded.spec), signal, placementOf(loaded.sweep, k, plan));
    } catch (err) {
      if (err instanceof GameAbortedError && token) await this.handBackJob(job, token, { sweep: s, game: plan?.id ?? k }, 'game handed back to the queue');
      const message = err instanceof Error ? err.message : String(err);
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await this.recordFailure(s, k, plan?.id ?? `#${k}`, message);
        this.log.error({ sweep: s, game: plan?.id ?? k, err: message }, 'game failed on every attempt');
        return 'failed';
      }
      throw err;
    }
    const stored = await this.store.ledger.recordResult(loaded, played.summary, Date.now(), { cpuMs: played.cpuMs, worker: this.identity }, played.packed);
    if (stored) await this.countOutside(s, loaded.sweep, [played.summary]);
    this.log.debug({ sweep: s, game: plan.id, ms: Math.round(performance.now() - started), stored }, 'game finished');
    return stored ? 'stored' : 'duplicate';
  }

  /** A game failed on its last attempt: recorded, and if an outside agent's fault, counted against it (agentSuspendAfter). */
  private async recordFailure(s: string, k: number, gameId: string, message: string): Promise<void> {
    const stored = await this.store.ledger.recordFailure(s, k, gameId, message);
    const blamed = BLAMED.exec(message)?.[1];
    if (stored && blamed !== undefined) await this.countFault(s, blamed, message);
  }

  /**
   * Games stored, in play order: an outside agent that played one through starts its failures in
   * a row again; one that forfeited it (fault=forfeit) has one more, since the fault was its own
   * though the game stands: an agent that forfeits every game is suspended as one that fails them.
   */
  private async countOutside(s: string, sweep: LoadedSweep['sweep'], games: readonly GameKey[]): Promise<void> {
    if (!games.some((g) => g.forfeits)) {
      await this.store.ledger.agentsPlayed(s, [...new Set(games.flatMap((g) => outsideAgents(sweep, g.index)))]);
      return;
    }
    for (const g of games) {
      const forfeited = new Map((g.forfeits ?? []).flatMap((f) => {
        const agent = BLAMED.exec(f.reason)?.[1];
        return agent === undefined ? [] : [[agent, f.reason] as const];
      }));
      await this.store.ledger.agentsPlayed(s, outsideAgents(sweep, g.index).filter((a) => !forfeited.has(a)));
      for (const [agent, reason] of forfeited) await this.countFault(s, agent, `forfeited game ${g.id}: ${reason}`);
    }
  }

  /** One more failure in a row of an outside agent in this sweep; at agentSuspendAfter the sweep is suspended. */
  private async countFault(s: string, blamed: string, message: string): Promise<void> {
    const limit = this.options.agentSuspendAfter ?? AGENT_SUSPEND_AFTER;
    const meta = await this.store.reads.meta(s);
    const count = await this.store.ledger.agentFault(s, blamed, message, limit, meta?.priority ?? 1);
    if (count < limit) return;
    // A tune's step: the ledger suspended the tune with it and paused its other steps in flight.
    this.log.warn({ sweep: s, agent: blamed, failures: count }, 'outside agent failed too many games in a row: sweep suspended');
  }

  /** Shutting down: the job goes back to the queue at once instead of waiting to stall. */
  private async handBackJob(job: Job<GameJobData>, token: string, log: Record<string, unknown>, message: string): Promise<never> {
    await job.moveToWait(token);
    this.log.info(log, message);
    throw new WaitingError();
  }

  /**
   * A batch: the games at positions p … p + n − 1 that are still outstanding (a batch delivered
   * again skips the games stored or failed since), played one after another on this job's slot and
   * stored together in one script call (SweepStore.recordParts), each game once. A game that throws
   * stores the games finished before it and fails the attempt, so the retry plays only the rest;
   * on the last attempt it is recorded as failed and the batch goes on. Counts each game's outcome.
   */
  private async playBatch(job: Job<GameJobData>, p: number, n: number, status: SweepStatus | undefined, token?: string, signal?: AbortSignal): Promise<JobOutcome> {
    const { s } = job.data;
    if (status === undefined) return 'unknown-sweep';
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    let loaded;
    try {
      loaded = (await this.store.reads.load(s))!;
    } catch (err) {
      // A spec that no longer expands: on the last attempt every game of the batch has failed.
      if (!lastAttempt) throw err;
      const message = err instanceof Error ? err.message : String(err);
      const meta = await this.store.reads.meta(s);
      const positions = Array.from({ length: Math.max(0, Math.min(n, (meta?.total ?? 0) - p)) }, (_, i) => p + i);
      for (const k of await this.store.reads.stillOutstanding(s, await this.store.reads.indicesAt(s, positions))) {
        await this.recordFailure(s, k, `#${k}`, message);
        this.counts.failed++;
      }
      this.log.error({ sweep: s, position: p, err: message }, 'batch failed on every attempt');
      return 'failed';
    }
    const { sweep } = loaded;
    const positions = Array.from({ length: Math.max(0, Math.min(n, sweep.size - p)) }, (_, i) => p + i);
    const games = await this.store.reads.stillOutstanding(s, positions.map((q) => sweep.indexAt(q)));
    if (status === 'cancelled' || status === 'paused') {
      if (status === 'cancelled') await this.store.ledger.dropOutstanding(s, games);
      else await this.store.ledger.handBack(s, games);
      this.counts[status] += games.length;
      return status;
    }
    if (games.length === 0) return 'duplicate';
    if (job.id) this.running.set(job.id, { started: Date.now(), seconds: estimatedSeconds(sweep, games), game: `${games.length} games from position ${p}` });
    const parts: PlayedPart[] = [];
    /** Stores the games finished so far in one call; returns how many were new. */
    const flush = async () => {
      const taken = parts.splice(0);
      const n = await this.store.ledger.recordParts(loaded, taken, Date.now(), this.identity);
      // A flush that stored nothing new (a batch delivered again) counts nothing: its games were counted when stored.
      if (n > 0) await this.countOutside(s, sweep, taken.flatMap((part) => part.games.map((g) => g.key)));
      return n;
    };
    let stored = 0;
    let attempted = 0;
    let last: JobOutcome = 'stored';
    const ref = { id: s, spec: loaded.specText, schedule: sweep.schedule, models: sweep.models };
    // The games go to one thread as indices; it expands the sweep and sends the games back packed
    // in parts of about PART_MS (GameLane.playSeries). After a thread died without naming the
    // game that killed it, the rest go one game a part, so that the next death names it.
    let rest = games;
    let partMs = PART_MS;
    while (rest.length > 0) {
      let lane: GameLane | undefined;
      let reported = 0;
      try {
        lane = await this.pool.lane(signal);
        await lane.playSeries({ sweep: ref, indices: rest, record: recordKeeping(loaded.spec), partMs }, (part) => {
          parts.push(part);
          reported += part.games.length;
          attempted += part.games.length;
          this.log.debug({ sweep: s, games: part.games.length }, 'games played');
        });
        rest = [];
      } catch (err) {
        if (err instanceof GameAbortedError && token) {
          stored += await flush();
          this.countBatch(stored, attempted);
          await this.handBackJob(job, token, { sweep: s, position: p, games: games.length - attempted }, 'batch handed back to the queue');
        }
        const message = err instanceof Error ? err.message : String(err);
        if (!lastAttempt) {
          stored += await flush();
          this.countBatch(stored, attempted);
          throw err;
        }
        if (!(err instanceof GameFailedError) && partMs > 0) {
          partMs = 0;
          rest = rest.slice(reported);
          continue;
        }
        const k = err instanceof GameFailedError ? err.index : rest[reported];
        const at = rest.indexOf(k);
        // Going on from anywhere else would play games already in `parts` again.
        if (at < reported) throw new Error(`batch at position ${p}: the failed game ${k} is not among the ${rest.length - reported} games not yet reported`);
        const id = sweep.game(k).id;
        // The games played before it are stored first: an outside agent's failures in a row are counted in play order.
        stored += await flush();
        await this.recordFailure(s, k, id, message);
        this.log.error({ sweep: s, game: id, err: message }, 'game failed on every attempt');
        this.counts.failed++;
        last = 'failed';
        rest = rest.slice(at + 1);
      } finally {
        lane?.release();
      }
    }
    stored += await flush();
    this.countBatch(stored, attempted);
    this.log.debug({ sweep: s, position: p, games: games.length, stored }, 'batch finished');
    return attempted > stored ? 'duplicate' : last;
  }

  private countBatch(stored: number, attempted: number): void {
    this.counts.stored += stored;
    this.counts.duplicate += attempted - stored;
  }

  /**
   * Stops taking jobs and lets running games finish; after `graceMs` the games still running are
   * aborted and handed back to the queue, so a scale-down never loses or fails a game. A game whose
   * estimated time (lab/plan/cost.ts) says it cannot finish within the grace is handed back at once:
   * waiting for it would only delay its next start. Closing takes at most `graceMs + closeMs`,
   * Redis reachable or not: when it is not, hand-backs cannot be written, and those games' jobs
   * stall and are replayed by another worker once their locks expire (still counted once).
   */
  async close(graceMs: number, closeMs = 5000): Promise<CloseOutcome> {
    let handedBackEarly = 0;
    const now = Date.now();
    for (const [id, game] of this.running) {
      const remainingMs = game.seconds * 1000 - (now - game.started);
      if (remainingMs > graceMs && this.worker.cancelJob(id, 'shutting down: the game cannot finish within the grace')) {
        handedBackEarly++;
        this.log.info({ job: id, game: game.game, estimatedRemainingMs: Math.round(remainingMs), graceMs }, 'game cannot finish within the grace: handing it back now');
      }
    }
    const closing = this.worker.close();
    const timer = setTimeout(() => this.worker.cancelAllJobs('shutting down'), graceMs);
    let clean: boolean;
    try {
      // With no game running only the closing itself is waited for, and hardly at all while Redis
      // is unreachable (nothing is left to write); running games keep their grace, in case Redis
      // comes back in time to store them.
      const redisUp = this.options.redis.status === 'ready';
      clean = await within(closing, this.running.size > 0 ? graceMs + closeMs : redisUp ? closeMs : Math.min(closeMs, 250));
    } finally {
      clearTimeout(timer);
      await this.pool.close();
    }
    // Stopped on purpose: not capacity lost. Only while Redis answers (an outage must not lengthen
    // the close; the entry then turns silent and is dropped within SILENT_KEEP_MS), and bounded.
    clearInterval(this.heartbeat);
    if (this.options.redis.status === 'ready') await within(this.roster.leave(this.rosterEntry), Math.min(closeMs, 1000));
    // Clean when no game is left behind: a close cut short with nothing running lost nothing.
    if (!clean && this.running.size > 0) this.log.warn({ running: this.running.size }, 'closing the queue worker took too long (Redis unreachable?): its running games will be replayed elsewhere');
    return { clean: clean || this.running.size === 0, handedBackEarly };
  }
}
