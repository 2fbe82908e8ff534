/**
 * A sweep's results as one flat table for pandas or R: a row per cell and agent, the swept
 * parameters as columns, then games, wins, the win rate with its Wilson 95 % interval, and the
 * mean and sd of VP with the mean's 95 % interval.
 */
import type { PaperComparison } from '../papers/paper-comparison.js';
import type { CellAggregate } from './summaries.js';

export type SummaryValue = string | number | null;

export interface SummaryTable {
  columns: string[];
  rows: Record<string, SummaryValue>[];
}

/**
 * The columns after the swept parameters, in order. `agent` is the spec as submitted (the results'
 * key); `config` its canonical form, the name the dashboard and the ladder show (last, so that the
 * columns before keep their places).
 */
export const SUMMARY_COLUMNS = [
  'agent', 'seats', 'games', 'wins', 'win_rate', 'ci_low', 'ci_high', 'vp_mean', 'vp_sd', 'vp_mean_ci_low', 'vp_mean_ci_high', 'ties', 'coin_wins', 'ms_per_decision', 'iterations_per_second', 'config',
] as const;

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);

export function summaryTable(sweepId: string, cells: readonly CellAggregate[]): SummaryTable {
  const swept: string[] = [];
  for (const cell of cells) for (const key of Object.keys(cell.swept)) if (!swept.includes(key)) swept.push(key);
  const rows = cells.flatMap((cell) =>
    cell.labels.map((l) => {
      const row: Record<string, SummaryValue> = { sweep: sweepId, cell: cell.index };
      for (const key of swept) row[key] = cell.swept[key] ?? null;
      Object.assign(row, {
        agent: l.label,
        seats: l.seats,
        games: l.games,
        wins: l.wins,
        win_rate: finite(l.winRate),
        ci_low: finite(l.wilson.low),
        ci_high: finite(l.wilson.high),
        vp_mean: finite(l.vp.mean),
        vp_sd: finite(l.vp.sd),
        vp_mean_ci_low: finite(l.vp.mean - l.vpMeanHalfWidth),
        vp_mean_ci_high: finite(l.vp.mean + l.vpMeanHalfWidth),
        ties: l.ties,
        coin_wins: l.coinWins,
        ms_per_decision: finite(l.decisionMs),
        iterations_per_second: finite(l.iterationsPerSecond),
        config: l.config,
      });
      return row;
    }),
  );
  return { columns: ['sweep', 'cell', ...swept, ...SUMMARY_COLUMNS], rows };
}

/**
 * The comparison as a flat table for the CSV (one row per paper row, as fractions): the paper's
 * rate and half-width, ours with its Wilson interval, ours − paper with its interval and Holm's p,
 * and the verdict ('too few games' and 'not run' with the numbers they have).
 */
export function paperTable(sweepId: string, c: PaperComparison): SummaryTable {
  const columns = ['sweep', 'table', 'row', 'seat', 'paper_win_rate', 'paper_half_width', 'games', 'wins', 'win_rate', 'ci_low', 'ci_high', 'difference', 'difference_low', 'difference_high', 'p_holm', 'verdict', 'direction', 'min_games'];
  const rows = c.rows.map((r) => ({
    sweep: sweepId,
    table: c.id,
    row: r.label,
    seat: r.seat,
    paper_win_rate: r.paper.winRate,
    paper_half_width: r.paper.halfWidth,
    games: r.ours?.games ?? 0,
    wins: r.ours?.wins ?? 0,
    win_rate: r.ours?.winRate ?? null,
    ci_low: r.ours?.wilson.low ?? null,
    ci_high: r.ours?.wilson.high ?? null,
    difference: r.difference?.estimate ?? null,
    difference_low: r.difference?.low ?? null,
    difference_high: r.difference?.high ?? null,
    p_holm: r.difference?.pHolm ?? null,
    verdict: r.verdict,
    direction: r.direction,
    min_games: c.rule.minGames,
  }));
  return { columns, rows };
}

function csvCell(value: SummaryValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The table as CSV: a header line, then a line per row (empty where there is no number). */
export function summaryCsv(t: SummaryTable): string {
  return [t.columns.map(csvCell).join(','), ...t.rows.map((r) => t.columns.map((c) => csvCell(r[c] ?? null)).join(','))].join('\n') + '\n';
}
