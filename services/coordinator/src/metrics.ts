/**
 * Prometheus metrics: queue depth by state, games finished (a counter) and the recent rate,
 * the backlog of unfinished games in running sweeps (what workers should scale on), sweeps by
 * status.
 */
import type { Queue } from 'bullmq';
import { SWEEP_STATUSES, type GameJobData, type SweepStore } from '@wonderlab/shared/store';

const RATE_WINDOW_MS = 60_000;

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

/** Unfinished games of running sweeps: queued plus not yet queued. */
export async function backlog(store: SweepStore): Promise<number> {
  let sum = 0;
  for (const id of await store.activeIds()) {
    const meta = await store.meta(id);
    if (meta) sum += meta.total - meta.done - meta.failed;
  }
  return sum;
}

export async function prometheusText(store: SweepStore, queue: Queue<GameJobData>, rate: RateTracker): Promise<string> {
  const counts = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
  const done = await store.gamesDone();
  const perSecond = rate.sample(done);
  const sweeps = await store.list();
  const lines = [
    '# HELP wonderlab_queue_jobs Jobs in the games queue, by state.',
    '# TYPE wonderlab_queue_jobs gauge',
    ...Object.entries(counts).map(([state, n]) => `wonderlab_queue_jobs{state="${state}"} ${n}`),
    '# HELP wonderlab_games_done_total Games finished and recorded.',
    '# TYPE wonderlab_games_done_total counter',
    `wonderlab_games_done_total ${done}`,
    '# HELP wonderlab_games_per_second Games finished per second over the last minute (as seen by this coordinator).',
    '# TYPE wonderlab_games_per_second gauge',
    `wonderlab_games_per_second ${perSecond.toFixed(3)}`,
    '# HELP wonderlab_backlog_games Unfinished games of running sweeps (queued or not yet queued).',
    '# TYPE wonderlab_backlog_games gauge',
    `wonderlab_backlog_games ${await backlog(store)}`,
    '# HELP wonderlab_sweeps Sweeps by status.',
    '# TYPE wonderlab_sweeps gauge',
    ...SWEEP_STATUSES.map((s) => `wonderlab_sweeps{status="${s}"} ${sweeps.filter((x) => x.status === s).length}`),
  ];
  return lines.join('\n') + '\n';
}
