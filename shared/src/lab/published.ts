/**
 * The published results the lab reproduces, as printed: each row's win rate in % with its 95 %
 * half-width, and the mean VP where the paper gives it. A row names which of our numbers it is
 * compared with: a cell (by its swept values or its agents) and the agent by its seat in the spec,
 * or, for a seating-order table, one seat order of the cell. `reason` explains a row that differs
 * (REPRODUCTION.md's "reason" column), `cause` and `shownBy` the table's main cause and the
 * experiment that shows it (its summary); they are findings, so they are data in
 * published-reasons.json (by table id and row label), not code.
 */
import REASONS from './published-reasons.json' with { type: 'json' };

export interface PublishedRow {
  label: string;
  /** The spec's seat whose agent the row is about. */
  seat: number;
  /** [win rate %, 95 % half-width in points], as printed. */
  paper: readonly [number, number];
  /** Mean VP, where printed. */
  vp?: number;
  /** The cell: its swept values… */
  swept?: Readonly<Record<string, number | string>>;
  /** …or its agents, in seat order. */
  agents?: readonly string[];
  /** A seating-order table's seat order (index into the sweep's orders), or 'all' for every order pooled. */
  order?: number | 'all';
  reason?: string;
}

export interface PublishedTable {
  /** `thesis-7.4`: what a sweep spec's `paper` names. */
  id: string;
  title: string;
  /** The preset (presets/<preset>.json) that plays it. */
  preset: string;
  /** cells: a row is a cell's agent; orders: a row is an agent in one seat order (Table 7.1). */
  kind: 'cells' | 'orders';
  reason?: string;
  /** The main cause of the table's rows that differ, in one line (REPRODUCTION.md's summary). */
  cause?: string;
  /** The experiment in the repo that shows `cause`; without one the cause is "not tested". */
  shownBy?: string;
  rows: readonly PublishedRow[];
}

/** Why rows differ: findings, kept as data beside this file so that a new result changes no code. */
type Reasons = Record<string, { cause?: string; shownBy?: string; table?: string; rows?: Record<string, string> }>;

