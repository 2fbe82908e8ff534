/**
 * Feeds the queue lazily: each running sweep keeps at most `window` games in the queue, taken
 * from its saved cursor (after any games handed back), so a sweep of a million games costs the
 * heap and Redis no more than a sweep of a few thousand. One coordinator feeds at a time (a
 * Redis lock); if a coordinator dies between claiming games and queueing them, the next
 * reconciliation finds the claimed games without jobs and queues them.
 *
 * Sweeps of one priority share the workers round-robin (see shares()): BullMQ serves jobs of one
 * priority first in, first out, so whatever is queued ahead of a new sweep is played before it.
 */
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { CellStopper, RaceStopper, sprtBounds, type CellStop, type Sweep } from '@wonderlab/shared';
import type { TuneDriver } from './tune-driver.js';
import { batchJobId, bullPriority, jobId, type GameJobData, type SweepMeta, type SweepStore } from '@wonderlab/shared/store';

export interface FeederOptions {
  store: SweepStore;
  queue: Queue<GameJobData>;
  window: number;
  intervalMs: number;
  logger: Logger;
  /** Ticks between reconciliations of claimed games with the queue's jobs. */
  reconcileEvery?: number;
  /**
   * Why no game may be queued now (Redis memory within its headroom, the keyspace's data lost),
   * or undefined: the round is skipped, and resumes by itself once the reason is gone.
   */
  gate?: () => string | undefined;
  /**
   * Makes the confirmation sweep of a racing tune that has decided (its spec's tune.confirm), and
   * returns its id; called once per tune (the link is stored with both sweeps).
   */
  confirm?: (tune: SweepMeta, recommendation: string) => Promise<string>;
  /** Drives SPSA and NTBEA tunes: makes their steps' sweeps from their results (tune-driver.ts). */
  tunes?: TuneDriver;
}

/** Jobs kept waiting per priority even when no slot is busy (a fresh lab): the budget doubles from there each round as slots take them. */
const MIN_WAITING = 2;

export class Feeder {
  private readonly owner = randomUUID();
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private ticks = 0;
  /** Stopping sweeps' cell tests, kept between rounds (rebuilt from the results after a restart). */
  private readonly stoppers = new Map<string, CellStopper[]>();
  /** Racing tunes' races, kept between rounds (rebuilt from the results after a restart). */
  private readonly races = new Map<string, RaceStopper>();
  private stopped = true;
  /** Each running sweep's games finished (played or failed) at the last round, to count the jobs finished since. */
  private readonly finishedAt = new Map<string, number>();

