/** What the API returns for a sweep: its state and counts, and (in detail) its aggregates. */
import {
  displayNames,
  indexValues,
  replayTune,
  steppedTune,
  throughput,
  tuneRecommendation,
  tuneSpace,
  unitValues,
  type CodeVersion,
  type OutsideAgentRecord,
  type RaceReport,
  type StepRecord,
  type SweepStatistics as SweepStatisticsFields,
  type WorkerIdentity,
} from '@wonderlab/shared';
import type { StatisticsAsOf, SweepStatistics } from './statistics.js';
import { memoryShort, type LoadedSweep, type SweepMeta, type SweepStore } from '@wonderlab/shared/store';

export interface SweepCounts {
  total: number;
  done: number;
  failed: number;
  /** In the queue now (waiting or being played). */
  queued: number;
  /** Not yet handed to the queue. */
  pending: number;
  /** Never to be played: their cell's stopping rule decided first (spec.stop). */
  skipped: number;
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
  /** While running: the recent rate (last 5 minutes of running time); once finished: over its whole running time. Paused time never counts. */
  gamesPerSecond: number;
  /** Seconds to go at that rate (null when not running, or before a rate is known). */
  etaSeconds: number | null;
  /** Seconds the sweep has spent running (paused time not counted). */
  activeSeconds: number;
  /** The order its games are queued in: interleaved across cells deal by deal (sequential: sweeps stored before it, schema.ts). */
  schedule: SweepMeta['schedule'];
  /** Positions of its order per queue job (1: a job per game). */
  batch: number;
  /** When the first and the latest game finished (ISO 8601; null before the first). */
  firstGameAt: string | null;
  lastGameAt: string | null;
  /**
   * Why a running sweep makes no progress now although it is running — Redis out of memory: no new
   * game is queued and results may be refused; it resumes by itself once memory is free — or null.
   */
  degraded: string | null;
  /** Why the lab paused it itself: an outside agent failed AGENT_SUSPEND_AFTER games in a row (resume clears it), or null. */
  suspended: string | null;
}

/** One cell's share of the games: its total and how many are done, failed and in the queue. */
export interface CellProgress {
  index: number;
  total: number;
  done: number;
  failed: number;
  queued: number;
}

/** How the sweep was made: the code that created it, its times, CPU and the workers that played it. */
export interface Provenance {
  code: CodeVersion | null;
  /** The models its agents name, each with the sha256 of the file checked at submit (absent where none is named). */
  models?: Record<string, string>;
  /** The outside agents its seats name, as installed at submit: manifest, files' sha256 and count (absent where none is named). */
  agents?: Record<string, OutsideAgentRecord>;
  created: string;
  startedAt: string | null;
  finishedAt: string | null;
  wallSeconds: number | null;
  activeSeconds: number;
  cpuSeconds: number | null;
  workers: (WorkerIdentity & { games: number })[];
}

/** A sweep's state with its statistics (sweepStatistics: the page of cells, and every agent pooled over all cells). */
export interface SweepDetail extends SweepOverview, SweepStatisticsFields {
  spec: SweepMeta['spec'];
  provenance: Provenance;
  gamesPerCell: number;
  /** Cells of the sweep; `cells` is the page from cellOffset on. */
  cellCount: number;
  cellOffset: number;
  /** Every cell's progress (not only the page's). */
  cellProgress: CellProgress[];
  /** Every agent spec of the sweep as submitted, with the one name it is shown by (its canonical form). */
  names: Record<string, string>;
  /** Which games the statistics (cells, pooled, parameters, head to head, ratings) are of: computed apart, they may lag the counts. */
  statisticsAsOf: StatisticsAsOf;
}

/** A page of cells: the detail of a sweep of many cells would otherwise be megabytes. */
export interface CellPage {
  offset: number;
  limit: number;
}

export async function sweepOverview(store: SweepStore, meta: SweepMeta, now = Date.now()): Promise<SweepOverview> {
  const [{ queued, handedBack }, ring, memory] = await Promise.all([store.reads.queueState(meta.id), store.reads.rateRing(meta.id), store.memory()]);
  const finished = meta.done + meta.failed + meta.skipped;
  const pending = Math.max(0, meta.total - meta.cursor) + handedBack;
  const rate = throughput(meta, ring, now);
  return {
    id: meta.id,
    name: meta.name,
    status: meta.status,
    priority: meta.priority,
    created: new Date(meta.created).toISOString(),
    counts: { total: meta.total, done: meta.done, failed: meta.failed, queued, pending, skipped: meta.skipped },
    progress: meta.total ? finished / meta.total : 1,
    gamesPerSecond: rate.gamesPerSecond,
    etaSeconds: rate.etaSeconds,
    activeSeconds: rate.activeSeconds,
    schedule: meta.schedule,
    batch: meta.batch,
    firstGameAt: meta.firstDone !== undefined ? new Date(meta.firstDone).toISOString() : null,
    lastGameAt: meta.lastDone !== undefined ? new Date(meta.lastDone).toISOString() : null,
    degraded: meta.status === 'running' ? (memoryShort(memory) ?? null) : null,
    // A reason is written just before its pause: shown with the pause, never on a running sweep.
    suspended: meta.status === 'paused' ? (meta.suspended ?? null) : null,
  };
}

