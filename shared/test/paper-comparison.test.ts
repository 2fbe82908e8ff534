/**
 * Our numbers beside a published table (src/lab/papers/paper-comparison.ts): the verdict rule on concrete
 * numbers (its edges included), the row lookup among cells, and a sweep that names its table getting the comparison in
 * its statistics — the same code REPRODUCTION.md is written with.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AggregateFold,
  PUBLISHED_REASONS,
  PUBLISHED_TABLES,
  REPORT_RESULTS,
  Sweep,
  SweepSpecError,
  EDGE_TOLERANCE,
  EQUIVALENCE_MARGIN,
  MIN_VERDICT_GAMES,
  VERDICT_ALPHA,
  Z95,
  compareBothWays,
  comparePaper,
  findingsText,
  holmAdjust,
  parseSweepSpec,
  placementOf,
  playGame,
  publishedTable,
  rowFromCells,
  rulebookRowFromCells,
  sweepStatistics,
  verdictOf,
  type OurRow,
  type PublishedRow,
} from '../src/lab/index.js';
import { tableFixture } from './published-fixtures.js';

const table = tableFixture([{ label: 'row', seat: 0, paper: [70, 3], vp: 44, swept: { 'seats.0.it': 100 } }], { reason: 'the table reason' });
const row = table.rows[0];

/** One row's comparison, the row alone in its table (a Holm family of one). */
const one = (r: PublishedRow, ours: OurRow | undefined) => comparePaper({ ...table, rows: [r] }, () => ours).rows[0];

