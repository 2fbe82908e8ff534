/**
 * Everything the API says about a sweep's results, from its aggregate table in one pass: a page of
 * cells, every agent pooled over the cells, the swept parameters' curves, the matchup matrix, the
 * head-to-head matrix of every configuration and their Bradley–Terry ratings. The dashboard draws
 * these as they are; it computes no statistic of its own.
 */
import { canonicalSpec, parseAgentSpec } from '../../agents/index.js';
import { cellLabels, parseFinishingOrder } from './labels.js';
import { groupAggregateTable, summarizeCells, type CellAggregate, type CellFields } from './summaries.js';
import { HeadToHead, type HeadToHeadCell } from './head-to-head.js';
import { matchupWins, parameterSeries, pooledLabels, type MatchupWins, type ParameterSeries, type PooledLabel } from './pooling.js';
import { comparePaper, rowFromCells, type PaperComparison } from '../papers/paper-comparison.js';
import { publishedTable } from '../papers/published.js';
import { solveRatings, type RatingProblem } from '../stats/rating-problem.js';
import type { Ranking, Ratings } from '../stats/ratings.js';
import type { Sweep, SweepCell } from '../plan/sweep.js';

/** "Row scores more VP than column in the same game", ties half, for every pair of configurations. */
export interface HeadToHeadMatrix {
  configs: string[];
  /** rows[i][j]: configs[i] against configs[j]; null on the diagonal; games 0 (score NaN) where they never met. */
  rows: (HeadToHeadCell | null)[][];
}

export interface SweepStatistics {
  /** The page of cells asked for. */
  cells: CellAggregate[];
  /** Every agent over every cell it plays in. */
  pooled: PooledLabel[];
  parameters: ParameterSeries[];
  matchup?: MatchupWins;
  /** With two or more configurations: who outscores whom (up to HEAD_TO_HEAD_MATRIX_MAX of them; past it a note), and the ratings. */
  headToHead?: HeadToHeadMatrix;
  headToHeadNote?: string;
  ratings?: Ratings;
  /** For a sweep that reproduces a published table (spec.paper): its rows beside ours, with verdicts. */
  paper?: PaperComparison;
}

/**
 * The sweep's configurations (an agent spec, the same agent however it is written: by its
 * canonical form; named as the sweep first writes it) and its games' finishing orders in their terms.
 */
export function sweepOrderings(byCell: ReadonlyMap<number, CellFields>, cells: readonly SweepCell[], first: readonly string[] = []): { configs: string[]; rankings: Ranking[] } {
  const configs: string[] = [];
  const byCanonical = new Map<string, number>();
  const canonical = new Map<string, string>();
  const configOf = (label: string) => {
    let c = canonical.get(label);
    if (c === undefined) canonical.set(label, (c = canonicalSpec(parseAgentSpec(label))));
    let i = byCanonical.get(c);
    if (i === undefined) {
      byCanonical.set(c, (i = configs.length));
      configs.push(label);
    }
    return i;
  };
  for (const label of first) configOf(label);
  const rankings: Ranking[] = [];
  for (const cell of cells) {
    const ids = cellLabels(cell).map(configOf);
    for (const [field, count] of byCell.get(cell.index)?.own ?? []) {
      if (field[0] !== 'O' || count <= 0) continue;
      rankings.push({ groups: parseFinishingOrder(field.slice(1)).map((g) => g.map((L) => ids[L])), count });
    }
  }
  return { configs, rankings };
}

/** The head-to-head matrix is given up to this many configurations: past it, a table nobody reads and megabytes of JSON. */
export const HEAD_TO_HEAD_MATRIX_MAX = 64;

/** A sweep's configurations and finishing orders, ready for the head-to-head matrix and the ratings. */
export interface Versus {
  configs: string[];
  rankings: Ranking[];
  /** Games with two or more configurations at the table. */
  games: number;
}

/** The configurations of `cells` and their finishing orders (none with fewer than two configurations). */
export function sweepVersus(byCell: ReadonlyMap<number, CellFields>, sweep: Sweep, cells: readonly SweepCell[] = sweep.cells): Versus | undefined {
  const { configs, rankings } = sweepOrderings(byCell, cells, sweep.spec.matchup?.specs);
  if (configs.length < 2) return undefined;
  const games = rankings.filter((r) => new Set(r.groups.flat()).size > 1).reduce((s, r) => s + r.count, 0);
  return { configs, rankings, games };
}

/** Who outscores whom, or, past HEAD_TO_HEAD_MATRIX_MAX configurations, a note saying why there is no matrix. */
export function headToHeadOf(v: Versus): { headToHead: HeadToHeadMatrix } | { headToHeadNote: string } {
  if (v.configs.length > HEAD_TO_HEAD_MATRIX_MAX) {
    return { headToHeadNote: `${v.configs.length} configurations: the head-to-head matrix is given up to ${HEAD_TO_HEAD_MATRIX_MAX} (the ratings compare them all)` };
  }
  const h2h = new HeadToHead();
  for (const r of v.rankings) h2h.addOrdering(r.groups.map((g) => g.map((i) => v.configs[i])), r.count);
  return { headToHead: { configs: v.configs, rows: h2h.matrix(v.configs) } };
}

/** The Bradley–Terry rating problem of a sweep's configurations. */
export function versusProblem(v: Versus, anchor?: string): RatingProblem {
  return { model: 'bradley-terry', configs: v.configs, rankings: v.rankings, games: v.games, ...(anchor !== undefined ? { anchor } : {}) };
}

/** The head-to-head matrix and the ratings of a sweep's configurations, fitted here (none with fewer than two). */
export function headToHeadAndRatings(
  byCell: ReadonlyMap<number, CellFields>,
  sweep: Sweep,
  anchor?: string,
  cells: readonly SweepCell[] = sweep.cells,
): ({ headToHead: HeadToHeadMatrix } | { headToHeadNote: string }) & { ratings: Ratings } | undefined {
  const v = sweepVersus(byCell, sweep, cells);
  if (!v) return undefined;
  return { ...headToHeadOf(v), ratings: solveRatings(versusProblem(v, anchor)) };
}

/**
 * The statistics of a sweep: a page of its cells, and everything over cells — over all of them, or
 * over `only` these (a local run of some cells).
 */
export function sweepStatistics(
  table: ReadonlyMap<string, number> | Record<string, string | number>,
  sweep: Sweep,
  page = { offset: 0, limit: Infinity },
  only?: readonly number[],
): SweepStatistics {
  const byCell = groupAggregateTable(table);
  const cells = sweep.cells.slice(page.offset, page.offset + page.limit);
  const over = only ? sweep.cells.filter((c) => only.includes(c.index)) : sweep.cells;
  const matchup = matchupWins(sweep.spec, byCell, over);
  const versus = headToHeadAndRatings(byCell, sweep, undefined, over);
  const published = sweep.spec.paper ? publishedTable(sweep.spec.paper) : undefined;
  // Every cell the rows name, not only the page's.
  const all = published && summarizeCells(byCell, over, sweep.gamesPerCell);
  const paper = published && comparePaper(published, (row) => rowFromCells(all!, row));
  return {
    cells: summarizeCells(byCell, cells, sweep.gamesPerCell),
    pooled: pooledLabels(byCell, over),
    parameters: parameterSeries(byCell, over),
    ...(matchup ? { matchup } : {}),
    ...(versus ?? {}),
    ...(paper ? { paper } : {}),
  };
}
