/**
 * Our numbers beside a published table's, row by row, with one verdict rule for REPRODUCTION.md
 * and the sweep page alike, fixed before the confirmation run (issue 42) so that no verdict is
 * chosen after seeing the result.
 *
 * For each row with at least MIN_VERDICT_GAMES of our games, d = ours − paper, with the standard
 * error of the difference from both samples (ours: Agresti–Coull's, √(p̃(1−p̃)/ñ) with
 * p̃ = (wins + z²/2)/ñ and ñ = games + z², which is not 0 at 0 % or 100 % as the plain binomial
 * √(p(1−p)/n) is; the paper's: its printed 95 % half-width / 1.96) and its 95 % interval
 * d ± 1.96·se:
 * - *agrees* when the interval lies inside ± EQUIVALENCE_MARGIN: a TOST equivalence test (two
 *   one-sided tests, each at 2.5 %), so agreement is shown, not merely "not disproved";
 * - *differs* when the two-sided z-test of d is significant at VERDICT_ALPHA after Holm's
 *   correction over the table's win-rate rows that were played;
 * - *inconclusive* otherwise: our games cannot tell, and a larger sample may.
 * A row with fewer games has no verdict: *too few games* (two games of 0 % or 100 % once made six
 * of twelve rows "differ"). Agreement is tested first: a difference shown to be smaller than the margin is agreement even
 * where it is also shown not to be zero (both can hold only when se < margin / (2·1.96), 1.3
 * points, rare at the papers' sizes). Only win rates are tested: the mean VP of a row comes from
 * the same games, so it is shown beside them but is not a second piece of evidence.
 */
import { Z95, normalHalfWidth, wilson, type Interval } from '../stats/stats.js';
import { holmAdjust, twoSidedP } from '../stats/significance.js';
import type { PublishedRow, PublishedTable } from './published.js';

/** The equivalence margin of *agrees*: 5 percentage points, as a fraction. */
export const EQUIVALENCE_MARGIN = 0.05;
/** The family-wise error rate of *differs* (Holm over a table's rows). */
export const VERDICT_ALPHA = 0.05;
/**
 * Slack on every edge of the rule, so that a value exactly on an edge (68.4 against 71.2 ± 2.8 is
 * 71.2 − 2.8 in decimals, not in binary) is decided as the decimal arithmetic decides it, not by
 * rounding. Far below any difference a sample of games can show.
 */
export const EDGE_TOLERANCE = 1e-9;

/**
 * Our games a row needs before it gets a verdict: at 100 games the interval of d is about ±10
 * points, so neither *agrees* (±5) nor *differs* for less than a gap of about 10 points can come
 * out; below it, a verdict would rest on a handful of games (a preset shrunk with --deals 2).
 */
export const MIN_VERDICT_GAMES = 100;

/** Our games of one row's agent. */
export interface OurRow {
  games: number;
  wins: number;
  /** Mean VP (NaN when unknown). */
  vp: number;
}

export type RowVerdict = 'agrees' | 'inconclusive' | 'differs' | 'too few games' | 'not run';

/** ours − paper, as fractions, with what the verdict was decided on. */
export interface Difference {
  estimate: number;
  /** √(se_ours² + se_paper²). */
  se: number;
  /** The 95 % interval estimate ± 1.96·se. */
  low: number;
  high: number;
  z: number;
  /** Two-sided p of z, and Holm-adjusted over the table's played rows. */
  p: number;
  pHolm: number;
}

export interface RowComparison {
  label: string;
  seat: number;
  /** The paper's win rate and 95 % interval, as fractions (printed in %). */
  paper: { winRate: number; halfWidth: number; low: number; high: number; vp: number | null };
  /** Ours: the win rate with its normal half-width (as the papers print theirs) and its Wilson interval. */
  ours: { games: number; wins: number; winRate: number; halfWidth: number; wilson: Interval; vp: number | null } | null;
  difference: Difference | null;
  verdict: RowVerdict;
  /** A row that differs: ours above or below the paper's. */
  direction: 'above' | 'below' | null;
  /** Why a row differs: the row's or its table's reason (published-reasons.json), null when none is given. */
  reason: string | null;
  /** The swept value the row is at, when it is one parameter's point (for the parameter chart). */
  at: { key: string; value: number | string } | null;
}