/** The tables as printed, without the reasons. */
const TABLES: readonly PublishedTable[] = [
  {
    id: 'thesis-7.1',
    title: 'Thesis Table 7.1: seating order (N = 1000 per configuration, boards drawn per deal)',
    preset: 'thesis-7.1-seating',
    kind: 'orders',
    rows: [
      { label: 'MCTS-100, MCTS-50, Random: MCTS-100', order: 0, seat: 0, paper: [67.2, 2.9], vp: 39.0 },
      { label: 'MCTS-100, MCTS-50, Random: MCTS-50', order: 0, seat: 1, paper: [31.9, 2.9], vp: 33.7 },
      { label: 'MCTS-100, Random, MCTS-50: MCTS-100', order: 1, seat: 0, paper: [66.5, 3.0], vp: 38.4 },
      { label: 'MCTS-100, Random, MCTS-50: MCTS-50', order: 1, seat: 1, paper: [32.1, 3.0], vp: 34.0 },
      { label: 'MCTS-50, MCTS-100, Random: MCTS-100', order: 2, seat: 0, paper: [62.5, 3.0], vp: 38.3 },
      { label: 'MCTS-50, MCTS-100, Random: MCTS-50', order: 2, seat: 1, paper: [36.5, 3.0], vp: 34.5 },
      { label: 'MCTS-50, Random, MCTS-100: MCTS-100', order: 3, seat: 0, paper: [65.7, 2.9], vp: 38.6 },
      { label: 'MCTS-50, Random, MCTS-100: MCTS-50', order: 3, seat: 1, paper: [33.6, 2.9], vp: 34.1 },
      { label: 'Random, MCTS-100, MCTS-50: MCTS-100', order: 4, seat: 0, paper: [67.3, 2.9], vp: 38.8 },
      { label: 'Random, MCTS-100, MCTS-50: MCTS-50', order: 4, seat: 1, paper: [31.8, 2.9], vp: 33.7 },
      { label: 'Random, MCTS-50, MCTS-100: MCTS-100', order: 5, seat: 0, paper: [65.0, 3.0], vp: 37.8 },
      { label: 'Random, MCTS-50, MCTS-100: MCTS-50', order: 5, seat: 1, paper: [34.0, 2.9], vp: 34.1 },
      // As printed. The thesis's Average rows repeat the last seat order's figures (65.0 ± 3.0, 37.8;
      // 34.0 ± 2.9, 34.1); the mean of its six orders is 65.7 % / 38.5 VP and 33.3 % / 34.0 VP (reasons.md).
      { label: 'Average: MCTS-100', order: 'all', seat: 0, paper: [65.0, 3.0], vp: 37.8 },
      { label: 'Average: MCTS-50', order: 'all', seat: 1, paper: [34.0, 2.9], vp: 34.1 },
    ],
  },
  {
    id: 'thesis-7.2',
    title: 'Thesis Table 7.2: exploration constant C at 250 iterations, against two rulebased (21 wonder sets)',
    preset: 'thesis-7.2-exploration',
    kind: 'cells',
    rows: [
      { label: 'C = 0.1', swept: {'seats.0.c': 0.1}, seat: 0, paper: [82.4, 2.3], vp: 46.1 },
      { label: 'C = 0.2', swept: {'seats.0.c': 0.2}, seat: 0, paper: [80.4, 2.4], vp: 46.2 },
      { label: 'C = 0.3', swept: {'seats.0.c': 0.3}, seat: 0, paper: [81.5, 2.3], vp: 46.1 },
      { label: 'C = 0.4', swept: {'seats.0.c': 0.4}, seat: 0, paper: [83.4, 2.3], vp: 46.1 },
      { label: 'C = 0.5', swept: {'seats.0.c': 0.5}, seat: 0, paper: [80.4, 2.4], vp: 46.0 },
      { label: 'C = 0.6', swept: {'seats.0.c': 0.6}, seat: 0, paper: [78.7, 2.5], vp: 45.8 },
      { label: 'C = 0.7', swept: {'seats.0.c': 0.7}, seat: 0, paper: [80.4, 2.4], vp: 45.9 },
      { label: 'C = 0.8', swept: {'seats.0.c': 0.8}, seat: 0, paper: [80.5, 2.4], vp: 45.8 },
      { label: 'C = 0.9', swept: {'seats.0.c': 0.9}, seat: 0, paper: [80.4, 2.4], vp: 46.0 },
    ],
  },
  {
    id: 'thesis-7.3',
    title: 'Thesis Table 7.3: simulation depth at 250 iterations, against two rulebased (21 wonder sets)',
    preset: 'thesis-7.3-depth',
    kind: 'cells',
    rows: [
      { label: 'depth 4', swept: {'seats.0.depth': 4}, seat: 0, paper: [45.0, 3.0], vp: 39.2 },
      { label: 'depth 8', swept: {'seats.0.depth': 8}, seat: 0, paper: [68.9, 2.8], vp: 43.5 },
      { label: 'depth 12', swept: {'seats.0.depth': 12}, seat: 0, paper: [78.7, 2.5], vp: 45.5 },
      { label: 'depth 16', swept: {'seats.0.depth': 16}, seat: 0, paper: [82.2, 2.3], vp: 45.9 },
    ],
  },
  {
    id: 'thesis-7.4',
    title: 'Thesis Table 7.4: iterations per decision, against two rulebased (21 wonder sets)',
    preset: 'thesis-7.4-iterations',
    kind: 'cells',
    rows: [
      { label: '100 iterations', swept: {'seats.0.it': 100}, seat: 0, paper: [71.6, 2.7], vp: 43.6 },
      { label: '250 iterations', swept: {'seats.0.it': 250}, seat: 0, paper: [81.9, 2.3], vp: 46.2 },
      { label: '500 iterations', swept: {'seats.0.it': 500}, seat: 0, paper: [88.4, 1.9], vp: 47.8 },
    ],
  },
  {
    id: 'thesis-7.5',
    title: "Thesis Table 7.5: MCTS (seat 1) against MCTS (seat 2), rulebased third (N = 1000 per pair, boards drawn per deal); the row agent's win rate",
    preset: 'thesis-7.5-mcts-matrix',
    kind: 'cells',
    rows: [
      { label: 'MCTS-100 vs MCTS-250', agents: ['mcts:100,10,100', 'mcts:250,10,100'], seat: 0, paper: [28.6, 2.8] },
      { label: 'MCTS-100 vs MCTS-500', agents: ['mcts:100,10,100', 'mcts:500,10,100'], seat: 0, paper: [23.8, 2.6] },
      { label: 'MCTS-100 vs MCTS-1000', agents: ['mcts:100,10,100', 'mcts:1000,10,100'], seat: 0, paper: [22.0, 2.6] },
      { label: 'MCTS-250 vs MCTS-100', agents: ['mcts:250,10,100', 'mcts:100,10,100'], seat: 0, paper: [58.8, 3.1] },
      { label: 'MCTS-250 vs MCTS-500', agents: ['mcts:250,10,100', 'mcts:500,10,100'], seat: 0, paper: [35.8, 3.0] },
      { label: 'MCTS-250 vs MCTS-1000', agents: ['mcts:250,10,100', 'mcts:1000,10,100'], seat: 0, paper: [35.4, 3.0] },
      { label: 'MCTS-500 vs MCTS-100', agents: ['mcts:500,10,100', 'mcts:100,10,100'], seat: 0, paper: [67.7, 2.9] },
      { label: 'MCTS-500 vs MCTS-250', agents: ['mcts:500,10,100', 'mcts:250,10,100'], seat: 0, paper: [55.5, 3.1] },
      { label: 'MCTS-500 vs MCTS-1000', agents: ['mcts:500,10,100', 'mcts:1000,10,100'], seat: 0, paper: [40.8, 3.0] },
      { label: 'MCTS-1000 vs MCTS-100', agents: ['mcts:1000,10,100', 'mcts:100,10,100'], seat: 0, paper: [71.2, 2.8] },
      { label: 'MCTS-1000 vs MCTS-250', agents: ['mcts:1000,10,100', 'mcts:250,10,100'], seat: 0, paper: [59.1, 3.0] },
      { label: 'MCTS-1000 vs MCTS-500', agents: ['mcts:1000,10,100', 'mcts:500,10,100'], seat: 0, paper: [53.2, 3.1] },
    ],
  },
  {
    id: 'robilliard-2',
    title: 'Robilliard et al. 2014, Table 2: MCTS against two rule-based players (20 board sets × 50 deals)',
    preset: 'robilliard-2014-table2',
    kind: 'cells',
    rows: [
      { label: '125 simulations', swept: {'seats.0.it': 125}, seat: 0, paper: [67.63, 2.89] },
      { label: '250 simulations', swept: {'seats.0.it': 250}, seat: 0, paper: [81.87, 2.38] },
      { label: '500 simulations', swept: {'seats.0.it': 500}, seat: 0, paper: [87.25, 2.06] },
      { label: '1000 simulations', swept: {'seats.0.it': 1000}, seat: 0, paper: [92.63, 1.62] },
    ],
  },
  {
    id: 'robilliard-3',
    title: 'Robilliard et al. 2014, Table 3: K_UCT of MCTS-1 against MCTS-2, 1000 simulations, rbAI third (duplicated boards, swapped seats)',
    preset: 'robilliard-2014-table3-kuct',
    kind: 'cells',
    rows: [
      { label: 'K 0.1 vs 0.2: MCTS-1', agents: ['mcts-robilliard(c=0.1)', 'mcts-robilliard(c=0.2)'], seat: 0, paper: [34.2, 2.94] },
      { label: 'K 0.2 vs 0.3: MCTS-1', agents: ['mcts-robilliard(c=0.2)', 'mcts-robilliard(c=0.3)'], seat: 0, paper: [42.6, 3.06] },
      { label: 'K 0.2 vs 0.3: MCTS-2', agents: ['mcts-robilliard(c=0.2)', 'mcts-robilliard(c=0.3)'], seat: 1, paper: [55.9, 3.08] },
      { label: 'K 0.3 vs 0.4: MCTS-1', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=0.4)'], seat: 0, paper: [48.0, 3.1] },
      { label: 'K 0.3 vs 0.4: MCTS-2', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=0.4)'], seat: 1, paper: [51.3, 3.1] },
      { label: 'K 0.3 vs 0.5: MCTS-1', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=0.5)'], seat: 0, paper: [48.7, 3.1] },
      { label: 'K 0.3 vs 0.5: MCTS-2', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=0.5)'], seat: 1, paper: [51.2, 3.1] },
      { label: 'K 0.3 vs 0.7: MCTS-1', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=0.7)'], seat: 0, paper: [49.1, 2.68] },
      { label: 'K 0.3 vs 0.7: MCTS-2', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=0.7)'], seat: 1, paper: [50.52, 2.68] },
      { label: 'K 0.3 vs 1.0: MCTS-1', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=1.0)'], seat: 0, paper: [48.3, 3.1] },
      { label: 'K 0.3 vs 1.0: MCTS-2', agents: ['mcts-robilliard(c=0.3)', 'mcts-robilliard(c=1.0)'], seat: 1, paper: [51.2, 3.1] },
    ],
  },
  {
    id: 'robilliard-4',
    title: 'Robilliard et al. 2014, Table 4: N against 2N simulations (K_UCT 0.3), rbAI third (duplicated boards, swapped seats)',
    preset: 'robilliard-2014-table4-scaling',
    kind: 'cells',
    rows: [
      { label: '125 vs 250: MCTS-1', agents: ['mcts-robilliard(it=125)', 'mcts-robilliard(it=250)'], seat: 0, paper: [34.5, 2.95] },
      { label: '125 vs 250: MCTS-2', agents: ['mcts-robilliard(it=125)', 'mcts-robilliard(it=250)'], seat: 1, paper: [62.0, 3.01] },
      { label: '250 vs 500: MCTS-1', agents: ['mcts-robilliard(it=250)', 'mcts-robilliard(it=500)'], seat: 0, paper: [39.0, 3.02] },
      { label: '250 vs 500: MCTS-2', agents: ['mcts-robilliard(it=250)', 'mcts-robilliard(it=500)'], seat: 1, paper: [59.4, 3.04] },
      { label: '500 vs 1000: MCTS-1', agents: ['mcts-robilliard(it=500)', 'mcts-robilliard(it=1000)'], seat: 0, paper: [43.9, 3.08] },
      { label: '500 vs 1000: MCTS-2', agents: ['mcts-robilliard(it=500)', 'mcts-robilliard(it=1000)'], seat: 1, paper: [55.5, 3.08] },
      { label: '1000 vs 2000: MCTS-1', agents: ['mcts-robilliard(it=1000)', 'mcts-robilliard(it=2000)'], seat: 0, paper: [44.8, 3.08] },
      { label: '1000 vs 2000: MCTS-2', agents: ['mcts-robilliard(it=1000)', 'mcts-robilliard(it=2000)'], seat: 1, paper: [54.6, 3.09] },
      { label: '2000 vs 4000: MCTS-1', agents: ['mcts-robilliard(it=2000)', 'mcts-robilliard(it=4000)'], seat: 0, paper: [46.2, 3.09] },
      { label: '2000 vs 4000: MCTS-2', agents: ['mcts-robilliard(it=2000)', 'mcts-robilliard(it=4000)'], seat: 1, paper: [53.5, 3.09] },
      { label: '4000 vs 8000: MCTS-1', agents: ['mcts-robilliard(it=4000)', 'mcts-robilliard(it=8000)'], seat: 0, paper: [44.0, 3.08] },
      { label: '4000 vs 8000: MCTS-2', agents: ['mcts-robilliard(it=4000)', 'mcts-robilliard(it=8000)'], seat: 1, paper: [55.9, 3.08] },
    ],
  },
  {
    id: 'robilliard-5',
    title: 'Robilliard et al. 2014, Table 5: progressive widening P (MCTS-2, Q = 2) against none (MCTS-1), 1000 simulations, rbAI third',
    preset: 'robilliard-2014-table5-widening',
    kind: 'cells',
    rows: [
      { label: 'P 0.15: without', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.15,pwq=2)'], seat: 0, paper: [58.6, 3.05] },
      { label: 'P 0.15: with', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.15,pwq=2)'], seat: 1, paper: [40.7, 3.04] },
      { label: 'P 0.25: without', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.25,pwq=2)'], seat: 0, paper: [46.4, 3.09] },
      { label: 'P 0.25: with', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.25,pwq=2)'], seat: 1, paper: [53.2, 3.09] },
      { label: 'P 0.35: without', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.35,pwq=2)'], seat: 0, paper: [46.4, 3.09] },
      { label: 'P 0.35: with', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.35,pwq=2)'], seat: 1, paper: [53.3, 3.09] },
      { label: 'P 0.45: without', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.45,pwq=2)'], seat: 0, paper: [46.9, 3.09] },
      { label: 'P 0.45: with', agents: ['mcts-robilliard', 'mcts-robilliard(pw=0.45,pwq=2)'], seat: 1, paper: [52.7, 3.09] },
    ],
  },
  {
    id: 'robilliard-6',
    title: 'Robilliard et al. 2014, Table 6: real-score bias K_score (MCTS-2) against none (MCTS-1), 1000 simulations, rbAI third',
    preset: 'robilliard-2014-table6-kscore',
    kind: 'cells',
    rows: [
      { label: 'K_score 0.01: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.01)'], seat: 0, paper: [50.0, 3.1] },
      { label: 'K_score 0.01: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.01)'], seat: 1, paper: [49.7, 3.1] },
      { label: 'K_score 0.05: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.05)'], seat: 0, paper: [50.3, 3.1] },
      { label: 'K_score 0.05: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.05)'], seat: 1, paper: [49.2, 3.1] },
      { label: 'K_score 0.10: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.1)'], seat: 0, paper: [47.4, 3.1] },
      { label: 'K_score 0.10: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.1)'], seat: 1, paper: [52.0, 3.1] },
      { label: 'K_score 0.15: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.15)'], seat: 0, paper: [51.3, 3.1] },
      { label: 'K_score 0.15: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.15)'], seat: 1, paper: [48.0, 3.1] },
      { label: 'K_score 0.20: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.2)'], seat: 0, paper: [48.5, 3.1] },
      { label: 'K_score 0.20: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.2)'], seat: 1, paper: [50.6, 3.1] },
      { label: 'K_score 0.50: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.5)'], seat: 0, paper: [60.0, 3.04] },
      { label: 'K_score 0.50: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=0.5)'], seat: 1, paper: [39.6, 3.03] },
      { label: 'K_score 1.00: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=1)'], seat: 0, paper: [69.4, 2.86] },
      { label: 'K_score 1.00: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=1)'], seat: 1, paper: [29.6, 2.83] },
      { label: 'K_score 10: without', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=10)'], seat: 0, paper: [76.5, 2.63] },
      { label: 'K_score 10: with', agents: ['mcts-robilliard', 'mcts-robilliard(kscore=10)'], seat: 1, paper: [22.2, 2.58] },
    ],
  },
];

/** Each table with its reasons (published-reasons.json) in place. */
export const PUBLISHED_TABLES: readonly PublishedTable[] = TABLES.map((t) => {
  const given = (REASONS as Reasons)[t.id];
  return {
    ...t,
    ...(given?.table ? { reason: given.table } : {}),
    ...(given?.cause ? { cause: given.cause } : {}),
    ...(given?.shownBy ? { shownBy: given.shownBy } : {}),
    rows: t.rows.map((row) => (given?.rows?.[row.label] ? { ...row, reason: given.rows[row.label] } : row)),
  };
});

/** The table a sweep spec's `paper` names. */
export function publishedTable(id: string): PublishedTable | undefined {
  return PUBLISHED_TABLES.find((t) => t.id === id);
}

export const PUBLISHED_IDS = PUBLISHED_TABLES.map((t) => t.id) as [string, ...string[]];
