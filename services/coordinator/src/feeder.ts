/**
 * Feeds the queue lazily: each running sweep keeps at most `window` games in the queue, taken
 * from its saved cursor (after any games handed back), so a sweep of a million games costs the
 * heap and Redis no more than a sweep of a few thousand. One coordinator feeds at a time (a
 * Redis lock); if a coordinator dies between claiming games and queueing them, the next
 * reconciliation finds the claimed games without jobs and queues them.
 */
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { bullPriority, jobId, type GameJobData, type SweepStore } from '@wonderlab/shared/store';

export interface FeederOptions {
  store: SweepStore;
  queue: Queue<GameJobData>;
  window: number;
  intervalMs: number;
  logger: Logger;
  /** Ticks between reconciliations of claimed games with the queue's jobs. */
  reconcileEvery?: number;
}

export class Feeder {
  private readonly owner = randomUUID();
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private ticks = 0;
  private stopped = true;

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
    await this.o.store.releaseFeederLock(this.owner);
  }

  /** One round: every running sweep topped up to its window. Returns the games queued. */
  tick(): Promise<number> {
    if (this.running) return this.running;
    this.running = this.round().finally(() => (this.running = undefined));
    return this.running;
  }

  private async round(): Promise<number> {
    const { store } = this.o;
    if (!(await store.holdFeederLock(this.owner, Math.max(10_000, this.o.intervalMs * 20)))) return 0;
    const reconcile = this.ticks++ % (this.o.reconcileEvery ?? 40) === 0;
    let queued = 0;
    for (const id of await store.activeIds()) {
      if (reconcile) queued += await this.reconcile(id);
      queued += await this.feed(id);
    }
    return queued;
  }

  private async enqueue(id: string, indices: readonly number[]): Promise<void> {
    const meta = await this.o.store.meta(id);
    const priority = bullPriority(meta?.priority ?? 1);
    // Chunks go out two at a time, so that building one overlaps with Redis running the other.
    const CHUNK = 2500;
    const chunks: number[][] = [];
    for (let i = 0; i < indices.length; i += CHUNK) chunks.push(indices.slice(i, i + CHUNK));
    const send = async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
        await this.o.queue.addBulk(chunk.map((k) => ({ name: 'game', data: { s: id, k }, opts: { jobId: jobId(id, k), ...priority } })));
      }
    };
    await Promise.all([send(), send()]);
  }

  /** Claims up to the window of games and queues them; returns how many. */
  async feed(id: string, window = this.o.window): Promise<number> {
    const indices = await this.o.store.claim(id, window);
    if (indices.length === 0) return 0;
    await this.enqueue(id, indices);
    // A pause or cancel between the claim and the queueing found no jobs to take back: take
    // them back now.
    const status = await this.o.store.status(id);
    if (status !== 'running') await this.takeBack(id, status === 'cancelled' ? 'drop' : 'requeue');
    return indices.length;
  }

  /**
   * Takes a sweep's waiting jobs off the queue (running games finish) and either puts their games
   * back in line behind the cursor (a pause) or forgets them (a cancel). Returns how many.
   */
  async takeBack(id: string, mode: 'requeue' | 'drop'): Promise<number> {
    const { store, queue } = this.o;
    const removed: number[] = [];
    for (const k of await store.outstanding(id)) {
      if ((await queue.remove(jobId(id, k))) === 1) removed.push(k);
    }
    if (mode === 'requeue') await store.handBack(id, removed);
    else await store.dropOutstanding(id, removed);
    return removed.length;
  }

  /** Queues claimed games that have no job (lost between claim and queueing). */
  async reconcile(id: string): Promise<number> {
    const { store, queue } = this.o;
    const outstanding = await store.outstanding(id);
    if (outstanding.length === 0) return 0;
    const missingIds = new Set(await store.missingJobs(queue.qualifiedName, outstanding.map((k) => jobId(id, k))));
    const missing = outstanding.filter((k) => missingIds.has(jobId(id, k)));
    if (missing.length) {
      this.o.logger.warn({ sweep: id, games: missing.length }, 'claimed games had no job; queueing them again');
      await this.enqueue(id, missing);
    }
    return missing.length;
  }
}
