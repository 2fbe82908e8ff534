/**
 * Incremental sweep aggregates (src/lab/results/increments.ts): real games folded into an AggregateFold
 * and summarized must agree with statistics computed independently from the raw game summaries
 * (and with the standings of `wonderlab play`); the counting of a sweep without expanding it must
 * agree with its expansion.
 */
import fc from 'fast-check';
import { quantile, sampleStandardDeviation } from 'simple-statistics';
import { describe as group, expect, it } from 'vitest';
import { BOARDS, SCORE_CATEGORIES } from '../src/engine/index.js';
import {
  AggregateFold,
  IncrementSum,
  Sweep,
  SweepSpecError,
  Z95,
  cellLabels,
  sweepSize,
  describe,
  gameIncrements,
  histogramQuantile,
  normalHalfWidth,
  parseSweepSpec,
  placementOf,
  playGame,
  standings,
  summarizeAggregates,
  wilson,
  type CellAggregate,
  type GamePlan,
  type GameSummary,
  type PairedEstimate,
  type SweepSpecInput,
} from '../src/lab/index.js';

// ── Helpers ─────────────────────────────────────────────────────────────────

interface Played {
  sweep: Sweep;
  plans: (GamePlan & { cell: number })[];
  games: GameSummary[];
}

function playSweep(input: SweepSpecInput): Played {
  const sweep = new Sweep(parseSweepSpec(input));
  const plans = Array.from({ length: sweep.size }, (_, k) => sweep.game(k));
  return { sweep, plans, games: plans.map((p) => playGame(p)) };
}

/** Folds the games with the given sweep indices (all by default), in that order. */
function fold(p: Played, ks: readonly number[] = p.games.map((_, k) => k)): AggregateFold {
  const f = new AggregateFold();
  for (const k of ks) f.add(p.games[k], placementOf(p.sweep, k));
  return f;
}