  constructor(private readonly o: FeederOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.tick()
        .catch((err) => this.o.logger.error({ err }, 'feeding the queue failed'))
        .finally(() => this.schedule(this.o.intervalMs));
    }, ms);
  }

  /** Feeds at once (a sweep was created or resumed). */
  kick(): void {
    if (!this.stopped && !this.running) this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => 0);
    await this.o.store.ledger.releaseFeederLock(this.owner);
  }

  /** One round: every running sweep topped up to its window. Returns the games queued. */
  tick(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Forgets what was learned of the sweeps (the keyspace lost its data: they are gone). */
  reset(): void {
    this.stoppers.clear();
    this.races.clear();
    this.o.tunes?.reset();
  }

  private async round(): Promise<number> {
    const { store } = this.o;
    if (this.o.gate?.()) return 0;
    if (!(await store.ledger.holdFeederLock(this.owner, Math.max(10_000, this.o.intervalMs * 20)))) {
      // Another coordinator feeds: what this one held of the tunes may be stale when the lock comes back.
      this.o.tunes?.reset();
      return 0;
    }
    const reconcile = this.ticks++ % (this.o.reconcileEvery ?? 40) === 0;
    let queued = 0;
    const active = await store.reads.activeIds();
    // Sweeps with a stopping rule: their cells are checked after every round (and once more after
    // the sweep ends, for the games that finished last), and decided cells are fed no more.
    for (const id of new Set([...active, ...this.stoppers.keys(), ...this.races.keys()])) await this.checkStops(id);
    const shares = await this.shares(active);
    for (const id of active) {
      if (reconcile) queued += await this.reconcile(id);
      queued += await this.feed(id, shares.get(id) ?? 0);
    }
    return queued;
  }

  /**
   * Each running sweep's window this round, in games. BullMQ plays jobs of one priority first in,
   * first out, so a sweep started behind another waits for every job queued ahead of it: the
   * queue is kept short instead, to a budget of jobs that is the jobs being played (`busy`: the
   * queue's active jobs, one per busy worker slot of any worker) plus as many waiting, or twice
   * the jobs finished since the last round when jobs are shorter than a round (so that no slot
   * idles between rounds), at least MIN_WAITING. The highest priority takes the budget first,
   * in equal shares of jobs among its sweeps with games left to queue (each at most windowOf());
   * what they cannot use goes to the next priority, so a lower priority is fed only for slots the
   * higher ones leave idle. A sweep started behind another of its priority then waits about one
   * batch time (or two rounds, with short jobs), not for the other's whole window, and the sweeps
   * take turns, each round appending its refills. Everything is read from Redis each round (a
   * restarted coordinator's first round counts no finished jobs: it feeds on `busy`).
   */
  private async shares(ids: readonly string[]): Promise<Map<string, number>> {
    const { store, queue } = this.o;
    const busy = await queue.getActiveCount();
    const metas = (await Promise.all(ids.map((id) => store.reads.meta(id)))).filter((m): m is SweepMeta => m?.status === 'running');
    let finishedJobs = 0;
    for (const m of metas) {
      const finished = m.done + m.failed;
      const before = this.finishedAt.get(m.id);
      if (before !== undefined) finishedJobs += Math.max(0, finished - before) / m.batch;
      this.finishedAt.set(m.id, finished);
    }
    for (const id of this.finishedAt.keys()) if (!metas.some((m) => m.id === id)) this.finishedAt.delete(id);
    let left = Math.ceil(busy + Math.max(busy, 2 * finishedJobs, MIN_WAITING));
    const shares = new Map<string, number>();
    for (const priority of [...new Set(metas.map((m) => m.priority))].sort((a, b) => a - b)) {
      if (left <= 0) break;
      // A sweep with nothing left to queue takes no share (its last jobs still count in `busy`).
      const feeding: SweepMeta[] = [];
      for (const m of metas) if (m.priority === priority && (m.cursor < m.total || (await store.reads.queueState(m.id)).handedBack > 0)) feeding.push(m);
      const each = Math.ceil(left / Math.max(1, feeding.length));
      for (const m of feeding) {
        const games = Math.min(await this.windowOf(m.id, m.batch), each * m.batch);
        shares.set(m.id, games);
        left -= Math.ceil(games / m.batch);
      }
    }
    return shares;
  }

  /**
   * The most games a sweep keeps in the queue: FEED_WINDOW, at least eight batches (so that a
   * window smaller than a few batches cannot starve the workers); stopping sweeps are fed a few
   * rounds of every cell ahead, so that a decided cell wastes few games.
   */
  private async windowOf(id: string, batch: number): Promise<number> {
    const loaded = await this.o.store.reads.load(id);
    if (!loaded?.spec.stop && !loaded?.spec.tune) return Math.max(this.o.window, 8 * batch);
    return Math.min(this.o.window, 4 * loaded.sweep.cells.length * loaded.sweep.ordersPerDeal);
  }

  /** Each cell's stopping rule over its recorded games in play order; a decision is saved at once. */
  private async checkStops(id: string): Promise<void> {
    const { store } = this.o;
    const loaded = await store.reads.load(id);
    if (loaded?.spec.tune?.method === 'racing') return this.checkRace(id, loaded.sweep);
    if (loaded?.spec.tune) {
      const meta = await store.reads.meta(id);
      if (meta) await this.o.tunes?.check(meta);
      return;
    }
    const rule = loaded?.spec.stop;
    if (!loaded || !rule) return;
    const { sweep } = loaded;
    let stoppers = this.stoppers.get(id);
    if (!stoppers) this.stoppers.set(id, (stoppers = sweep.cells.map((_, cell) => new CellStopper(sweep, cell, rule))));
    // Read before the check: a sweep seen ended here has every result in, so this check is its last.
    const status = await store.reads.status(id);
    const bounds = 'sprt' in rule ? (Object.values(sprtBounds(rule.sprt.alpha, rule.sprt.beta)) as [number, number]) : undefined;
    for (const stopper of stoppers) {
      if (stopper.test.state.decision) continue;
      const before = stopper.evaluated;
      for (let next = stopper.nextGames(500); next.length; next = stopper.nextGames(500)) {
        const from = stopper.evaluated;
        stopper.feed(await store.reads.results(id, next.map((k) => sweep.game(k).id)));
        if (stopper.test.state.decision || stopper.evaluated - from < next.length) break;
      }
      if (stopper.evaluated !== before || stopper.test.state.decision) {
        await store.ledger.saveStop(id, stopper.cell, stopper.report(bounds));
        if (stopper.test.state.decision) this.o.logger.info({ sweep: id, cell: stopper.cell, decision: stopper.test.state.decision, games: stopper.evaluated }, 'cell decided by its stopping rule');
      }
    }
    if (stoppers.every((s) => s.test.state.decision) || (status !== 'running' && status !== 'paused')) this.stoppers.delete(id);
  }

  /**
   * A racing tune's race over its recorded games in play order (lab/plan/race.ts): the looks now
   * possible, the arms that left saved as stopped (the claim skips their games), and once it has
   * decided, every arm stopped and the recommendation's confirmation made.
   */
  private async checkRace(id: string, sweep: Sweep): Promise<void> {
    const { store } = this.o;
    const tune = sweep.spec.tune;
    if (tune?.method !== 'racing') return;
    let race = this.races.get(id);
    if (!race) this.races.set(id, (race = new RaceStopper(sweep, { seat: tune.seat, against: tune.against, delta: tune.delta, epsilon: tune.epsilon, roundDeals: tune.roundDeals })));
    const status = await store.reads.status(id);
    const wasDecided = race.decided;
    let read = false;
    for (let cell = 0; cell < sweep.cells.length; cell++) {
      if (!race.alive(cell)) continue;
      for (let next = race.nextGames(cell, 500); next.length; next = race.nextGames(cell, 500)) {
        const results = await store.reads.results(id, next.map((k) => sweep.game(k).id));
        race.feed(cell, results);
        read = true;
        if (results.some((r) => !r)) break;
      }
    }
    const looked = race.lookAll();
    if (looked || (read && race.decided !== wasDecided) || (race.decided && !wasDecided)) {
      const report = race.report();
      const arms = new Map<number, CellStop>();
      report.arms.forEach((arm) => {
        const decision = report.decided ? (arm.cell === report.decided.cell ? 'won' : arm.alive ? 'raced' : 'out') : arm.alive ? undefined : 'out';
        arms.set(arm.cell, { rule: 'race', games: arm.deals * sweep.ordersPerDeal, value: arm.mean, trace: [], ...(decision ? { decision } : {}) });
      });
      await store.ledger.saveRace(id, report, arms);
      if (report.decided) this.o.logger.info({ sweep: id, arm: report.decided.agent, by: report.decided.by, looks: report.looks }, 'race decided');
    }
    const meta = await store.reads.meta(id);
    const decided = race.report().decided;
    if (decided && tune.confirm && meta && !meta.confirmation && !meta.confirmationError && this.o.confirm) {
      try {
        const confirmation = await this.o.confirm(meta, decided.agent);
        await store.ledger.linkConfirmation(id, confirmation);
        this.o.logger.info({ sweep: id, confirmation, recommendation: decided.agent }, 'tune confirmation created');
      } catch (err) {
        // A confirmation the lab refuses (its limits changed since the tune was submitted): said once, with the tune.
        if ((err as Error).name !== 'SweepSpecError') throw err;
        await store.ledger.saveConfirmationError(id, (err as Error).message);
        this.o.logger.warn({ sweep: id, err }, 'tune confirmation refused');
      }
    }
    // A decided race is kept (it reads nothing more) until the sweep's last games are in.
    if (status !== 'running' && status !== 'paused') this.races.delete(id);
  }

  /** Queues single-game jobs and batch jobs (positions p … p + n − 1) of a sweep. */
  private async enqueue(id: string, indices: readonly number[], batches: readonly { p: number; n: number }[] = []): Promise<void> {
    const meta = await this.o.store.reads.meta(id);
    const priority = bullPriority(meta?.priority ?? 1);
    const jobs = [
      ...batches.map(({ p, n }) => ({ name: 'games', data: { s: id, p, n }, opts: { jobId: batchJobId(id, p), ...priority } })),
      ...indices.map((k) => ({ name: 'game', data: { s: id, k }, opts: { jobId: jobId(id, k), ...priority } })),
    ];
    // Chunks go out two at a time, so that building one overlaps with Redis running the other.
    const CHUNK = 2500;
    const chunks: (typeof jobs)[] = [];
    for (let i = 0; i < jobs.length; i += CHUNK) chunks.push(jobs.slice(i, i + CHUNK));
    const send = async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) await this.o.queue.addBulk(chunk as Parameters<Queue<GameJobData>['addBulk']>[0]);
    };
    await Promise.all([send(), send()]);
  }

  /** Claims up to the window of games and queues them; returns how many games. */
  async feed(id: string, window = this.o.window): Promise<number> {
    const { singles, batches } = await this.o.store.ledger.claimJobs(id, window);
    const games = singles.length + batches.reduce((sum, b) => sum + b.n, 0);
    if (games === 0) return 0;
    try {
      await this.enqueue(id, singles, batches);
    } catch (err) {
      // Redis refused some jobs (out of memory): the games claimed for them would stay
      // "queued" with no job until a reconciliation. Take them back now, exactly those.
      const back = await this.unclaim(id, singles, batches).catch((undoErr) => {
        this.o.logger.error({ sweep: id, err: undoErr }, 'taking back claimed games after a failed enqueue failed (the reconciliation will queue them)');
        return undefined;
      });
      if (back !== undefined) this.o.logger.warn({ sweep: id, games, takenBack: back, err: (err as Error).message }, 'queueing claimed games failed; the games without a job were taken back');
      throw err;
    }
    // A pause or cancel between the claim and the queueing found no jobs to take back: take
    // them back now.
    const status = await this.o.store.reads.status(id);
    if (status !== 'running') await this.takeBack(id, status === 'cancelled' ? 'drop' : 'requeue');
    return games;
  }

  /**
   * Takes back the games of a claim whose jobs do not exist (addBulk failed part-way). The batches
   * at the end of the claim with no job go back behind the cursor (UNCLAIM rolls the cursor back,
   * so they are queued again as batches); single games and batches in between with no job go back
   * in line one by one. A job that exists is left alone (it may be running); a job that ran and is
   * gone already took its games out of the outstanding set, and the scripts only move games still
   * in it. Returns how many games were taken back.
   */
  private async unclaim(id: string, singles: readonly number[], batches: readonly { p: number; n: number }[]): Promise<number> {
    const { store, queue } = this.o;
    const missing = new Set(await store.reads.missingJobs(queue.qualifiedName, [...singles.map((k) => jobId(id, k)), ...batches.map((b) => batchJobId(id, b.p))]));
    let cut = batches.length;
    while (cut > 0 && missing.has(batchJobId(id, batches[cut - 1].p))) cut--;
    const positions = (list: readonly { p: number; n: number }[]) => list.flatMap(({ p, n }) => Array.from({ length: n }, (_, i) => p + i));
    const loose = [...singles.filter((k) => missing.has(jobId(id, k))), ...(await store.reads.indicesAt(id, positions(batches.slice(0, cut).filter((b) => missing.has(batchJobId(id, b.p))))))];
    let back = await store.ledger.handBack(id, loose);
    if (cut < batches.length) {
      const last = batches[batches.length - 1];
      back += await store.ledger.unclaim(id, await store.reads.indicesAt(id, positions(batches.slice(cut))), batches[cut].p, last.p + last.n);
    }
    return back;
  }

  /**
   * The queue jobs an outstanding game may be in: its own (handed back games, sweeps of batch 1)
   * and, in a batched sweep, its batch's.
   */
  private async jobsOf(id: string, outstanding: readonly number[]): Promise<{ single: Map<number, string>; batch: Map<number, string> }> {
    const single = new Map(outstanding.map((k) => [k, jobId(id, k)]));
    const batch = new Map<number, string>();
    const meta = await this.o.store.reads.meta(id);
    if (meta && meta.batch > 1) {
      const { sweep } = (await this.o.store.reads.load(id))!;
      for (const k of outstanding) batch.set(k, batchJobId(id, Math.floor(sweep.positionOf(k) / meta.batch) * meta.batch));
    }
    return { single, batch };
  }

  /**
   * Takes a sweep's waiting jobs off the queue (running games finish) and either puts their games
   * back in line behind the cursor (a pause) or forgets them (a cancel). Returns how many games.
   * BullMQ's remove answers 1 for a job that does not exist too, so which job holds a game is
   * read first: its batch's job when that exists, else its own; a game with neither (claimed, not
   * yet queued) is taken back as it is.
   */
  async takeBack(id: string, mode: 'requeue' | 'drop'): Promise<number> {
    const { store, queue } = this.o;
    const outstanding = await store.reads.outstanding(id);
    const { single, batch } = await this.jobsOf(id, outstanding);
    const missing = new Set(await store.reads.missingJobs(queue.qualifiedName, [...new Set(batch.values())]));
    const removedBatches = new Map<string, boolean>();
    const removed: number[] = [];
    for (const k of outstanding) {
      const inBatch = batch.get(k);
      let taken: boolean;
      if (inBatch !== undefined && !missing.has(inBatch)) {
        if (!removedBatches.has(inBatch)) removedBatches.set(inBatch, (await queue.remove(inBatch)) === 1);
        taken = removedBatches.get(inBatch)!;
      } else {
        taken = (await queue.remove(single.get(k)!)) === 1;
      }
      if (taken) removed.push(k);
    }
    if (mode === 'requeue') await store.ledger.handBack(id, removed);
    else await store.ledger.dropOutstanding(id, removed);
    return removed.length;
  }

  /** Queues claimed games that have no job (lost between claim and queueing), each as a job of its own. */
  async reconcile(id: string): Promise<number> {
    const { store, queue } = this.o;
    const outstanding = await store.reads.outstanding(id);
    if (outstanding.length === 0) return 0;
    const { single, batch } = await this.jobsOf(id, outstanding);
    const candidates = [...new Set([...single.values(), ...batch.values()])];
    const missingIds = new Set(await store.reads.missingJobs(queue.qualifiedName, candidates));
    // Read again after the jobs: a job that finished since the first read stored its games before
    // it left the queue, so only the games still outstanding now are lost (without this, a batch
    // finishing in between was queued again game by game, and every game of it played twice).
    const still = new Set(await store.reads.outstanding(id));
    const missing = outstanding.filter((k) => still.has(k) && missingIds.has(single.get(k)!) && (!batch.has(k) || missingIds.has(batch.get(k)!)));
    if (missing.length) {
      this.o.logger.warn({ sweep: id, games: missing.length }, 'claimed games had no job; queueing them again');
      await this.enqueue(id, missing);
    }
    return missing.length;
  }
}
