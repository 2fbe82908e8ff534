/**
 * Everything the API says about a sweep's results, from its aggregate table in one pass: a page of
 * cells, every agent pooled over the cells, the swept parameters' curves, the matchup matrix, the
 * head-to-head matrix of every configuration and their Bradley–Terry ratings. The dashboard draws
 * these as they are; it computes no statistic of its own.
 */
import { canonicalSpec, parseAgentSpec } from '../agents/index.js';
import { cellLabels, groupAggregateTable, parseFinishingOrder, summarizeCells, type CellAggregate, type CellFields } from './aggregates.js';
import { HeadToHead, type HeadToHeadCell } from './head-to-head.js';
import { matchupWins, parameterSeries, pooledLabels, type MatchupWins, type ParameterSeries, type PooledLabel } from './pooling.js';
import { comparePaper, rowFromCells, type PaperComparison } from './paper-comparison.js';
import { publishedTable } from './published.js';
import { eloRatings, fitBradleyTerry, type Ranking, type Ratings } from './ratings.js';
import type { Sweep, SweepCell } from './sweep.js';

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
  /** With two or more configurations: who outscores whom, and the ratings. */
  headToHead?: HeadToHeadMatrix;
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

/** The head-to-head matrix and the ratings of a sweep's configurations (none with fewer than two). */
export function headToHeadAndRatings(
  byCell: ReadonlyMap<number, CellFields>,
  sweep: Sweep,
  anchor?: string,
  cells: readonly SweepCell[] = sweep.cells,
): { headToHead: HeadToHeadMatrix; ratings: Ratings } | undefined {
  const { configs, rankings } = sweepOrderings(byCell, cells, sweep.spec.matchup?.specs);
  if (configs.length < 2) return undefined;
  const h2h = new HeadToHead();
  for (const r of rankings) h2h.addOrdering(r.groups.map((g) => g.map((i) => configs[i])), r.count);
  const games = rankings.filter((r) => new Set(r.groups.flat()).size > 1).reduce((s, r) => s + r.count, 0);
  return {
    headToHead: { configs, rows: h2h.matrix(configs) },
    ratings: eloRatings(configs, fitBradleyTerry(configs.length, rankings), games, anchor),
  };
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