function summarize(p: Played, f: AggregateFold): CellAggregate[] {
  return summarizeAggregates(f.fields, p.sweep.cells, p.sweep.gamesPerCell);
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Rate estimates over complete paired groups, computed from the raw games of one cell. */
function pairedByHand(p: Played, cell: number, ks: readonly number[] = p.games.map((_, k) => k)) {
  const groups = new Map<string, GameSummary[]>();
  for (const k of ks) {
    const plan = p.plans[k];
    if (plan.cell !== cell) continue;
    const key = `${plan.set}/${plan.deal}`;
    groups.set(key, [...(groups.get(key) ?? []), p.games[k]]);
  }
  const complete = [...groups.values()].filter((gs) => gs.length === p.sweep.ordersPerDeal);
  /** Per complete group: role (the spec's seat of the agent) → wins / games. */
  const roleRates = complete.map((gs) => {
    const wins = new Map<number, number>();
    const games = new Map<number, number>();
    for (const g of gs) {
      const order = p.sweep.orders[g.seating];
      for (const pl of g.players) {
        const role = order[pl.seat];
        games.set(role, (games.get(role) ?? 0) + 1);
        wins.set(role, (wins.get(role) ?? 0) + (pl.winner ? 1 : 0));
      }
    }
    return new Map([...games].map(([r, n]) => [r, wins.get(r)! / n]));
  });
  /** Per complete group: label → wins / seats over the group's games. */
  const rates = complete.map((gs) => {
    const wins = new Map<string, number>();
    const seats = new Map<string, number>();
    for (const g of gs) {
      for (const pl of g.players) {
        seats.set(pl.agent, (seats.get(pl.agent) ?? 0) + 1);
        wins.set(pl.agent, (wins.get(pl.agent) ?? 0) + (pl.winner ? 1 : 0));
      }
    }
    return new Map([...seats].map(([a, s]) => [a, wins.get(a)! / s]));
  });
  const estimate = (xs: number[]): PairedEstimate | undefined =>
    xs.length === 0
      ? undefined
      : {
          groups: xs.length,
          mean: mean(xs),
          halfWidth: xs.length > 1 ? (Z95 * sampleStandardDeviation(xs)) / Math.sqrt(xs.length) : NaN,
        };
  return {
    complete: complete.length,
    label: (agent: string) => estimate(rates.map((r) => r.get(agent)!)),
    difference: (a: string, b: string) => estimate(rates.map((r) => r.get(a)! - r.get(b)!)),
    role: (seat: number) => estimate(roleRates.map((r) => r.get(seat)!)),
    roleDifference: (a: number, b: number) => estimate(roleRates.map((r) => r.get(a)! - r.get(b)!)),
  };
}

function expectEstimate(actual: PairedEstimate | undefined, expected: PairedEstimate | undefined) {
  if (expected === undefined) {
    expect(actual).toBeUndefined();
    return;
  }
  expect(actual).toBeDefined();
  expect(actual!.groups).toBe(expected.groups);
  expect(actual!.mean).toBeCloseTo(expected.mean, 10);
  if (Number.isNaN(expected.halfWidth)) expect(actual!.halfWidth).toBeNaN();
  else expect(actual!.halfWidth).toBeCloseTo(expected.halfWidth, 10);
}

/** Deep equality with floats compared to 9 decimals (NaN equals NaN). */
function expectClose(actual: unknown, expected: unknown, path = '$'): void {
  if (typeof expected === 'number') {
    expect(typeof actual, path).toBe('number');
    if (Number.isNaN(expected)) expect(actual, path).toBeNaN();
    else if (Number.isInteger(expected) && Number.isInteger(actual)) expect(actual, path).toBe(expected);
    else expect(actual as number, path).toBeCloseTo(expected, 9);
  } else if (Array.isArray(expected)) {
    expect(Array.isArray(actual), path).toBe(true);
    expect((actual as unknown[]).length, path).toBe(expected.length);
    expected.forEach((x, i) => expectClose((actual as unknown[])[i], x, `${path}[${i}]`));
  } else if (expected && typeof expected === 'object') {
    expect(actual && typeof actual === 'object', path).toBeTruthy();
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [k, v] of Object.entries(expected)) expectClose((actual as Record<string, unknown>)[k], v, `${path}.${k}`);
  } else {
    expect(actual, path).toEqual(expected);
  }
}