/** Each cell's games done (its aggregates' count), failed and queued (from the indices). */
export async function cellProgress(store: SweepStore, loaded: LoadedSweep): Promise<CellProgress[]> {
  const { sweep } = loaded;
  const [done, failures, outstanding] = await Promise.all([store.reads.cellsDone(loaded), store.reads.failures(loaded.id), store.reads.outstanding(loaded.id)]);
  const cellOf = (k: number) => Math.floor(k / sweep.gamesPerCell);
  const failed = new Array<number>(sweep.cells.length).fill(0);
  const queued = new Array<number>(sweep.cells.length).fill(0);
  for (const f of failures) failed[cellOf(f.index)]++;
  for (const k of outstanding) queued[cellOf(k)]++;
  return sweep.cells.map((c) => ({ index: c.index, total: sweep.gamesPerCell, done: done[c.index], failed: failed[c.index], queued: queued[c.index] }));
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export async function provenance(store: SweepStore, meta: SweepMeta, overview: SweepOverview, now = Date.now()): Promise<Provenance> {
  const end = meta.finishedAt ?? (meta.status === 'running' || meta.status === 'paused' ? now : undefined);
  return {
    code: meta.code ?? null,
    ...(meta.models ? { models: meta.models } : {}),
    ...(meta.agents ? { agents: meta.agents } : {}),
    created: overview.created,
    startedAt: iso(meta.startedAt),
    finishedAt: iso(meta.finishedAt),
    wallSeconds: meta.startedAt !== undefined && end !== undefined ? (end - meta.startedAt) / 1000 : null,
    activeSeconds: overview.activeSeconds,
    cpuSeconds: meta.cpuMs !== undefined ? meta.cpuMs / 1000 : null,
    workers: await store.reads.workers(meta.id),
  };
}

/** A tune's confirmation sweep and where its SPRT stands: the recommendation's score against the reference (deal-clustered). */
type ConfirmationView = { sweep: string; status: string; games: number; decision: string | null; llr: number | null; score: { mean: number; halfWidth: number; outcomes: number } | null } | null;

/**
 * A racing tune's state for its detail: the race (arms, looks, radius, the decision) and, once
 * made, its confirmation sweep — its SPRT's verdict, the recommendation's head-to-head score with
 * its interval and games — or why there is none. The recommendation is a spec string to paste
 * into a sweep.
 */
export interface RacingTuneView {
  method: 'racing';
  race: RaceReport | null;
  /** The arm the race returned, as a spec to paste into a sweep (null until it decides). */
  recommendation: string | null;
  confirmation: ConfirmationView;
  /** Why there is no confirmation, when there is none. */
  note: string | null;
}

/**
 * An SPSA or NTBEA tune's state, rebuilt from its recorded steps and results (tune-driver.ts):
 * its steps, SPSA's trajectory (each option's value after every step, with the c_k band it was
 * perturbed by), NTBEA's evaluations and each option value's estimate, the recommendation (so far,
 * or final) and its confirmation.
 */
export interface SteppedTuneView {
  method: 'spsa' | 'ntbea';
  steps: number;
  proposed: number;
  applied: number;
  options: string[];
  /** The space searched: each option's scale and bounds (SPSA), or its listed values (NTBEA). */
  space: { key: string; scale: string; min: number; max: number; values?: (string | number)[] }[];
  /** SPSA: after each applied step, the options' values, and the band θ ± c_k in the options' units. */
  trajectory: { k: number; values: number[]; low: number[]; high: number[]; s: number }[];
  /** NTBEA: every point evaluated, in order, with its value (null: its games all failed). */
  evaluations: { k: number; values: (string | number)[]; value: number | null }[];
  /** NTBEA: per option, each value's mean evaluation with its 95 % half-width and evaluations (1-tuples). */
  estimates: { key: string; values: { value: string | number; n: number; mean: number | null; halfWidth: number | null }[] }[];
  /** The step sweeps not yet applied. */
  inFlight: string[];
  /** The recommendation: final once the tune is done, else where the search stands now. */
  recommendation: string;
  final: boolean;
  confirmation: ConfirmationView;
  note: string | null;
}

export type TuneView = RacingTuneView | SteppedTuneView;

async function confirmationView(store: SweepStore, meta: SweepMeta): Promise<ConfirmationView> {
  if (!meta.confirmation) return null;
  const c = await store.reads.meta(meta.confirmation);
  const loaded = c && (await store.reads.load(c.id));
  const stop = loaded ? (await store.reads.stopStates(c.id)).get(0) : undefined;
  return { sweep: meta.confirmation, status: c?.status ?? 'missing', games: c ? c.done : 0, decision: stop?.decision ?? null, llr: stop?.value ?? null, score: stop?.score ?? null };
}

export async function tuneView(store: SweepStore, meta: SweepMeta): Promise<TuneView> {
  const t = meta.spec.tune!;
  const confirmation = await confirmationView(store, meta);
  const note = !t.confirm
    ? `this tune has no confirmation (spec.tune.confirm): its recommendation is as good as the ${t.method === 'racing' ? 'race' : 'search'} says, on the deals it was chosen on`
    : meta.confirmationError
      ? `no confirmation: ${meta.confirmationError}`
      : null;
  if (t.method === 'racing') {
    const race = meta.race ?? null;
    return { method: 'racing', race, recommendation: race?.decided?.agent ?? null, confirmation, note };
  }
  const stepped = steppedTune(meta.spec)!;
  const dims = tuneSpace(meta.spec, stepped);
  const { steps, applied } = await store.reads.tuneSteps(meta.id);
  const records = new Map([...steps].map(([k, json]) => [k, JSON.parse(json) as StepRecord]));
  const appliedKs = new Set(applied.map((a) => a.k));
  const inFlight = [...records].filter(([k, r]) => !appliedKs.has(k) && r.sweep).map(([, r]) => r.sweep!);
  const view: SteppedTuneView = { method: stepped.method, steps: stepped.steps, proposed: records.size, applied: applied.length, options: dims.map((d) => d.key), space: dims.map((d) => ({ key: d.key, scale: d.scale, min: d.min, max: d.max, ...(d.values ? { values: d.values } : {}) })), trajectory: [], evaluations: [], estimates: [], inFlight, recommendation: '', final: meta.recommendation !== undefined, confirmation, note };
  // The page's story of the search, told step by step by the same replay the driver runs.
  const state = replayTune(meta.spec, stepped, records, applied, (step, value, after) => {
    if (after.spsa) {
      const p = step.proposal!;
      view.trajectory.push({ k: step.k, values: unitValues(dims, after.spsa.theta), low: unitValues(dims, after.spsa.theta.map((x) => x - p.ck)), high: unitValues(dims, after.spsa.theta.map((x) => x + p.ck)), s: value ?? 0 });
    } else view.evaluations.push({ k: step.k, values: indexValues(dims, step.point!), value });
  });
  if (state.ntbea) {
    const history = state.ntbea.history;
    view.estimates = dims.map((d, i) => ({
      key: d.key,
      values: d.values!.map((value, j) => {
        const seen = history.filter((h) => h.point[i] === j).map((h) => h.value);
        const n = seen.length;
        const mean = n ? seen.reduce((a, b) => a + b, 0) / n : null;
        const sd = n > 1 && mean !== null ? Math.sqrt(seen.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : null;
        return { value, n, mean, halfWidth: sd === null ? null : (1.96 * sd) / Math.sqrt(n) };
      }),
    }));
  }
  view.recommendation = meta.recommendation ?? tuneRecommendation(meta.spec, stepped, state);
  return view;
}

/**
 * The detail of a sweep as JSON text: its state, read now, and its statistics from `statistics`
 * (computed on a thread and kept as text, so that the megabytes of a large sweep are neither
 * computed nor parsed nor stringified again on the event loop).
 */
export async function sweepDetail(store: SweepStore, meta: SweepMeta, page: CellPage, statistics: SweepStatistics): Promise<string> {
  const loaded = (await store.reads.load(meta.id))!;
  const [overview, progress, stats] = await Promise.all([sweepOverview(store, meta), cellProgress(store, loaded), statistics.page(meta, page.offset, page.limit)]);
  const head: Omit<SweepDetail, keyof SweepStatisticsFields> = {
    ...overview,
    spec: meta.spec,
    provenance: await provenance(store, meta, overview),
    gamesPerCell: loaded.sweep.gamesPerCell,
    cellCount: loaded.sweep.cells.length,
    cellOffset: page.offset,
    cellProgress: progress,
    names: displayNames(loaded.sweep.cells, meta.spec.matchup?.specs),
    statisticsAsOf: stats.asOf,
    ...(meta.spec.tune ? { tune: await tuneView(store, meta) } : {}),
    ...(meta.confirms ? { confirms: meta.confirms } : {}),
    ...(meta.stepOf ? { stepOf: meta.stepOf } : {}),
  };
  const text = JSON.stringify(head);
  return stats.json === '{}' ? text : `${text.slice(0, -1)},${stats.json.slice(1)}`;
}
