/**
 * Our numbers beside a published table's, row by row, with one verdict rule for REPRODUCTION.md
 * and the sweep page alike: a row is *inside* when our win rate lies within the paper's printed
 * 95 % interval; an *outside* row *differs* when the two estimates are apart by more than both
 * samples' errors together (|ours − paper| > 1.96·√(se_ours² + se_paper²)), and is otherwise a
 * sampling miss.
 */
import { Z95, normalHalfWidth, wilson, type Interval } from '../stats/stats.js';
import type { PublishedRow, PublishedTable } from './published.js';

/** Our games of one row's agent. */
export interface OurRow {
  games: number;
  wins: number;
  /** Mean VP (NaN when unknown). */
  vp: number;
}

export type RowVerdict = 'inside' | 'outside' | 'not run';

export interface RowComparison {
  label: string;
  seat: number;
  /** The paper's win rate and 95 % interval, as fractions (printed in %). */
  paper: { winRate: number; halfWidth: number; low: number; high: number; vp: number | null };
  /** Ours: the win rate with its normal half-width (as the papers print theirs) and its Wilson interval. */
  ours: { games: number; wins: number; winRate: number; halfWidth: number; wilson: Interval; vp: number | null } | null;
  verdict: RowVerdict;
  /** Outside and apart by more than both samples' errors. */
  differs: boolean;
  /** Where ours lies when outside: above or below the paper's interval. */
  direction: 'above' | 'below' | null;
  /** Why an outside row is (the table's or the row's reason), or 'sampling' when it does not differ. */
  reason: string | null;
  /** The swept value the row is at, when it is one parameter's point (for the parameter chart). */
  at: { key: string; value: number | string } | null;
}

export interface PaperComparison {
  id: string;
  title: string;
  preset: string;
  rows: RowComparison[];
  inside: number;
  outside: number;
  notRun: number;
}

const finiteOrNull = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);

export function compareRow(table: PublishedTable, row: PublishedRow, ours: OurRow | undefined): RowComparison {
  const [p, hw] = row.paper;
  const paper = { winRate: p / 100, halfWidth: hw / 100, low: Math.max(0, (p - hw) / 100), high: Math.min(1, (p + hw) / 100), vp: finiteOrNull(row.vp) };
  const swept = Object.entries(row.swept ?? {});
  const at = swept.length === 1 ? { key: swept[0][0], value: swept[0][1] } : null;
  if (!ours || ours.games === 0) return { label: row.label, seat: row.seat, paper, ours: null, verdict: 'not run', differs: false, direction: null, reason: null, at };
  const rate = ours.wins / ours.games;
  const half = normalHalfWidth(ours.wins, ours.games);
  const inside = Math.abs(rate - paper.winRate) <= paper.halfWidth;
  const seBoth = Math.sqrt((half / Z95) ** 2 + (paper.halfWidth / Z95) ** 2);
  const differs = !inside && Math.abs(rate - paper.winRate) > Z95 * seBoth;
  return {
    label: row.label,
    seat: row.seat,
    paper,
    ours: { games: ours.games, wins: ours.wins, winRate: rate, halfWidth: half, wilson: wilson(ours.wins, ours.games), vp: finiteOrNull(ours.vp) },
    verdict: inside ? 'inside' : 'outside',
    differs,
    direction: inside ? null : rate > paper.winRate ? 'above' : 'below',
    reason: inside ? null : differs ? (row.reason ?? table.reason ?? 'unknown') : 'sampling',
    at,
  };
}

/** Every row of a table against ours (`ours` finds a row's games, or undefined when they are not played). */
export function comparePaper(table: PublishedTable, ours: (row: PublishedRow) => OurRow | undefined): PaperComparison {
  const rows = table.rows.map((row) => compareRow(table, row, ours(row)));
  return {
    id: table.id,
    title: table.title,
    preset: table.preset,
    rows,
    inside: rows.filter((r) => r.verdict === 'inside').length,
    outside: rows.filter((r) => r.verdict === 'outside').length,
    notRun: rows.filter((r) => r.verdict === 'not run').length,
  };
}

/** What a row needs of a cell: its agents, swept values and per-seat (role) results. */
export interface CellRoles {
  agents: readonly string[];
  swept: Readonly<Record<string, number | string>>;
  roles: readonly { seat: number; games: number; wins: number; meanVp: number }[];
  /** Per agent: the seats it holds and its wins on coins after a VP tie (for rulebookRowFromCells). */
  labels?: readonly { label: string; seats: number; coinWins: number }[];
}

/** The cell a row names: by its swept values, by its agents, or the first one. */
function cellOfRow<C extends CellRoles>(cells: readonly C[], row: PublishedRow): C | undefined {
  if (row.swept) return cells.find((c) => Object.entries(row.swept!).every(([k, v]) => c.swept[k] === v));
  if (row.agents) return cells.find((c) => row.agents!.every((a, i) => c.agents[i] === a));
  return cells[0];
}

/**
 * A row's games among cells: the cell it names (by swept values or agents), its seat's role. A
 * seating-order row of one order is not in the cells (the per-order standings come from the
 * games' export); its order 'all' is the role over every order.
 */
export function rowFromCells(cells: readonly CellRoles[], row: PublishedRow): OurRow | undefined {
  if (typeof row.order === 'number') return undefined;
  const role = cellOfRow(cells, row)?.roles[row.seat];
  return role ? { games: role.games, wins: role.wins, vp: role.meanVp } : undefined;
}

/**
 * rowFromCells counted as the rulebook counts a win: a VP tie goes to the seat with more coins
 * (our rows count strictly the most VP, and a tie for nobody). The cells keep coin wins per agent
 * rather than per seat, so this is known only where the row's agent holds one seat of its cell;
 * undefined otherwise.
 */
export function rulebookRowFromCells(cells: readonly CellRoles[], row: PublishedRow): OurRow | undefined {
  const strict = rowFromCells(cells, row);
  const cell = strict && cellOfRow(cells, row);
  const label = cell?.labels?.find((l) => l.label === cell.agents[row.seat]);
  if (!strict || !label || label.seats !== 1) return undefined;
  return { ...strict, wins: strict.wins + label.coinWins };
}
