/**
 * The stored results of the paper presets read against the published tables, and
 * REPRODUCTION.md's summary of them, in shared code so that reproduction/scripts/report.mjs and the tests
 * read and count them the same way.
 */
import { comparePaper, rowFromCells, rulebookRowFromCells, type CellRoles, type OurRow, type PaperComparison } from './paper-comparison.js';
import type { PublishedRow, PublishedTable, TieRule } from './published.js';

/**
 * Where the report's results are, from the repository's root: the confirmation run's
 * (<preset>.json each), the only results REPRODUCTION.md is made from. The earlier runs
 * (reproduction/in-sample/) are history (reproduction/history.md). One constant, so that the report
 * and the tests that count it again cannot read different folders.
 */
export const REPORT_RESULTS = 'reproduction/confirmation/';

/** What a row needs of a stored result (<folder>/<preset>.json): its cells and the export's per-order standings. */
export interface StoredResult {
  cells: readonly (CellRoles & { agents: readonly string[] })[];
  orders?: readonly { orders: readonly { standings: readonly { agent: string; games: number; wins: number; vp: { mean: number } }[] }[] }[];
}

/** A row's games in a stored result: a seating-order row from the export's per-order standings, any other from the cells. */
export function rowFromResult(result: StoredResult, row: PublishedRow): OurRow | undefined {
  if (typeof row.order !== 'number') return rowFromCells(result.cells, row);
  const agent = result.cells[0].agents[row.seat];
  const s = result.orders?.[0]?.orders[row.order]?.standings.find((x) => x.agent === agent);
  return s ? { games: s.games, wins: s.wins, vp: s.vp.mean } : undefined;
}

/** A table compared with its stored result (every row 'not run' without one). */
export function compareStored(table: PublishedTable, result: StoredResult | undefined): PaperComparison {
  return comparePaper(table, (row) => (result ? rowFromResult(result, row) : undefined));
}

/**
 * The same comparison with a tie for the most VP going to the seat with more coins, as the
 * rulebook counts a win (rulebookRowFromCells), by the same verdict rule with its own Holm family.
 * Undefined without a result, or where some played row cannot be counted so (a seat order of
 * Table 7.1, or an agent holding two seats of its cell): half a table would miscount its family.
 */
export function compareStoredOnCoins(table: PublishedTable, result: StoredResult | undefined): PaperComparison | undefined {
  if (!result) return undefined;
  const onCoins = (row: PublishedRow) => rulebookRowFromCells(result.cells, row);
  if (table.rows.some((row) => rowFromResult(result, row) && !onCoins(row))) return undefined;
  return comparePaper(table, onCoins);
}

/**
 * The counts a table is reported under: strictly (the most VP alone) always; on coins as well
 * where the paper does not say how it counts a tie (its `ties`), so that neither reading is
 * chosen for it.
 */
export function compareBothWays(table: PublishedTable, result: StoredResult | undefined): { strict: PaperComparison; onCoins: PaperComparison | undefined } {
  return { strict: compareStored(table, result), onCoins: table.ties === 'unstated' ? compareStoredOnCoins(table, result) : undefined };
}

/** One paper table in REPRODUCTION.md's summary. */
export interface TableSummary {
  id: string;
  /** How the paper counts a tie for the most VP (its `ties`). */
  ties: TieRule;
  rows: number;
  agrees: number;
  inconclusive: number;
  differs: number;
  notRun: number;
  /** Games per played row: the fewest and the most (null when none is played). */
  games: { min: number; max: number } | null;
  /** The same rows' verdicts with VP ties decided on coins, where the paper does not say how it counts a tie (null otherwise). */
  onCoins: { agrees: number; inconclusive: number; differs: number; notRun: number } | null;
  /**
   * The main cause of the rows that differ by either count (null when none does): the table's
   * findings, each marked tested or not (published-reasons.json), or "no cause given" without.
   */
  cause: string | null;
}

export function summarizeTable(table: PublishedTable, comparison: PaperComparison, onCoins?: PaperComparison): TableSummary {
  const games = comparison.rows.flatMap((r) => (r.ours ? [r.ours.games] : []));
  const cause = comparison.differs + (onCoins?.differs ?? 0) === 0 ? null : (table.cause ?? 'no cause given (*not tested*)');
  return {
    id: table.id,
    ties: table.ties,
    rows: comparison.rows.length,
    agrees: comparison.agrees,
    inconclusive: comparison.inconclusive,
    differs: comparison.differs,
    notRun: comparison.notRun,
    games: games.length ? { min: Math.min(...games), max: Math.max(...games) } : null,
    onCoins: onCoins ? { agrees: onCoins.agrees, inconclusive: onCoins.inconclusive, differs: onCoins.differs, notRun: onCoins.notRun } : null,
    cause,
  };
}