describe('the verdict of a row', () => {
  it('agrees: 70.5 % of 1000 against 70 ± 3, d = +0.5 in [−3.6, +4.6], inside ± 5', () => {
    const r = one(row, { games: 1000, wins: 705, vp: 43.5 });
    expect(r.verdict).toBe('agrees');
    expect([r.reason, r.direction]).toEqual([null, null]);
    expect(r.ours!.winRate).toBe(0.705);
    expect(r.ours!.halfWidth).toBeCloseTo(1.959964 * Math.sqrt((0.705 * 0.295) / 1000), 6);
    expect(r.paper).toEqual({ winRate: 0.7, halfWidth: 0.03, low: 0.67, high: 0.73, vp: 44 });
    // Both errors: ours Agresti–Coull's √(p̃(1 − p̃)/ñ), ñ = 1000 + z², p̃ = (705 + z²/2)/ñ; the paper's 0.03 / 1.96.
    const n = 1000 + Z95 ** 2;
    const adjusted = (705 + Z95 ** 2 / 2) / n;
    expect(r.difference!.estimate).toBeCloseTo(0.005, 12);
    expect(r.difference!.se).toBeCloseTo(Math.sqrt((adjusted * (1 - adjusted)) / n + (0.03 / Z95) ** 2), 12);
    expect(r.difference!.low).toBeCloseTo(-0.036196, 6);
    expect(r.difference!.high).toBeCloseTo(0.046196, 6);
    expect(r.at).toEqual({ key: 'seats.0.it', value: 100 });
  });

  it('inconclusive: 71 % of 1000 is inside the paper\'s interval, but d = +1.0 in [−3.1, +5.1] reaches past the margin', () => {
    const r = one(row, { games: 1000, wins: 710, vp: 43.5 });
    expect(r.difference!.high).toBeCloseTo(0.051100, 6);
    expect(r.difference!.p).toBeCloseTo(0.633451, 6);
    expect([r.verdict, r.reason, r.direction]).toEqual(['inconclusive', null, null]);
    // 66 % of 100 games: far off, but our error is too wide to tell.
    expect(one(row, { games: 100, wins: 66, vp: NaN }).verdict).toBe('inconclusive');
    expect(one(row, { games: 100, wins: 66, vp: NaN }).ours!.vp).toBeNull();
  });

  it("differs: 80 % of 1000 against 70 ± 3, z = 5.04, p = 4.8e-7 (the table's reason, the row's first)", () => {
    const r = one(row, { games: 1000, wins: 800, vp: 47 });
    expect(r.difference!.z).toBeCloseTo(5.035636, 5);
    expect(r.difference!.p).toBeCloseTo(4.762642e-7, 12);
    expect([r.verdict, r.reason, r.direction]).toEqual(['differs', 'the table reason', 'above']);
    expect(one({ ...row, reason: 'the row reason' }, { games: 1000, wins: 800, vp: 47 }).reason).toBe('the row reason');
    expect(comparePaper({ ...table, reason: undefined, rows: [row] }, () => ({ games: 1000, wins: 800, vp: 47 })).rows[0].reason).toBeNull();
  });

  it('the VP of the same games decides nothing: a row 20 VP off has the verdict of its win rate', () => {
    expect(one(row, { games: 1000, wins: 705, vp: 64 }).verdict).toBe('agrees');
    expect(one(row, { games: 1000, wins: 705, vp: 64 }).ours!.vp).toBe(64);
  });

  it('Table 7.5, MCTS-1000 against MCTS-100: 68.4 % of 1000 against 71.2 ± 2.8 is inconclusive (d = −2.8 in [−6.8, +1.2], p = 0.172)', () => {
    const r = one({ ...row, paper: [71.2, 2.8] }, { games: 1000, wins: 684, vp: NaN });
    expect(r.difference!.low).toBeCloseTo(-0.068151, 6);
    expect(r.difference!.high).toBeCloseTo(0.012151, 6);
    expect(r.difference!.p).toBeCloseTo(0.171686, 6);
    expect(r.verdict).toBe('inconclusive');
  });

  it('a value exactly on the margin agrees: an interval whose top is 3.0 + 2.0 = 5 points, 5.000000000000003 in binary', () => {
    const high = 0.05 + 3e-15;
    const edge = { estimate: 0.03, se: 0.02 / Z95, low: 0.01, high, z: 2.94, p: 0.0033, pHolm: 0.0033 };
    expect(high).toBeGreaterThan(EQUIVALENCE_MARGIN);
    expect(high - EQUIVALENCE_MARGIN).toBeLessThan(EDGE_TOLERANCE);
    // It agrees, although its p would also call it different: agreement is tested first.
    expect(edge.pHolm).toBeLessThan(VERDICT_ALPHA);
    expect(verdictOf(edge)).toBe('agrees');
    // A tenth of a point past the edge is no longer agreement, and the difference is significant.
    expect(verdictOf({ ...edge, high: 0.051 })).toBe('differs');
  });

  it('no verdict from a handful of games: 0 of 2 and 2 of 2 are too few games, and leave the Holm family; at 100 % our error is not 0', () => {
    // The probe: `remote submit thesis-7.5-mcts-matrix --deals 2` marked 6 of 12 rows "differs, p < 0.001" on 0/2 and 2/2.
    for (const wins of [0, 2]) {
      const r = one(row, { games: 2, wins, vp: NaN });
      expect(r.verdict).toBe('too few games');
      expect(r.difference).toBeNull();
      expect(r.ours).toMatchObject({ games: 2, wins });
    }
    const t = comparePaper({ ...table, rows: [row, { ...row, label: 'b' }] }, (r) => (r.label === 'b' ? { games: 2, wins: 0, vp: NaN } : { games: 1000, wins: 800, vp: NaN }));
    expect([t.differs, t.tooFew]).toEqual([1, 1]);
    expect(t.rows[0].difference!.pHolm).toBe(t.rows[0].difference!.p);
    expect(t.rule.minGames).toBe(MIN_VERDICT_GAMES);
    // From MIN_VERDICT_GAMES on a verdict; 100 of 100 against 97 ± 2 is then inconclusive, not "agrees" on an error of 0.
    const all = one({ ...row, paper: [97, 2] }, { games: MIN_VERDICT_GAMES, wins: MIN_VERDICT_GAMES, vp: NaN });
    expect(all.difference!.se).toBeGreaterThan(0.02 / Z95);
    expect(all.verdict).toBe('inconclusive');
    expect(one(row, { games: MIN_VERDICT_GAMES - 1, wins: 0, vp: NaN }).verdict).toBe('too few games');
  });

  it('a Holm-adjusted p exactly at α differs: eleven rows at p = 0.05 / 11 adjust to 0.05000000000000001', () => {
    const pHolm = holmAdjust(Array(11).fill(VERDICT_ALPHA / 11))[0];
    expect(pHolm).toBeGreaterThan(VERDICT_ALPHA);
    const wide = { estimate: 0.1, se: 0.05, low: 0.002, high: 0.198, z: 2, p: VERDICT_ALPHA / 11, pHolm };
    expect(verdictOf(wide)).toBe('differs');
    expect(verdictOf({ ...wide, pHolm: VERDICT_ALPHA + 1e-6 })).toBe('inconclusive');
  });

  it('not run: no games, and no say in the Holm family', () => {
    expect(one(row, undefined).verdict).toBe('not run');
    expect(one(row, { games: 0, wins: 0, vp: NaN }).ours).toBeNull();
    expect(one(row, undefined).difference).toBeNull();
  });
});

