/**
 * REPRODUCTION.md's summary of a table (src/lab/papers/reproduction-summary.ts): its counts and
 * the cause its line gives. The committed report's counts are counted again, row by row, from the
 * folder it is made from (REPORT_RESULTS, the confirmation run's) in
 * test/reproduction-report.test.ts, beside reports made from an empty and a fixture folder: that
 * test needs the report's script (reproduction/scripts/report.mjs), which this package does not hold.
 */
import { describe, expect, it } from 'vitest';
import { compareBothWays, comparePaper, compareStoredOnCoins, findingsText, summarizeTable, type PublishedTable, type StoredResult } from '../src/lab/index.js';
import { tableFixture } from './published-fixtures.js';

const table = tableFixture([
  { label: 'a', seat: 0, paper: [70, 3], agents: ['x'] },
  { label: 'b', seat: 0, paper: [50, 3], agents: ['y'] },
  { label: 'c', seat: 0, paper: [50, 3], agents: ['z'] },
]);
const games = { a: { games: 1000, wins: 800, vp: NaN }, b: { games: 500, wins: 251, vp: NaN } } as const;
const compared = (t: PublishedTable) => comparePaper(t, (r) => games[r.label as keyof typeof games]);

describe('the summary of a table', () => {
  it('counts the verdicts and the games per played row', () => {
    const s = summarizeTable(table, compared(table));
    expect(s).toMatchObject({ rows: 3, agrees: 0, inconclusive: 1, differs: 1, notRun: 1, games: { min: 500, max: 1000 } });
  });

  it('the cause as the findings print it, "no cause given" without one; none without a row that differs by either count', () => {
    const cause = findingsText([{ text: 'ties', tested: 'the coin count' }, { text: 'K_UCT' }]);
    expect(cause).toBe('ties (*tested*: the coin count); K_UCT (*not tested*)');
    expect(summarizeTable({ ...table, cause }, compared(table)).cause).toBe(cause);
    expect(summarizeTable(table, compared(table)).cause).toBe('no cause given (*not tested*)');
    const none = comparePaper(table, () => undefined);
    expect(summarizeTable({ ...table, cause }, none)).toMatchObject({ cause: null, games: null, notRun: 3 });
    // A row that differs only when ties go to more coins still calls for the cause.
    expect(summarizeTable({ ...table, cause }, none, compared(table)).cause).toBe(cause);
  });
});

describe('a table counted with VP ties on coins', () => {
  // Two cells, each agent in one seat: 1000 games, `a` wins 600 strictly and 30 more on coins.
  const cell = (agents: string[], wins: number, coinWins: number) => ({
    agents,
    swept: {},
    roles: [{ seat: 0, games: 1000, wins, meanVp: 40 }, { seat: 1, games: 1000, wins: 1000 - wins - 60, meanVp: 38 }],
    labels: [{ label: agents[0], seats: 1, coinWins }, { label: agents[1], seats: 1, coinWins: 10 }],
  });
  const result: StoredResult = { cells: [cell(['a', 'b'], 600, 30), cell(['c', 'd'], 500, 0)] };
  const rows = [
    { label: 'a', seat: 0, paper: [63, 3] as const, agents: ['a', 'b'] },
    { label: 'c', seat: 0, paper: [50, 3] as const, agents: ['c', 'd'] },
  ];
  const silent = tableFixture(rows, { ties: 'unstated' });

  it("adds the row agent's coin wins, and judges by the same rule with its own Holm family", () => {
    const coins = compareStoredOnCoins(silent, result)!;
    expect(coins.rows.map((r) => r.ours!.wins)).toEqual([630, 500]);
    // 60.0 % against 63 ± 3 is not shown inside ±5; 63.0 % is.
    expect(comparePaper(silent, (r) => ({ games: 1000, wins: r.label === 'a' ? 600 : 500, vp: 40 })).rows[0].verdict).toBe('inconclusive');
    expect(coins.rows[0].verdict).toBe('agrees');
  });

  it('both ways only where the paper does not say how it counts a tie, and only when every played row can be counted', () => {
    expect(compareBothWays(silent, result).onCoins).toBeDefined();
    expect(compareBothWays(tableFixture(rows, { ties: 'strict' }), result).onCoins).toBeUndefined();
    expect(compareBothWays(silent, undefined).onCoins).toBeUndefined();
    // `c` holding both seats of its cell: its coin wins are not its seat's, so the table is not counted on coins at all.
    const shared = { cells: [result.cells[0], { ...result.cells[1], labels: [{ label: 'c', seats: 2, coinWins: 5 }] }] };
    expect(compareStoredOnCoins(silent, shared)).toBeUndefined();
  });

  it("the summary carries the coin count beside the strict one, and the paper's rule", () => {
    const { strict, onCoins } = compareBothWays(silent, result);
    expect(summarizeTable(silent, strict, onCoins)).toMatchObject({ ties: 'unstated', agrees: 1, inconclusive: 1, onCoins: { agrees: 2, inconclusive: 0, differs: 0, notRun: 0 } });
    expect(summarizeTable(table, compared(table))).toMatchObject({ ties: 'strict', onCoins: null });
  });
});