export interface PaperComparison {
  id: string;
  title: string;
  preset: string;
  /** The rule's numbers, so that a reader of the comparison (the sweep page) states them as applied. */
  rule: { margin: number; alpha: number; tolerance: number; minGames: number };
  rows: RowComparison[];
  agrees: number;
  inconclusive: number;
  differs: number;
  tooFew: number;
  notRun: number;
}

const finiteOrNull = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);

/** A row's numbers and its difference, before the table's Holm correction decides *differs*. */
function measureRow(row: PublishedRow, ours: OurRow | undefined) {
  const [p, hw] = row.paper;
  const paper = { winRate: p / 100, halfWidth: hw / 100, low: Math.max(0, (p - hw) / 100), high: Math.min(1, (p + hw) / 100), vp: finiteOrNull(row.vp) };
  if (!ours || ours.games === 0) return { paper, ours: null, difference: null };
  const rate = ours.wins / ours.games;
  const mine = { games: ours.games, wins: ours.wins, winRate: rate, halfWidth: normalHalfWidth(ours.wins, ours.games), wilson: wilson(ours.wins, ours.games), vp: finiteOrNull(ours.vp) };
  if (ours.games < MIN_VERDICT_GAMES) return { paper, ours: mine, difference: null };
  const estimate = rate - paper.winRate;
  const n = ours.games + Z95 ** 2;
  const adjusted = (ours.wins + Z95 ** 2 / 2) / n;
  const se = Math.sqrt((adjusted * (1 - adjusted)) / n + (paper.halfWidth / Z95) ** 2);
  const z = estimate / se;
  return { paper, ours: mine, difference: { estimate, se, low: estimate - Z95 * se, high: estimate + Z95 * se, z, p: twoSidedP(z), pHolm: NaN } };
}

/** The verdict of a played row from its difference (pHolm filled in). */
export function verdictOf(d: Difference): Exclude<RowVerdict, 'not run'> {
  if (d.low >= -EQUIVALENCE_MARGIN - EDGE_TOLERANCE && d.high <= EQUIVALENCE_MARGIN + EDGE_TOLERANCE) return 'agrees';
  if (d.pHolm <= VERDICT_ALPHA + EDGE_TOLERANCE) return 'differs';
  return 'inconclusive';
}

/** Every row of a table against ours (`ours` finds a row's games, or undefined when they are not played). */
export function comparePaper(table: PublishedTable, ours: (row: PublishedRow) => OurRow | undefined): PaperComparison {
  const measured = table.rows.map((row) => measureRow(row, ours(row)));
  // The Holm family: the table's rows with a verdict (a row not played, or with too few games, tests nothing).
  const played = measured.filter((m) => m.difference);
  holmAdjust(played.map((m) => m.difference!.p)).forEach((p, i) => (played[i].difference!.pHolm = p));
  const rows = table.rows.map((row, i): RowComparison => {
    const { paper, ours, difference } = measured[i];
    const swept = Object.entries(row.swept ?? {});
    const at = swept.length === 1 ? { key: swept[0][0], value: swept[0][1] } : null;
    const verdict = difference ? verdictOf(difference) : ours ? 'too few games' : 'not run';
    const differs = verdict === 'differs';
    return {
      label: row.label,
      seat: row.seat,
      paper,
      ours,
      difference,
      verdict,
      direction: differs ? (difference!.estimate > 0 ? 'above' : 'below') : null,
      reason: differs ? (row.reason ?? table.reason ?? null) : null,
      at,
    };
  });
  const count = (v: RowVerdict) => rows.filter((r) => r.verdict === v).length;
  return { id: table.id, title: table.title, preset: table.preset, rule: { margin: EQUIVALENCE_MARGIN, alpha: VERDICT_ALPHA, tolerance: EDGE_TOLERANCE, minGames: MIN_VERDICT_GAMES }, rows, agrees: count('agrees'), inconclusive: count('inconclusive'), differs: count('differs'), tooFew: count('too few games'), notRun: count('not run') };
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