/** Checks one cell's aggregate against statistics computed directly from its games. */
function checkCellAgainstRawGames(p: Played, agg: CellAggregate) {
  const cell = p.sweep.cells[agg.index];
  const ks = p.plans.map((plan, k) => (plan.cell === cell.index ? k : -1)).filter((k) => k >= 0);
  const games = ks.map((k) => p.games[k]);
  expect(agg.agents).toEqual(cell.agents);
  expect(agg.swept).toEqual(cell.swept);
  expect(agg.games).toBe(games.length);
  expect(agg.decidedBy).toEqual({
    vp: games.filter((g) => g.decidedBy === 'vp').length,
    coins: games.filter((g) => g.decidedBy === 'coins').length,
    shared: games.filter((g) => g.decidedBy === 'shared').length,
  });
  expect(agg.labels.map((l) => l.label)).toEqual([...new Set(cell.agents)]);

  const rows = new Map(standings(games).map((r) => [r.agent, r]));
  for (const L of agg.labels) {
    const entries = games.flatMap((g, i) => g.players.filter((pl) => pl.agent === L.label).map((pl) => ({ g, pl, i })));
    const n = entries.length;
    const wins = entries.filter((e) => e.pl.winner).length;
    const best = (g: GameSummary) => Math.max(...g.players.map((q) => q.score.total));
    const atBest = (g: GameSummary) => g.players.filter((q) => q.score.total === best(g)).length;
    const vps = entries.map((e) => e.pl.score.total);

    expect(L.seats).toBe(cell.agents.filter((a) => a === L.label).length);
    expect(L.games).toBe(n);
    expect(n).toBe(games.length * L.seats);
    expect(L.wins).toBe(wins);
    expect(L.ties).toBe(entries.filter((e) => e.pl.score.total === best(e.g) && atBest(e.g) > 1).length);
    expect(L.coinWins).toBe(entries.filter((e) => e.g.decidedBy === 'coins' && e.g.winners.includes(e.pl.seat)).length);
    expect(L.winRate).toBe(wins / n);
    expect(L.halfWidth).toBeCloseTo(normalHalfWidth(wins, n, Z95), 12);
    expect(L.wilson.low).toBeCloseTo(wilson(wins, n).low, 12);
    expect(L.wilson.high).toBeCloseTo(wilson(wins, n).high, 12);

    const d = describe(vps);
    expect(L.vp.n).toBe(d.n);
    for (const k of ['mean', 'sd', 'min', 'q1', 'median', 'q3', 'max'] as const) expect(L.vp[k], `vp.${k}`).toBeCloseTo(d[k], 9);

    for (const cat of SCORE_CATEGORIES) expect(L.score[cat], cat).toBeCloseTo(mean(entries.map((e) => e.pl.score[cat])), 9);
    expect(L.meanStages).toBeCloseTo(mean(entries.map((e) => e.pl.stages)), 9);
    expect(L.ranks).toEqual(cell.agents.map((_, r) => entries.filter((e) => e.pl.rank === r + 1).length));
    const decisions = entries.reduce((s, e) => s + e.pl.decisions, 0);
    expect(L.decisionMs).toBeCloseTo(entries.reduce((s, e) => s + e.pl.decisionMs * e.pl.decisions, 0) / decisions, 9);
    expect(L.cutShort).toBe(entries.reduce((s, e) => s + e.pl.cutShort, 0));

    // Per wonder board and side (the aggregate names a board by its city).
    const byWonder = new Map<string, typeof entries>();
    for (const e of entries) byWonder.set(`${e.pl.city}:${e.pl.side}`, [...(byWonder.get(`${e.pl.city}:${e.pl.side}`) ?? []), e]);
    expect(L.wonders.map((w) => `${w.wonder}:${w.side}`).sort()).toEqual([...byWonder.keys()].sort());
    for (const w of L.wonders) {
      const es = byWonder.get(`${w.wonder}:${w.side}`)!;
      const ww = es.filter((e) => e.pl.winner).length;
      expect(w.games).toBe(es.length);
      expect(w.wins).toBe(ww);
      expect(w.winRate).toBe(ww / es.length);
      expect(w.meanStages).toBeCloseTo(mean(es.map((e) => e.pl.stages)), 9);
      expect(w.meanVp).toBeCloseTo(mean(es.map((e) => e.pl.score.total)), 9);
    }

    // Cards built by this label's winning cities.
    const cards = new Map<string, number>();
    for (const e of entries) if (e.pl.winner) for (const c of e.pl.built) cards.set(c, (cards.get(c) ?? 0) + 1);
    expect(new Map(L.cards.map((c) => [c.card, c.count]))).toEqual(cards);
    for (const c of L.cards) expect(c.frequency).toBeCloseTo(c.count / wins, 12);
    for (let i = 1; i < L.cards.length; i++) expect(L.cards[i - 1].count).toBeGreaterThanOrEqual(L.cards[i].count);
    // Each card's base rate over all of the label's games, won or not, and the lift over it.
    for (const c of L.cards) {
      const withCard = entries.filter((e) => e.pl.built.includes(c.card)).length;
      expect(c.games).toBe(withCard);
      expect(c.baseRate).toBeCloseTo(withCard / entries.length, 12);
      expect(c.lift).toBeCloseTo(c.count / wins / (withCard / entries.length), 9);
    }

    // Progression: cumulative win rate over the cell's games in play order (the queue's order:
    // deal by deal), one bucket per game when ≤ 100 games.
    const last = L.progression[L.progression.length - 1];
    expect(last.games).toBe(n);
    expect(last.winRate).toBeCloseTo(wins / n, 12);
    if (p.sweep.gamesPerCell <= 100) {
      let g = 0;
      let w = 0;
      const played = [...ks].sort((x, y) => p.sweep.playRank(x) - p.sweep.playRank(y)).map((k) => p.games[k]);
      const curve = played.map((game) => {
        for (const pl of game.players) if (pl.agent === L.label) (g++, (w += pl.winner ? 1 : 0));
        return { games: g, winRate: w / g };
      });
      expectClose(L.progression, curve);
    }

    // The standings of `wonderlab play` over the same games.
    const row = rows.get(L.label)!;
    expect(row).toBeDefined();
    expect(L.games).toBe(row.games);
    expect(L.wins).toBe(row.wins);
    expect(L.ties).toBe(row.ties);
    expect(L.winRate).toBe(row.winRate);
    expect(L.halfWidth).toBeCloseTo(row.winRateHalfWidth, 12);
    expectClose(L.wilson, row.wilson);
    expectClose(L.vp, row.vp);
    expect(L.decisionMs).toBeCloseTo(row.decisionMs, 9);
  }
  expect(rows.size).toBe(agg.labels.length);
}