describe('the verdicts of a table: Holm over its rows', () => {
  const a: PublishedRow = { label: 'a', seat: 0, paper: [50, 3.1], agents: ['x', 'y'] };
  const b: PublishedRow = { label: 'b', seat: 1, paper: [50, 3.1], agents: ['x', 'y'] };
  const games: Record<string, OurRow> = { a: { games: 500, wins: 280, vp: NaN }, b: { games: 500, wins: 250, vp: NaN } };

  it('56 % of 500 against 50 ± 3.1 differs alone (p = 0.0277) and is inconclusive beside a second row (Holm: 0.0554)', () => {
    const alone = comparePaper({ ...table, rows: [a] }, (r) => games[r.label]);
    expect(alone.rows[0].difference!.p).toBeCloseTo(0.027338, 6);
    expect(alone.rows[0].verdict).toBe('differs');
    const both = comparePaper({ ...table, rows: [a, b] }, (r) => games[r.label]);
    expect(both.rows[0].difference!.pHolm).toBeCloseTo(0.054675, 6);
    expect(both.rows.map((r) => r.verdict)).toEqual(['inconclusive', 'inconclusive']);
    expect([both.agrees, both.inconclusive, both.differs, both.notRun]).toEqual([0, 2, 0, 0]);
    expect(both.rule).toEqual({ margin: 0.05, alpha: 0.05, tolerance: 1e-9, minGames: 100 });
  });

  it('a row not played leaves the family: the played row keeps its own p', () => {
    const c = comparePaper({ ...table, rows: [a, b] }, (r) => (r.label === 'a' ? games.a : undefined));
    expect(c.rows[0].difference!.pHolm).toBe(c.rows[0].difference!.p);
    expect([c.rows[0].verdict, c.rows[1].verdict]).toEqual(['differs', 'not run']);
    expect([c.agrees, c.inconclusive, c.differs, c.notRun]).toEqual([0, 0, 1, 1]);
  });
});

describe('rows among cells', () => {
  const cells = [
    { agents: ['a', 'x'], swept: { 'seats.0.it': 100 }, roles: [{ seat: 0, games: 10, wins: 7, meanVp: 40 }, { seat: 1, games: 10, wins: 3, meanVp: 30 }] },
    { agents: ['b', 'x'], swept: { 'seats.0.it': 250 }, roles: [{ seat: 0, games: 20, wins: 15, meanVp: 45 }, { seat: 1, games: 20, wins: 5, meanVp: 31 }] },
  ];
  it('by swept values, by agents, the first cell otherwise; a single seat order is not in the cells', () => {
    expect(rowFromCells(cells, { label: '', seat: 0, paper: [0, 0], swept: { 'seats.0.it': 250 } })).toEqual({ games: 20, wins: 15, vp: 45 });
    expect(rowFromCells(cells, { label: '', seat: 1, paper: [0, 0], agents: ['a', 'x'] })).toEqual({ games: 10, wins: 3, vp: 30 });
    expect(rowFromCells(cells, { label: '', seat: 1, paper: [0, 0], order: 'all' })).toEqual({ games: 10, wins: 3, vp: 30 });
    expect(rowFromCells(cells, { label: '', seat: 0, paper: [0, 0], order: 2 })).toBeUndefined();
    expect(rowFromCells(cells, { label: '', seat: 0, paper: [0, 0], swept: { 'seats.0.it': 500 } })).toBeUndefined();
  });

  it("counted by the rulebook, a row's agent also wins its VP ties decided on coins; unknown where the agent sits twice or the cell keeps no coin wins", () => {
    const withLabels = [
      { ...cells[0], labels: [{ label: 'a', seats: 1, coinWins: 2 }, { label: 'x', seats: 1, coinWins: 1 }] },
      { agents: ['b', 'b'], swept: { 'seats.0.it': 250 }, roles: cells[1].roles, labels: [{ label: 'b', seats: 2, coinWins: 4 }] },
    ];
    expect(rulebookRowFromCells(withLabels, { label: '', seat: 0, paper: [0, 0], agents: ['a', 'x'] })).toEqual({ games: 10, wins: 9, vp: 40 });
    expect(rulebookRowFromCells(withLabels, { label: '', seat: 1, paper: [0, 0], swept: { 'seats.0.it': 100 } })).toEqual({ games: 10, wins: 4, vp: 30 });
    expect(rulebookRowFromCells(withLabels, { label: '', seat: 0, paper: [0, 0], swept: { 'seats.0.it': 250 } })).toBeUndefined();
    expect(rulebookRowFromCells(cells, { label: '', seat: 0, paper: [0, 0], agents: ['a', 'x'] })).toBeUndefined();
    expect(rulebookRowFromCells(withLabels, { label: '', seat: 0, paper: [0, 0], order: 2 })).toBeUndefined();
  });
});

