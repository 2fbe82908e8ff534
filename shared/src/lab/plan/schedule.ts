/**
 * The order a sweep's games are queued in. Game indices stay what they are (cell-major: cell c's
 * games are c·gamesPerCell … ), but the queue takes them *interleaved*: deal by deal, every cell's
 * games of one deal before any cell's next deal, and within a cell a deal's seat orders together
 * (a paired group completes at once). Deals go round the board sets first (deal 0 of every set,
 * then deal 1), so a sweep stopped early has every cell, and every board set of each, in equal
 * measure: every cell's estimate tightens together.
 *
 * Position p in the queue's order is round r = ⌊p / (cells·orders)⌋, then cell, then seat order;
 * round r is deal ⌊r / sets⌋ of board set r mod sets. This is the order's one definition: the
 * store's claim offers the games at the next positions as Sweep.indexAt gives them, and its script
 * (CLAIM_GAMES) only takes them, knowing no order of its own.
 */

/** What the order depends on: a sweep's cells, and its board sets, deals and seat orders per cell. */
export interface ScheduleShape {
  cells: number;
  sets: number;
  deals: number;
  orders: number;
}

/**
 * 'interleaved': the order above. 'sequential': position = index, cell after cell (how sweeps
 * stored before the interleaved order were fed; their saved cursors are indices).
 */
export type ScheduleKind = 'interleaved' | 'sequential';

const perCell = (s: ScheduleShape) => s.sets * s.deals * s.orders;

/** The game index queued at position p. */
export function scheduledIndex(s: ScheduleShape, p: number): number {
  const width = s.cells * s.orders;
  const round = Math.floor(p / width);
  const within = p - round * width;
  const cell = Math.floor(within / s.orders);
  const order = within - cell * s.orders;
  const deal = Math.floor(round / s.sets);
  const set = round - deal * s.sets;
  return cell * perCell(s) + set * s.deals * s.orders + deal * s.orders + order;
}

/** The position at which game k is queued (the inverse of scheduledIndex). */
export function schedulePosition(s: ScheduleShape, k: number): number {
  const cell = Math.floor(k / perCell(s));
  const i = k - cell * perCell(s);
  const set = Math.floor(i / (s.deals * s.orders));
  const deal = Math.floor(i / s.orders) % s.deals;
  const order = i % s.orders;
  const round = deal * s.sets + set;
  return round * s.cells * s.orders + cell * s.orders + order;
}

/** Game k's place in its own cell's play order: 0 for the cell's first game queued. */
export function cellPlayRank(s: ScheduleShape, k: number): number {
  const i = k % perCell(s);
  const set = Math.floor(i / (s.deals * s.orders));
  const deal = Math.floor(i / s.orders) % s.deals;
  return (deal * s.sets + set) * s.orders + (i % s.orders);
}