// ── A real sweep, folded ────────────────────────────────────────────────────

const rotateSpec: SweepSpecInput = {
  name: 'aggregates: rotate',
  players: 3,
  seats: ['random', 'rulebased', 'rulebased'],
  deals: { firstSeed: 11, count: 10 },
  seating: 'rotate',
};

const swapSpec: SweepSpecInput = {
  name: 'aggregates: swap',
  players: 3,
  // Close enough in strength that per-group rates vary; 'rulebased' is pooled over two seats.
  seats: ['rulebased-dawieang', 'rulebased', 'rulebased'],
  deals: { firstSeed: 5, count: 15 },
  seating: 'swap',
};

group('AggregateFold + summarizeAggregates on a played sweep', () => {
  const rotate = playSweep(rotateSpec);
  const [agg] = summarize(rotate, fold(rotate));

  it('the sweep is what the test assumes (one cell, 30 games, 3 orders per deal)', () => {
    expect(rotate.sweep.cells).toHaveLength(1);
    expect(rotate.games).toHaveLength(30);
    expect(rotate.sweep.ordersPerDeal).toBe(3);
    expect(cellLabels(rotate.sweep.cells[0])).toEqual(['random', 'rulebased']);
  });

  it('per label: games, wins, ties, coin wins, rates, intervals, VP summary, scores, stages, ranks, wonders, cards, progression', () => {
    checkCellAgainstRawGames(rotate, agg);
    // The fixture exercises ties and a coin win.
    expect(agg.decidedBy.coins).toBeGreaterThan(0);
    expect(agg.labels.some((l) => l.ties > 0 && l.coinWins > 0)).toBe(true);
    // Pooling: rulebased sits in two seats of every game.
    expect(agg.labels.map((l) => l.games)).toEqual([30, 60]);
  });

  it('the rotate design is paired too: per (deal) group win rates over the three orders', () => {
    const hand = pairedByHand(rotate, 0);
    expect(hand.complete).toBe(10);
    for (const L of agg.labels) expectEstimate(L.paired, hand.label(L.label));
    // No compared pair without swap seats or a matchup.
    expect(agg.pairedDifference).toBeUndefined();
  });

  it('the fold does not depend on the order games arrive in', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...rotate.games.keys()], { minLength: 30, maxLength: 30 }), (order) => {
        expectClose(summarize(rotate, fold(rotate, order)), [agg]);
      }),
      { numRuns: 15 },
    );
  });

  it('reads the same table as Redis returns it (a record of strings)', () => {
    const f = fold(rotate);
    const asRedis = Object.fromEntries([...f.fields].map(([k, v]) => [k, String(v)]));
    expectClose(summarizeAggregates(asRedis, rotate.sweep.cells, rotate.sweep.gamesPerCell), [agg]);
  });

  it('the increments of one game add up to its seats and agree with the summary', () => {
    const g = rotate.games[4];
    const inc = gameIncrements(g, placementOf(rotate.sweep, 4));
    expect(inc.get('c0|n')).toBe(1);
    expect(inc.get(`c0|dec:${g.decidedBy}`)).toBe(1);
    const labels = ['random', 'rulebased'];
    labels.forEach((label, L) => {
      const seats = g.players.filter((p) => p.agent === label);
      expect(inc.get(`c0|L${L}|g`)).toBe(seats.length);
      expect(inc.get(`c0|L${L}|vp`)).toBe(seats.reduce((s, p) => s + p.score.total, 0));
      expect(inc.get(`c0|L${L}|vp2`)).toBe(seats.reduce((s, p) => s + p.score.total ** 2, 0));
      expect(inc.get(`c0|L${L}|w`) ?? 0).toBe(seats.filter((p) => p.winner).length);
    });
    // Zero deltas are left out.
    for (const v of inc.values()) expect(v).not.toBe(0);
  });
});

