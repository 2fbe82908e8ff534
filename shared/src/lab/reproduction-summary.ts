/**
 * The stored results of the paper presets (reproduction/results/<preset>.json) read against the
 * published tables, in shared code so that reproduction/report.mjs and the tests read them the
 * same way.
 */
import { comparePaper, rowFromCells, type CellRoles, type OurRow, type PaperComparison } from './paper-comparison.js';
import type { PublishedRow, PublishedTable } from './published.js';

/** What a row needs of a stored result (reproduction/results/<preset>.json): its cells and the export's per-order standings. */
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
