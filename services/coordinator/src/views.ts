/** What the API returns for a sweep: its state and counts, and (in detail) its aggregates. */
import type { CellAggregate } from '@wonderlab/shared';
import type { SweepMeta, SweepStore } from '@wonderlab/shared/store';

export interface SweepCounts {
  total: number;
  done: number;
  failed: number;
  /** In the queue now (waiting or being played). */
  queued: number;
  /** Not yet handed to the queue. */
  pending: number;
}

export interface SweepOverview {
  id: string;
  name: string;
  status: SweepMeta['status'];
  priority: number;
  created: string;
  counts: SweepCounts;
  /** Finished share of the games, 0 to 1. */
  progress: number;
  /** Mean rate since the first game finished. */
  gamesPerSecond: number;
  /** Seconds to go at that rate (null when unknown or finished). */
  etaSeconds: number | null;
}

export interface SweepDetail extends SweepOverview {
  spec: SweepMeta['spec'];
  gamesPerCell: number;
  cells: CellAggregate[];
}

export async function sweepOverview(store: SweepStore, meta: SweepMeta, now = Date.now()): Promise<SweepOverview> {
  const k = store.keys.sweep(meta.id);
  const [queued, requeued] = await Promise.all([store.redis.scard(k.out), store.redis.llen(k.requeue)]);
  const finished = meta.done + meta.failed;
  const pending = Math.max(0, meta.total - meta.cursor) + requeued;
  const end = meta.status === 'running' ? now : (meta.lastDone ?? now);
  const seconds = meta.firstDone !== undefined ? (end - meta.firstDone) / 1000 : 0;
  // The first game's own time is not in the span: count the games after it.
  const gamesPerSecond = seconds > 0 && meta.done > 1 ? (meta.done - 1) / seconds : 0;
  const remaining = meta.total - finished;
  return {
    id: meta.id,
    name: meta.name,
    status: meta.status,
    priority: meta.priority,
    created: new Date(meta.created).toISOString(),
    counts: { total: meta.total, done: meta.done, failed: meta.failed, queued, pending },
    progress: meta.total ? finished / meta.total : 1,
    gamesPerSecond,
    etaSeconds: meta.status === 'running' && gamesPerSecond > 0 ? remaining / gamesPerSecond : null,
  };
}

export async function sweepDetail(store: SweepStore, meta: SweepMeta): Promise<SweepDetail> {
  const loaded = (await store.load(meta.id))!;
  const [overview, cells] = await Promise.all([sweepOverview(store, meta), store.aggregates(loaded)]);
  return { ...overview, spec: meta.spec, gamesPerCell: loaded.sweep.gamesPerCell, cells };
}