group('paired estimates (seating swap)', () => {
  const swap = playSweep(swapSpec);
  const [agg] = summarize(swap, fold(swap));

  it('two orders per deal; seat 0 and 1 trade agents', () => {
    expect(swap.sweep.ordersPerDeal).toBe(2);
    expect(swap.sweep.cells[0].compared).toEqual([0, 1]);
    expect(swap.plans[0].agents).toEqual(['rulebased-dawieang', 'rulebased', 'rulebased']);
    expect(swap.plans[1].agents).toEqual(['rulebased', 'rulebased-dawieang', 'rulebased']);
    expect(swap.plans[0].deal).toBe(swap.plans[1].deal);
  });

  it('all the per-label statistics still agree with the raw games', () => {
    checkCellAgainstRawGames(swap, agg);
  });

  it('per label: mean of per-group win rates, groups, and 1.96·sd/√n', () => {
    const hand = pairedByHand(swap, 0);
    expect(hand.complete).toBe(15);
    for (const L of agg.labels) {
      expect(L.paired?.groups).toBe(15);
      expectEstimate(L.paired, hand.label(L.label));
    }
  });

  it("the cell's paired difference is the compared roles' rate difference (first minus second)", () => {
    const hand = pairedByHand(swap, 0);
    expect(agg.pairedDifference?.labels).toEqual(['rulebased-dawieang', 'rulebased']);
    expect(agg.pairedDifference?.seats).toEqual([0, 1]);
    expectEstimate(agg.pairedDifference, hand.roleDifference(0, 1));
    // The fixture's group rates vary, so the interval is really exercised.
    expect(agg.pairedDifference!.halfWidth).toBeGreaterThan(0);
    // The difference of means is the mean of differences.
    expect(agg.pairedDifference!.mean).toBeCloseTo(agg.roles[0].paired!.mean - agg.roles[1].paired!.mean, 12);
  });

  it("roles follow the spec's seat 1 agent alone, though 'rulebased' also sits in seat 2", () => {
    const hand = pairedByHand(swap, 0);
    const games = swap.games.filter((_, k) => swap.plans[k].cell === 0);
    agg.roles.forEach((role, seat) => {
      expect(role.agent).toBe(swap.sweep.cells[0].agents[seat]);
      expect(role.games).toBe(games.length);
      const wins = games.filter((g) => g.players.some((pl) => pl.winner && swap.sweep.orders[g.seating][pl.seat] === seat)).length;
      expect(role.wins).toBe(wins);
      expectEstimate(role.paired, hand.role(seat));
    });
    // The label pools seats 1 and 2: twice the games of the seat-1 role.
    expect(agg.labels.find((l) => l.label === 'rulebased')!.games).toBe(2 * agg.roles[1].games);
  });

  it('an incomplete group contributes nothing to the paired estimates until its other game is in', () => {
    const all = swap.games.map((_, k) => k);
    const missing = 7; // deal 3, second order: its partner (6) is folded, it is not
    const ks = all.filter((k) => k !== missing);
    const [partial] = summarize(swap, fold(swap, ks));
    const hand = pairedByHand(swap, 0, ks);
    expect(hand.complete).toBe(14);
    expect(partial.games).toBe(29);
    for (const L of partial.labels) {
      expect(L.paired?.groups).toBe(14);
      expectEstimate(L.paired, hand.label(L.label));
    }
    expect(partial.pairedDifference?.groups).toBe(14);
    expectEstimate(partial.pairedDifference, hand.roleDifference(0, 1));

    // One game alone: counted, but no paired estimate at all.
    const [one] = summarize(swap, fold(swap, [0]));
    expect(one.games).toBe(1);
    expect(one.labels[0].games).toBe(1);
    for (const L of one.labels) expect(L.paired).toBeUndefined();
    expect(one.pairedDifference).toBeUndefined();
    // Its partner completes the group: one group, half-width undefined (NaN) with n = 1.
    const [two] = summarize(swap, fold(swap, [1, 0]));
    expect(two.labels[1].paired).toEqual({ groups: 1, mean: pairedByHand(swap, 0, [0, 1]).label('rulebased')!.mean, halfWidth: NaN });
    expect(two.pairedDifference?.groups).toBe(1);
  });
});