describe('the published tables', () => {
  it('every preset that names a table is the preset that table names, and every table has its preset', () => {
    const presets = new URL('../../presets/', import.meta.url);
    const named = new Map<string, string>();
    for (const file of readdirSync(presets).filter((f) => f.endsWith('.json'))) {
      const spec = JSON.parse(readFileSync(new URL(file, presets), 'utf8'));
      if (spec.paper) named.set(spec.paper, file.replace(/\.json$/, ''));
    }
    for (const t of PUBLISHED_TABLES) expect(named.get(t.id)).toBe(t.preset);
    expect(named.size).toBe(PUBLISHED_TABLES.length);
  });

  it('every reason in published-reasons.json names a table and a row that exist', () => {
    for (const [id, given] of Object.entries(PUBLISHED_REASONS)) {
      const t = publishedTable(id);
      expect(t, `published-reasons.json names table ${id}`).toBeDefined();
      for (const label of Object.keys(given.rows ?? {})) expect(t!.rows.map((r) => r.label), `${id} has a row '${label}'`).toContain(label);
    }
  });

  it('a finding is marked tested, with what tested it, or not tested; a finding without text is refused', () => {
    expect(findingsText([{ text: 'a', tested: 'run x: 1.0 %' }, { text: 'b' }])).toBe('a (*tested*: run x: 1.0 %); b (*not tested*)');
    for (const t of PUBLISHED_TABLES) for (const text of [t.cause, t.reason, ...t.rows.map((r) => r.reason)]) if (text) expect(text, t.id).toMatch(/\(\*(tested\*: .+|not tested\*)\)$/);
  });

  // The report's results (the confirmation's), both tie counts. The reasons are findings about its
  // rows; the in-sample runs' rows (history.md) are shown without them.
  it('every row the saved results of the confirmation find different, by either count, has a reason', () => {
    let differs = 0;
    for (const t of PUBLISHED_TABLES) {
      const path = new URL(`../../${REPORT_RESULTS}${t.preset}.json`, import.meta.url);
      if (!existsSync(path)) continue; // not run yet: nothing to explain
      const { strict, onCoins } = compareBothWays(t, JSON.parse(readFileSync(path, 'utf8')));
      for (const r of [...strict.rows, ...(onCoins?.rows ?? [])]) {
        if (r.verdict !== 'differs') continue;
        differs++;
        expect(r.reason, `${t.id} '${r.label}' differs: published-reasons.json gives no reason`).not.toBeNull();
      }
    }
    // The confirmation has rows that differ, so the check above ran on something.
    expect(differs).toBeGreaterThan(0);
  });

  it('a spec naming an unknown table is refused, naming the field', () => {
    try {
      parseSweepSpec({ name: 'x', paper: 'thesis-9.9', players: 3, seats: ['random', 'random', 'random'], deals: { count: 1 } });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(SweepSpecError);
      expect(String((err as Error).message)).toMatch(/paper/);
    }
  });

  it("a sweep that names its table gets the rows beside ours in its statistics, ours counted from the cells' games", () => {
    const preset = JSON.parse(readFileSync(new URL('../../presets/thesis-7.4-iterations.json', import.meta.url), 'utf8'));
    // The table's own iteration values (its rows name them), made cheap by a one-turn depth and one deal.
    const spec = parseSweepSpec({ ...preset, seats: [{ agent: 'mcts', params: { it: [100, 250, 500], depth: 1 } }, 'random', 'random'], wonders: { mode: 'random' }, deals: { count: 1 } });
    const sweep = new Sweep(spec);
    const fold = new AggregateFold();
    const games = Array.from({ length: sweep.size }, (_, k) => playGame(sweep.game(k)));
    for (const g of games) fold.add(g, placementOf(sweep, g.index));
    const paper = sweepStatistics(fold.fields, sweep).paper!;
    expect(paper.id).toBe('thesis-7.4');
    expect(paper.rows.map((r) => r.label)).toEqual(publishedTable('thesis-7.4')!.rows.map((r) => r.label));
    for (const r of paper.rows) {
      const these = games.filter((g) => sweep.cells[sweep.game(g.index).cell].swept['seats.0.it'] === r.at!.value);
      expect(r.ours!.games).toBe(these.length);
      expect(r.ours!.wins).toBe(these.filter((g) => g.players[0].winner).length);
      // One deal is a handful of games a row: shown, with no verdict (a shrunken preview says nothing it cannot).
      expect(r.ours!.games).toBeLessThan(MIN_VERDICT_GAMES);
      expect([r.verdict, r.difference]).toEqual(['too few games', null]);
    }
    expect([paper.agrees + paper.inconclusive + paper.differs + paper.notRun, paper.tooFew]).toEqual([0, 3]);
  });
});
