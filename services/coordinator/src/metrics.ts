/**
 * Prometheus metrics through prom-client: the process (its default collectors: memory, CPU,
 * event-loop lag, GC, handles), HTTP requests by method, route and status with a latency
 * histogram, and the lab read from Redis at each scrape — queue depth by state, games done and
 * failed (counters), the recent rate, the backlog of unfinished games (what workers scale on),
 * sweeps by status, Redis's memory against maxmemory, whether Redis answers and still holds the
 * lab's data (its epoch), and the workers heard from (store/worker-roster.ts): seen in the last
 * minute with their game slots, and gone silent without stopping (lost capacity). While Redis
 * does not answer, the lab's series are left out of the scrape (absent, not zero: a zero backlog
 * would read as "nothing to do").
 */
import type { Queue } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { SWEEP_STATUSES, memoryShort, type GameJobData, type SweepStore, type WorkerRoster } from '@wonderlab/shared/store';
import type { LabHealth } from './lab-health.js';

const RATE_WINDOW_MS = 60_000;
const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Where autoscalers read the backlog (KEDA's metrics-api trigger in k8s/), and its JSON field. */
export const BACKLOG_ROUTE = '/api/backlog';
export const BACKLOG_FIELD = 'backlog';

/** Samples of the games-done counter, for a rate over the last minute. */
export class RateTracker {
  private samples: { at: number; done: number }[] = [];

  sample(done: number, at = Date.now()): number {
    this.samples.push({ at, done });
    while (this.samples.length > 2 && this.samples[1].at <= at - RATE_WINDOW_MS) this.samples.shift();
    const first = this.samples[0];
    return at > first.at ? ((done - first.done) * 1000) / (at - first.at) : 0;
  }
}

/**
 * The route a request matched, as its pattern ('/api/sweeps/:id'): a label of bounded
 * cardinality whatever paths clients send. Requests no route matched are 'unmatched'.
 */
export function routeLabel(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  return typeof route?.path === 'string' ? `${req.baseUrl}${route.path}` : 'unmatched';
}

export class LabMetrics {
  /** The process and HTTP series: always scraped. */
  private readonly own = new Registry();
  /** The lab's series, read from Redis: scraped only when Redis answered. */
  private readonly lab = new Registry();
  private readonly rate = new RateTracker();
  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly redisUp: Gauge;
  private readonly queueJobs: Gauge<'state'>;
  private readonly done: Counter;
  private readonly failed: Counter;
  private readonly perSecond: Gauge;
  private readonly backlog: Gauge;
  private readonly sweeps: Gauge<'status'>;
  private readonly memoryUsed: Gauge;
  private readonly memoryMax: Gauge;
  private readonly memoryFull: Gauge;
  private readonly dataLost: Gauge;
  private readonly epochStart: Gauge;
  private readonly workersSeen: Gauge;
  private readonly slotsSeen: Gauge;
  private readonly workersSilent: Gauge;

  constructor(
    private readonly store: SweepStore,
    private readonly queue: Queue<GameJobData>,
    /** How long a scrape waits for Redis before leaving the lab's series out. */
    private readonly redisTimeoutMs = 1000,
    /** The coordinator's view of Redis's memory and epoch (without it, the data-loss series are absent). */
    private readonly health?: LabHealth,
    /** The workers heard from (without it, the worker series are absent). */
    private readonly roster?: WorkerRoster,
  ) {
    collectDefaultMetrics({ register: this.own });
    const own = [this.own];
    const lab = [this.lab];
    this.http = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by method, route (the matched pattern) and status: latency, and count (_count).',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: own,
    });
    this.redisUp = new Gauge({ name: 'wonderlab_redis_up', help: 'Whether Redis answered this scrape (1) or not (0; the lab series are then absent).', registers: own });
    this.queueJobs = new Gauge({ name: 'wonderlab_queue_jobs', help: 'Jobs in the games queue, by state.', labelNames: ['state'], registers: lab });
    this.done = new Counter({ name: 'wonderlab_games_done_total', help: 'Games finished and recorded, lab-wide.', registers: lab });
    this.failed = new Counter({ name: 'wonderlab_games_failed_total', help: 'Games that failed every attempt, lab-wide (retry-failed does not take them back).', registers: lab });
    this.perSecond = new Gauge({ name: 'wonderlab_games_per_second', help: 'Games finished per second over the last minute (as seen by this coordinator).', registers: lab });
    this.backlog = new Gauge({ name: 'wonderlab_backlog_games', help: 'Unfinished games of running sweeps (queued or not yet queued).', registers: lab });
    this.sweeps = new Gauge({ name: 'wonderlab_sweeps', help: 'Sweeps by status.', labelNames: ['status'], registers: lab });
    this.memoryUsed = new Gauge({ name: 'wonderlab_redis_memory_used_bytes', help: "Redis's used memory as it counts it against maxmemory.", registers: lab });
    this.memoryMax = new Gauge({ name: 'wonderlab_redis_memory_max_bytes', help: "Redis's maxmemory (0: no limit).", registers: lab });
    this.memoryFull = new Gauge({
      name: 'wonderlab_redis_memory_full',
      help: 'Whether Redis memory is within the headroom of maxmemory (1): no game is queued and no sweep created until it is not; running sweeps show as degraded.',
      registers: lab,
    });
    // Own registry: the state is this coordinator's, known while Redis does not answer too.
    this.dataLost = new Gauge({
      name: 'wonderlab_redis_data_lost',
      help: "Whether the keyspace lost the lab's data (1: its epoch key is missing or changed since this coordinator started; it is then not ready).",
      registers: own,
    });
    const workers = roster ? lab : [];
    this.workersSeen = new Gauge({ name: 'wonderlab_workers_seen', help: 'Workers that reported in the last minute.', registers: workers });
    this.slotsSeen = new Gauge({ name: 'wonderlab_worker_slots_seen', help: 'Game slots (games played at once) of the workers that reported in the last minute.', registers: workers });
    this.workersSilent = new Gauge({
      name: 'wonderlab_workers_silent',
      help: 'Workers silent for more than a minute (up to an hour) that never said they stopped: killed, crashed or cut off from Redis. Capacity lost.',
      registers: workers,
    });
    this.epochStart = new Gauge({ name: 'wonderlab_redis_epoch_start_seconds', help: 'When the keyspace epoch this coordinator works in was created (a change means a new, empty keyspace).', registers: own });
  }

  /** Express middleware: times every request and counts it by method, route and status. */
  observe() {
    return (req: Request, res: Response, next: NextFunction) => {
      const end = this.http.startTimer();
      res.once('finish', () => end({ method: METHODS.has(req.method) ? req.method : 'other', route: routeLabel(req), status: String(res.statusCode) }));
      next();
    };
  }

  get contentType(): string {
    return this.own.contentType;
  }

  /** The scrape: the lab's series too when Redis answers within the bound. */
  async text(): Promise<string> {
    const fresh = this.store.isReady() && (await this.refresh().then(() => true, () => false));
    this.redisUp.set(fresh ? 1 : 0);
    if (this.health?.epoch !== undefined) {
      this.dataLost.set(this.health.lost ? 1 : 0);
      const start = this.health.epochStartSeconds();
      if (start !== undefined) this.epochStart.set(start);
    }
    const own = await this.own.metrics();
    return fresh ? own + (await this.lab.metrics()) : own;
  }

  private async refresh(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('redis too slow for a scrape')), this.redisTimeoutMs)));
    try {
      const [counts, counters, backlog, statuses, memory, roster] = await Promise.race([
        Promise.all([this.queue.getJobCounts(...QUEUE_STATES), this.store.reads.gameCounters(), this.store.reads.backlog(), this.store.reads.statusCounts(), this.store.memory(), this.roster?.read()]),
        late,
      ]);
      if (roster) {
        this.workersSeen.set(roster.seen.length);
        this.slotsSeen.set(roster.seen.reduce((sum, w) => sum + w.slots, 0));
        this.workersSilent.set(roster.silent.length);
      }
      for (const state of QUEUE_STATES) this.queueJobs.set({ state }, counts[state] ?? 0);
      // Counters mirror Redis's lab-wide counts: set by difference, so they only grow.
      this.done.inc(Math.max(0, counters.done - (await this.done.get()).values[0].value));
      this.failed.inc(Math.max(0, counters.failed - (await this.failed.get()).values[0].value));
      this.perSecond.set(this.rate.sample(counters.done));
      this.backlog.set(backlog);
      for (const status of SWEEP_STATUSES) this.sweeps.set({ status }, statuses[status]);
      // Unknown when Redis does not let the lab read INFO: then not reported at all.
      if (memory) {
        this.memoryUsed.set(memory.used);
        this.memoryMax.set(memory.max);
        this.memoryFull.set(memoryShort(memory) ? 1 : 0);
      }
    } finally {
      clearTimeout(timer);
    }
  }
}