group('a matchup sweep', () => {
  const specs = ['random', 'rulebased', 'rulebased-robilliard'];
  const matchup = playSweep({
    name: 'aggregates: matchup',
    players: 3,
    seats: ['random', 'random', 'random'],
    matchup: { specs, seats: [0, 1] },
    deals: { firstSeed: 3, count: 2 },
    seating: 'swap',
  });
  const aggs = summarize(matchup, fold(matchup));
  const pairs = specs.flatMap((x) => specs.filter((y) => y !== x).map((y) => [x, y]));

  it('has a cell per ordered pair of specs, with the matchup values as swept values', () => {
    expect(pairs).toHaveLength(6);
    expect(matchup.sweep.cells).toHaveLength(6);
    expect(matchup.sweep.cells.map((c) => c.agents)).toEqual(pairs.map(([x, y]) => [x, y, 'random']));
    expect(matchup.sweep.cells.map((c) => c.swept)).toEqual(pairs.map(([x, y]) => ({ 'matchup.0': x, 'matchup.1': y })));
    expect(matchup.sweep.cells.every((c) => c.compared?.[0] === 0 && c.compared[1] === 1)).toBe(true);
  });

  it('summarizes to one CellAggregate per cell, with its agents, and statistics matching the raw games', () => {
    expect(aggs).toHaveLength(6);
    aggs.forEach((agg, i) => {
      expect(agg.index).toBe(i);
      expect(agg.agents).toEqual([...pairs[i], 'random']);
      expect(agg.games).toBe(matchup.sweep.gamesPerCell);
      checkCellAgainstRawGames(matchup, agg);
      const hand = pairedByHand(matchup, i);
      expect(agg.pairedDifference?.labels).toEqual(pairs[i]);
      expectEstimate(agg.pairedDifference, hand.difference(pairs[i][0], pairs[i][1]));
    });
  });
});

// ── histogramQuantile ───────────────────────────────────────────────────────

group('histogramQuantile', () => {
  it("equals simple-statistics' quantile (linear, type 7) of the expanded data", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -10, max: 80 }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom(0, 0.25, 0.5, 0.75, 1),
        (xs, p) => {
          const counts = new Map<number, number>();
          for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
          const hist = [...counts].sort((a, b) => a[0] - b[0]);
          const expected = quantile([...xs].sort((a, b) => a - b), p);
          expect(histogramQuantile(hist, xs.length, p)).toBeCloseTo(expected, 12);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ── sweepSize ─────────────────────────────────────────────────────────

const agentArb = fc.constantFrom('random', 'rulebased', 'rulebased-robilliard', 'mcts:5', 'mcts(it=7,c=0.3)');
const mctsSeatArb = fc.record({
  agent: fc.constant('mcts'),
  params: fc.record({
    it: fc.oneof(fc.constantFrom(10, 20), fc.uniqueArray(fc.constantFrom(10, 20, 30), { minLength: 1, maxLength: 2 })),
    c: fc.oneof(fc.constant(0.5), fc.uniqueArray(fc.constantFrom(0.3, 0.5, 0.7), { minLength: 1, maxLength: 3 })),
  }),
});

const specArb: fc.Arbitrary<SweepSpecInput> = fc.integer({ min: 3, max: 5 }).chain((players) =>
  fc
    .record({
      seats: fc.array(fc.oneof({ weight: 2, arbitrary: agentArb }, { weight: 1, arbitrary: mctsSeatArb }), { minLength: players, maxLength: players }),
      seating: fc.constantFrom(...(players <= 4 ? (['fixed', 'rotate', 'swap', 'permute'] as const) : (['fixed', 'rotate', 'swap'] as const))),
      swap: fc.option(fc.uniqueArray(fc.integer({ min: 0, max: players - 1 }), { minLength: 2, maxLength: 2 }), { nil: undefined }),
      wonders: fc.oneof(
        fc.constant({ mode: 'random' as const }),
        fc.constant({ mode: 'robilliard' as const }),
        fc.record({
          mode: fc.constant('fixed' as const),
          sets: fc.array(fc.shuffledSubarray([...BOARDS.keys()], { minLength: players, maxLength: players }), { minLength: 1, maxLength: 3 }),
        }),
      ),
      deals: fc.integer({ min: 1, max: 3 }),
      matchup: fc.option(
        fc.record({
          specs: fc.uniqueArray(agentArb, { minLength: 2, maxLength: 4 }),
          seats: fc.uniqueArray(fc.integer({ min: 0, max: players - 1 }), { minLength: 2, maxLength: 2 }),
        }),
        { nil: undefined },
      ),
    })
    .map(({ seats, seating, swap, wonders, deals, matchup }) => ({
      name: 'generated',
      players,
      seats,
      seating,
      ...(seating === 'swap' && swap ? { swapSeats: swap as [number, number] } : {}),
      wonders,
      deals: { count: deals },
      ...(matchup ? { matchup: { specs: matchup.specs, seats: matchup.seats as [number, number] } } : {}),
    })),
);

group('sweepSize', () => {
  it('counts the cells and games of the expanded sweep', () => {
    fc.assert(
      fc.property(specArb, (input) => {
        const sweepsMatchupSeat = input.matchup?.seats.some((q) => {
          const seat = input.seats[q];
          return typeof seat !== 'string' && Object.values(seat.params ?? {}).some((v) => Array.isArray(v) && v.length > 1);
        });
        if (sweepsMatchupSeat) {
          // A matchup seat's agents come from matchup.specs: sweeping its parameters too is refused.
          expect(() => parseSweepSpec(input)).toThrow(/cannot also sweep parameters/);
          return;
        }
        const spec = parseSweepSpec(input);
        const sweep = new Sweep(spec);
        const count = sweepSize(spec);
        expect(count.total).toBe(sweep.size);
        expect(count.cells).toBe(sweep.cells.length);
        expect(count.gamesPerCell).toBe(sweep.gamesPerCell);
        // Every cell has the spec's number of seats and records the swept values it was built from.
        for (const cell of sweep.cells) {
          expect(cell.agents).toHaveLength(spec.players);
          if (spec.matchup) {
            const [a, b] = spec.matchup.seats;
            expect(cell.swept[`matchup.${a}`]).toBe(cell.agents[a]);
            expect(cell.swept[`matchup.${b}`]).toBe(cell.agents[b]);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a known case: 2 × 3 mcts variants, a 3-spec matchup, robilliard sets, permuted seats', () => {
    const spec = parseSweepSpec({
      name: 'known',
      players: 4,
      seats: [{ agent: 'mcts', params: { it: [10, 20], c: [0.3, 0.5, 0.7] } }, 'random', 'random', 'rulebased'],
      matchup: { specs: ['random', 'rulebased', 'mcts:5'], seats: [1, 2] },
      wonders: { mode: 'robilliard' },
      deals: { count: 2 },
      seating: 'permute',
    });
    // 6 variants × 6 ordered pairs; 20 sets × 2 deals × 4! orders.
    expect(sweepSize(spec)).toMatchObject({ cells: 36, gamesPerCell: 960, total: 34560 });
    const sweep = new Sweep(spec);
    expect(sweep.cells).toHaveLength(36);
    expect(sweep.size).toBe(34560);
  });
});

/**
 * A spec whose matchup lists the same spec twice would expand into duplicated pairs (or none): it
 * is refused with a SweepSpecError naming the second listing. Returns the error; fails the test
 * when the spec is accepted.
 */
function refusal(input: SweepSpecInput): SweepSpecError {
  try {
    parseSweepSpec(input);
  } catch (err) {
    expect(err).toBeInstanceOf(SweepSpecError);
    return err as SweepSpecError;
  }
  return expect.unreachable(`the spec was accepted: ${JSON.stringify(input.matchup)}`);
}

group('repeated matchup specs are refused', () => {
  const base = { name: 'dup', players: 3, seats: ['random', 'random', 'random'], deals: { count: 1 } };

  it('a repeated spec is refused (it would expand into duplicated pairs)', () => {
    const err = refusal({ ...base, matchup: { specs: ['random', 'rulebased', 'random'], seats: [0, 1] } });
    expect(err.field).toBe('matchup.specs.2');
    expect(err.message).toMatch(/'random' is listed twice/);
  });

  it('a single distinct spec is refused (no pair to play)', () => {
    const err = refusal({ ...base, matchup: { specs: ['random', 'random'], seats: [0, 1] } });
    expect(err.field).toBe('matchup.specs.1');
    expect(err.message).toMatch(/'random' is listed twice/);
  });

  it('the same specs, each listed once, are accepted: the refusals above are for the repetition', () => {
    expect(new Sweep(parseSweepSpec({ ...base, matchup: { specs: ['random', 'rulebased'], seats: [0, 1] } })).cells).toHaveLength(2);
  });
});

// ── Errors ──────────────────────────────────────────────────────────────────

group('gameIncrements errors', () => {
  it("names the game and the agent when a player's agent is not one of the placement's labels", () => {
    const p = playSweep({ ...rotateSpec, deals: { count: 1 } });
    const at = placementOf(p.sweep, 0);
    const bad = { ...at, labels: ['rulebased'] };
    expect(() => gameIncrements(p.games[0], bad)).toThrow(`game ${p.games[0].id}: agent 'random' is not one of its cell's agents`);
    expect(() => new AggregateFold().add(p.games[0], bad)).toThrow(/agent 'random' is not one of its cell's agents/);
    // A placement from another sweep's cell.
    const renamed = { ...p.games[0], players: p.games[0].players.map((pl) => ({ ...pl, agent: pl.agent === 'random' ? 'mcts:5' : pl.agent })) };
    expect(() => gameIncrements(renamed, at)).toThrow(/agent 'mcts:5'/);
  });
});

group('IncrementSum', () => {
  it('sums field by field across games and sums made elsewhere; a field that ever took a fraction stays a float', () => {
    const a = new IncrementSum();
    a.add(new Map([['n', 1], ['ms', 0.25], ['w', 1]]));
    a.add(new Map([['n', 1], ['ms', 0.75], ['w', -1]]));
    const b = new IncrementSum();
    b.addSummed(a.summed());
    b.add([['n', 2], ['x', 3]]);
    const summed = b.summed();
    expect(Object.fromEntries(summed.fields.map((f, i) => [f, [summed.sums[i], summed.floats[i]]]))).toEqual({ n: [4, false], ms: [1, true], w: [0, false], x: [3, false] });
    // For the scripts: zero sums left out, a float written with 17 digits even when whole.
    expect(b.forScript()).toEqual([
      ['n', '4'],
      ['ms', (1).toPrecision(17)],
      ['x', '3'],
    ]);
  });
});
