/**
 * The lab library (src/lab): interval statistics, the tournament setups and seat orders, game
 * plans, playing one game, and the standings.
 */
import { describe as group, expect, it } from 'vitest';
import { MCTS_DEFAULTS } from '../src/agents/index.js';
import { BOARDS, CARDS, SCORE_CATEGORIES, recordFromLog } from '../src/engine/index.js';
import {
  ROBILLIARD_DEALS,
  ROBILLIARD_SETS,
  THESIS_DEALS,
  THESIS_WONDER_SETS,
  Standings,
  Z95,
  describe,
  formatStandings,
  normalHalfWidth,
  planTournament,
  playGame,
  seatOrders,
  standings,
  wilson,
  type GamePlan,
  type GameSummary,
  type PlayerSummary,
  type TournamentOptions,
} from '../src/lab/index.js';

// ── Statistics ──────────────────────────────────────────────────────────────

/** The textbook Wilson score interval, written out independently of stats.ts. */
function textbookWilson(k: number, n: number, z: number): [number, number] {
  const p = k / n;
  const denom = 1 + (z * z) / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [(centre - spread) / denom, (centre + spread) / denom];
}

group('stats: wilson', () => {
  it('matches reference values (checked with scipy.stats.binomtest(...).proportion_ci(method="wilson"))', () => {
    // scipy 1.17: binomtest(81, 100).proportion_ci(0.95, 'wilson') = (0.7222115462093562, 0.8748524849023126)
    const w = wilson(81, 100);
    expect(w.low).toBeCloseTo(0.7222115462, 8);
    expect(w.high).toBeCloseTo(0.8748524849, 8);
    // binomtest(5, 10): (0.236593090512564, 0.7634069094874361)
    expect(wilson(5, 10).low).toBeCloseTo(0.2365930905, 8);
    expect(wilson(5, 10).high).toBeCloseTo(0.7634069095, 8);
    // binomtest(1, 20): (0.008881448800795402, 0.23613119344674205)
    expect(wilson(1, 20).low).toBeCloseTo(0.0088814488, 8);
    expect(wilson(1, 20).high).toBeCloseTo(0.2361311934, 8);
  });

  it('agrees with the textbook formula over many (k, n), and contains p', () => {
    for (const n of [1, 2, 5, 10, 37, 100, 1050]) {
      for (const k of new Set([0, 1, Math.floor(n / 3), Math.floor(n / 2), n - 1, n])) {
        if (k < 0 || k > n) continue;
        const [lo, hi] = textbookWilson(k, n, Z95);
        const w = wilson(k, n);
        expect(w.low).toBeCloseTo(Math.max(0, lo), 12);
        expect(w.high).toBeCloseTo(Math.min(1, hi), 12);
        expect(w.low).toBeLessThanOrEqual(k / n + 1e-12);
        expect(w.high).toBeGreaterThanOrEqual(k / n - 1e-12);
        expect(w.low).toBeGreaterThanOrEqual(0);
        expect(w.high).toBeLessThanOrEqual(1);
      }
    }
  });

  it('at the edges: 0 of 10 starts at 0, 10 of 10 ends at 1 (scipy: 0.27753, 0.72247)', () => {
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(0, 10).high).toBeCloseTo(0.2775327999, 8);
    expect(wilson(10, 10).low).toBeCloseTo(0.7224672001, 8);
    expect(wilson(10, 10).high).toBeCloseTo(1, 12);
  });

  it('a different z', () => {
    const [lo, hi] = textbookWilson(30, 50, 2.5758293035489);
    expect(wilson(30, 50, 2.5758293035489).low).toBeCloseTo(lo, 12);
    expect(wilson(30, 50, 2.5758293035489).high).toBeCloseTo(hi, 12);
  });

  it('n = 0 gives NaN', () => {
    expect(wilson(0, 0).low).toBeNaN();
    expect(wilson(0, 0).high).toBeNaN();
  });

  it('Z95 is the 97.5 % quantile of the standard normal', () => {
    expect(Z95).toBeCloseTo(1.959963985, 9);
  });
});

group('stats: normalHalfWidth', () => {
  it('is 1.96·√(p(1−p)/n)', () => {
    // 81/100: 1.959964 · √(0.81 · 0.19 / 100) = 1.959964 · 0.0392301 = 0.0768896
    expect(normalHalfWidth(81, 100)).toBeCloseTo(0.0768895645, 8);
    // 20/40: 1.959964 · √(0.25 / 40) = 1.959964 · 0.0790569 = 0.1549488
    expect(normalHalfWidth(20, 40)).toBeCloseTo(0.1549487581, 8);
    expect(normalHalfWidth(5, 10)).toBeCloseTo(Z95 * Math.sqrt(0.025), 12);
    expect(normalHalfWidth(30, 50, 1)).toBeCloseTo(Math.sqrt((0.6 * 0.4) / 50), 12);
  });

  it('is 0 at p = 0 or 1, and NaN for n = 0', () => {
    expect(normalHalfWidth(0, 10)).toBe(0);
    expect(normalHalfWidth(10, 10)).toBe(0);
    expect(normalHalfWidth(0, 0)).toBeNaN();
  });
});

group('stats: describe', () => {
  it('mean, sample sd, min, quartiles, max', () => {
    const d = describe([4, 1, 3, 2]);
    expect(d.n).toBe(4);
    expect(d.mean).toBe(2.5);
    // Sample variance: ((1.5² + 0.5²) · 2) / 3 = 5/3.
    expect(d.sd).toBeCloseTo(Math.sqrt(5 / 3), 12);
    expect(d.min).toBe(1);
    expect(d.max).toBe(4);
    expect(d.median).toBe(2.5);
    expect(d.q1).toBeGreaterThanOrEqual(1);
    expect(d.q1).toBeLessThanOrEqual(2);
    expect(d.q3).toBeGreaterThanOrEqual(3);
    expect(d.q3).toBeLessThanOrEqual(4);
  });

  it('odd length: the median is the middle value', () => {
    const d = describe([10, 30, 20, 50, 40]);
    expect(d.median).toBe(30);
    expect(d.mean).toBe(30);
    expect(d.sd).toBeCloseTo(Math.sqrt(250), 12);
    expect(d.min).toBe(10);
    expect(d.max).toBe(50);
    expect(d.q1).toBe(20);
    expect(d.q3).toBe(40);
  });

  it('one value: sd 0; no values: NaN; the input is not reordered', () => {
    expect(describe([7])).toEqual({ n: 1, mean: 7, sd: 0, min: 7, q1: 7, median: 7, q3: 7, max: 7 });
    const empty = describe([]);
    expect(empty.n).toBe(0);
    expect(empty.mean).toBeNaN();
    expect(empty.median).toBeNaN();
    const xs = [3, 1, 2];
    describe(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});

// ── Setups ──────────────────────────────────────────────────────────────────

group('setups: the thesis wonder sets', () => {
  it('21 distinct sets of 3 distinct boards', () => {
    expect(THESIS_WONDER_SETS).toHaveLength(21);
    const keys = new Set<string>();
    for (const set of THESIS_WONDER_SETS) {
      expect(set).toHaveLength(3);
      expect(new Set(set).size).toBe(3);
      for (const b of set) {
        expect(Number.isInteger(b)).toBe(true);
        expect(BOARDS[b]).toBeDefined();
      }
      // Distinct as sets of boards, not only as seat orders.
      keys.add([...set].sort((a, b) => a - b).join(','));
    }
    expect(keys.size).toBe(21);
  });

  it('uses the seven boards, each in exactly 9 sets and in each seat exactly 3 times', () => {
    expect(BOARDS).toHaveLength(7);
    for (const board of BOARDS.map((b) => b.id)) {
      expect(THESIS_WONDER_SETS.filter((set) => set.includes(board)).length, `board ${board}`).toBe(9);
      for (let seat = 0; seat < 3; seat++) {
        expect(THESIS_WONDER_SETS.filter((set) => set[seat] === board).length, `board ${board} seat ${seat}`).toBe(3);
      }
    }
  });
});

group('setups: seat orders', () => {
  const isPermutation = (order: number[], n: number) => [...order].sort((a, b) => a - b).join() === [...Array(n).keys()].join();

  it('fixed: the identity only', () => {
    expect(seatOrders('fixed', 3)).toEqual([[0, 1, 2]]);
    expect(seatOrders('fixed', 5)).toEqual([[0, 1, 2, 3, 4]]);
  });

  it('rotate: n rotations, each agent once in each seat', () => {
    expect(seatOrders('rotate', 3)).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
    ]);
    for (const n of [3, 4, 5, 6, 7]) {
      const orders = seatOrders('rotate', n);
      expect(orders).toHaveLength(n);
      expect(new Set(orders.map((o) => o.join())).size).toBe(n);
      for (const o of orders) expect(isPermutation(o, n)).toBe(true);
      for (let seat = 0; seat < n; seat++) expect(new Set(orders.map((o) => o[seat])).size).toBe(n);
      // A rotation keeps the cyclic order of the agents.
      for (const o of orders) for (let i = 0; i < n; i++) expect(o[(i + 1) % n]).toBe((o[i] + 1) % n);
    }
  });

  it('permute: all n! permutations, once each', () => {
    const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));
    for (const n of [3, 4, 5]) {
      const orders = seatOrders('permute', n);
      expect(orders).toHaveLength(factorial(n));
      expect(new Set(orders.map((o) => o.join())).size).toBe(factorial(n));
      for (const o of orders) expect(isPermutation(o, n)).toBe(true);
    }
    expect(seatOrders('permute', 3)[0]).toEqual([0, 1, 2]);
  });
});

// ── Tournaments ─────────────────────────────────────────────────────────────

const AGENTS3 = ['mcts(it=5)', 'rulebased', 'random'];

function options(over: Partial<TournamentOptions> = {}): TournamentOptions {
  return { agents: AGENTS3, setup: 'thesis', seed: 1, seating: 'fixed', sides: 'A', open: false, ...over };
}

group('planTournament', () => {
  it('thesis: 21 sets × 50 deals = 1050 plans with the thesis board sets', () => {
    const plans = planTournament(options());
    expect(THESIS_DEALS).toBe(50);
    expect(plans).toHaveLength(1050);
    expect(new Set(plans.map((p) => p.id)).size).toBe(1050);
    plans.forEach((p, i) => expect(p.index).toBe(i));
    for (const p of plans) {
      expect(p.boards).toEqual([...THESIS_WONDER_SETS[p.set]]);
      expect(p.agents).toEqual(AGENTS3);
      expect(p.sides).toBe('A');
      expect(p.open).toBe(false);
      expect(p.seating).toBe(0);
    }
    // 50 card seeds, shared by every board set.
    expect(new Set(plans.map((p) => p.seed)).size).toBe(50);
    for (let deal = 0; deal < 50; deal++) {
      const seeds = new Set(plans.filter((p) => p.deal === deal).map((p) => p.seed));
      expect(seeds.size).toBe(1);
    }
  });

  it('robilliard: 20 drawn board sets × 50 deals = 1000 plans', () => {
    const plans = planTournament(options({ setup: 'robilliard' }));
    expect(ROBILLIARD_SETS * ROBILLIARD_DEALS).toBe(1000);
    expect(plans).toHaveLength(1000);
    expect(new Set(plans.map((p) => p.id)).size).toBe(1000);
    expect(new Set(plans.map((p) => p.set)).size).toBe(20);
    for (const p of plans) {
      expect(p.boards).toHaveLength(3);
      expect(new Set(p.boards).size).toBe(3);
    }
    // Boards are fixed per set: every deal of a set has the same boards.
    for (let set = 0; set < 20; set++) {
      const boards = new Set(plans.filter((p) => p.set === set).map((p) => p.boards!.join()));
      expect(boards.size).toBe(1);
    }
    // 4 players get 4 boards per set.
    const four = planTournament(options({ setup: 'robilliard', agents: ['random', 'random', 'random', 'rulebased'], deals: 2 }));
    expect(four).toHaveLength(40);
    for (const p of four) expect(new Set(p.boards).size).toBe(4);
  });

  it('random: one plan per deal, boards drawn per game', () => {
    const plans = planTournament(options({ setup: 'random', deals: 25 }));
    expect(plans).toHaveLength(25);
    expect(new Set(plans.map((p) => p.id)).size).toBe(25);
    expect(new Set(plans.map((p) => p.seed)).size).toBe(25);
    for (const p of plans) {
      expect(p.boards).toBeUndefined();
      expect(p.set).toBe(-1);
    }
    expect(planTournament(options({ setup: 'random' }))).toHaveLength(1000);
  });

  it('deals per board set can be changed for thesis and robilliard', () => {
    expect(planTournament(options({ deals: 2 }))).toHaveLength(42);
    expect(planTournament(options({ setup: 'robilliard', deals: 3 }))).toHaveLength(60);
  });

  it('the same options give identical plans; another seed gives other card seeds', () => {
    for (const setup of ['thesis', 'robilliard', 'random'] as const) {
      const o = options({ setup, deals: 4, seating: 'rotate' });
      expect(planTournament(o)).toEqual(planTournament({ ...o, agents: [...o.agents] }));
    }
    const a = planTournament(options({ deals: 3 }));
    const b = planTournament(options({ deals: 3, seed: 2 }));
    expect(new Set(a.map((p) => p.seed))).not.toEqual(new Set(b.map((p) => p.seed)));
    // robilliard draws its board sets from the tournament seed.
    const ra = planTournament(options({ setup: 'robilliard', deals: 1 }));
    const rb = planTournament(options({ setup: 'robilliard', deals: 1, seed: 2 }));
    expect(ra.map((p) => p.boards!.join())).not.toEqual(rb.map((p) => p.boards!.join()));
  });

  it('rotate triples the games, keeps the deal seed and boards across seat orders, and rotates the agents', () => {
    const fixed = planTournament(options({ deals: 4 }));
    const rotated = planTournament(options({ deals: 4, seating: 'rotate' }));
    expect(rotated).toHaveLength(3 * fixed.length);
    expect(new Set(rotated.map((p) => p.id)).size).toBe(rotated.length);
    // Per (set, deal): three plans, seat orders 0..2, one seed and one board set.
    const byDeal = new Map<string, GamePlan[]>();
    for (const p of rotated) {
      const key = `${p.set}/${p.deal}`;
      byDeal.set(key, [...(byDeal.get(key) ?? []), p]);
    }
    expect(byDeal.size).toBe(fixed.length);
    for (const f of fixed) {
      const group3 = byDeal.get(`${f.set}/${f.deal}`)!;
      expect(group3.map((p) => p.seating)).toEqual([0, 1, 2]);
      for (const p of group3) {
        expect(p.seed).toBe(f.seed);
        expect(p.boards).toEqual(f.boards);
      }
      expect(group3.map((p) => p.agents)).toEqual([
        [AGENTS3[0], AGENTS3[1], AGENTS3[2]],
        [AGENTS3[1], AGENTS3[2], AGENTS3[0]],
        [AGENTS3[2], AGENTS3[0], AGENTS3[1]],
      ]);
      // Each agent sits once in each seat.
      for (let seat = 0; seat < 3; seat++) expect(new Set(group3.map((p) => p.agents[seat])).size).toBe(3);
    }
    // permute: six seat orders per deal.
    expect(planTournament(options({ deals: 1, seating: 'permute' }))).toHaveLength(21 * 6);
  });

  it('rejects a wrong number of agents, the thesis setup with 4, and a bad spec', () => {
    expect(() => planTournament(options({ agents: ['random', 'random'] }))).toThrow(/3 to 7 agents, got 2/);
    expect(() => planTournament(options({ agents: Array(8).fill('random') }))).toThrow(/got 8/);
    expect(() => planTournament(options({ agents: ['random', 'random', 'random', 'random'] }))).toThrow(/thesis setup is for 3 players/);
    expect(() => planTournament(options({ agents: ['random', 'random', 'mcts(it=abc)'] }))).toThrow(/abc/);
  });
});

// ── Playing one game ────────────────────────────────────────────────────────

function plan(over: Partial<GamePlan> = {}): GamePlan {
  return {
    id: 'test-game',
    index: 0,
    seed: 12345,
    set: -1,
    deal: 0,
    seating: 0,
    agents: ['mcts(it=8)', 'rulebased', 'random'],
    sides: 'random',
    open: false,
    ...over,
  };
}

function withoutTimes(g: GameSummary): GameSummary {
  return { ...g, players: g.players.map((p) => ({ ...p, decisionMs: 0 })) };
}

group('playGame', () => {
  it('is deterministic: the same plan gives the same summary, decision times aside', () => {
    const a = playGame(plan());
    const b = playGame(plan());
    expect(withoutTimes(a)).toEqual(withoutTimes(b));
    const c = playGame(plan({ agents: ['rulebased-robilliard', 'rulebased-dawieang', 'random', 'mcts(it=4)'], seed: 99 }));
    const d = playGame(plan({ agents: ['rulebased-robilliard', 'rulebased-dawieang', 'random', 'mcts(it=4)'], seed: 99 }));
    expect(withoutTimes(c)).toEqual(withoutTimes(d));
    // Another seed is another game.
    const e = playGame(plan({ seed: 54321 }));
    expect(withoutTimes(e)).not.toEqual(withoutTimes(a));
  });

  it('summary fields: scores, winner, built cards, wonder, agents', () => {
    const boards = [...THESIS_WONDER_SETS[4]];
    const p = plan({ boards, sides: 'B', id: 's4-d0-o0', set: 4 });
    const g = playGame(p);
    expect(g).toMatchObject({ id: 's4-d0-o0', index: 0, seed: 12345, set: 4, deal: 0, seating: 0, open: false });
    expect(g.players).toHaveLength(3);
    const best = Math.max(...g.players.map((x) => x.score.total));
    g.players.forEach((pl: PlayerSummary, seat) => {
      expect(pl.seat).toBe(seat);
      expect(pl.agent).toBe(p.agents[seat]);
      const sum = SCORE_CATEGORIES.reduce((acc, k) => acc + pl.score[k], 0);
      expect(pl.score.total, `seat ${seat} total`).toBe(sum);
      expect(pl.winner).toBe(pl.score.total === best && g.players.filter((x) => x.score.total === best).length === 1);
      expect(pl.wonder).toBe(BOARDS[boards[seat]].wonder);
      expect(pl.city).toBe(BOARDS[boards[seat]].city);
      expect(pl.side).toBe('B');
      expect(pl.stages).toBeGreaterThanOrEqual(0);
      expect(pl.stages).toBeLessThanOrEqual(BOARDS[boards[seat]].sides[1].length);
      expect(pl.coins).toBeGreaterThanOrEqual(0);
      const names = new Set(CARDS.map((c) => c.name));
      for (const name of pl.built) expect(names.has(name), name).toBe(true);
      // A city never holds two buildings of one name.
      expect(new Set(pl.built).size).toBe(pl.built.length);
      // 18 turns at most one card each, plus seventh cards and builds from the discard pile.
      expect(pl.built.length).toBeLessThanOrEqual(24);
      expect(pl.rank).toBeGreaterThanOrEqual(1);
      expect(pl.rank).toBeLessThanOrEqual(3);
      expect(pl.decisions).toBeGreaterThanOrEqual(18);
      expect(pl.decisionMs).toBeGreaterThanOrEqual(0);
      expect(pl.cutShort).toBe(0);
    });
    expect(g.players.filter((x) => x.winner).length).toBeLessThanOrEqual(1);
    expect(g.players[0].canonical).toBe('mcts(it=8)');
    expect(g.players[0].iterations).toBeGreaterThan(0);
    expect(g.players[1].iterations).toBe(0);
    expect(g.players[2].iterations).toBe(0);
    // winners: the seats with the most VP (then coins), all ranked 1.
    expect(g.winners.length).toBeGreaterThan(0);
    for (const w of g.winners) {
      expect(g.players[w].score.total).toBe(best);
      expect(g.players[w].rank).toBe(1);
    }
    if (g.players.some((x) => x.winner)) {
      expect(g.winners).toEqual([g.players.findIndex((x) => x.winner)]);
      expect(g.decidedBy).toBe('vp');
    }
    expect(g.log).toBeUndefined();
  });

  it('{ record: true } keeps the move log and plays the same game', () => {
    const p = plan({ agents: ['random', 'rulebased', 'random'], seed: 777 });
    const plain = playGame(p);
    const recorded = playGame(p, { record: true });
    expect(recorded.log).toBeDefined();
    const record = recordFromLog(recorded.log!);
    expect(record.steps.length).toBeGreaterThanOrEqual(18);
    expect(record.result?.scores.map((x) => x.total)).toEqual(plain.players.map((x) => x.score.total));
    const { log: _log, ...rest } = recorded;
    expect(withoutTimes(rest)).toEqual(withoutTimes(plain));
  });

  it('the canonical form of the agents is reported', () => {
    const g = playGame(plan({ agents: ['MCTS:8,10,100', 'Random', 'rulebased'] }));
    expect(g.players.map((x) => x.canonical)).toEqual(['mcts(it=8)', 'random', 'rulebased']);
    expect(g.players.map((x) => x.agent)).toEqual(['MCTS:8,10,100', 'Random', 'rulebased']);
    expect(MCTS_DEFAULTS.it).not.toBe(8);
  });

  it('over many games, summaries are sane and exactly zero or one seat is `winner`', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const g = playGame(plan({ seed, agents: ['random', 'rulebased', 'random', 'rulebased'].slice(0, 3 + (seed % 2)) }));
      const totals = g.players.map((x) => x.score.total);
      const best = Math.max(...totals);
      const winners = g.players.filter((x) => x.winner);
      expect(winners.length).toBe(totals.filter((t) => t === best).length === 1 ? 1 : 0);
      for (const pl of g.players) expect(pl.score.total).toBe(SCORE_CATEGORIES.reduce((acc, k) => acc + pl.score[k], 0));
    }
  });
});

// ── Standings ───────────────────────────────────────────────────────────────

function player(seat: number, agent: string, total: number, over: Partial<PlayerSummary> = {}): PlayerSummary {
  return {
    seat,
    agent,
    canonical: agent,
    wonder: BOARDS[seat].wonder,
    city: BOARDS[seat].city,
    side: 'A',
    score: { military: 0, treasury: 0, wonder: 0, civilian: total, commercial: 0, guilds: 0, science: 0, total },
    coins: 0,
    stages: 0,
    built: [],
    winner: false,
    rank: 1,
    decisions: 18,
    decisionMs: 1,
    iterations: 0,
    cutShort: 0,
    ...over,
  };
}

/** A game with these (agent, VP) seats; `winner` set as playGame sets it. */
function game(index: number, seats: [string, number, Partial<PlayerSummary>?][]): GameSummary {
  const best = Math.max(...seats.map(([, t]) => t));
  const atBest = seats.filter(([, t]) => t === best).length;
  const players = seats.map(([agent, total, over], seat) => player(seat, agent, total, { winner: total === best && atBest === 1, ...over }));
  return {
    id: `g${index}`,
    index,
    seed: index,
    set: -1,
    deal: index,
    seating: 0,
    players,
    winners: players.filter((p) => p.score.total === best).map((p) => p.seat),
    decidedBy: atBest === 1 ? 'vp' : 'shared',
    open: false,
  };
}

group('standings', () => {
  const games: GameSummary[] = [
    // A wins outright.
    game(0, [['A', 50], ['B', 40], ['C', 30]]),
    // A and B share the most VP: a tie for both, a win for neither.
    game(1, [['A', 45], ['B', 45], ['C', 20]]),
    // A plays two seats; the second A seat wins, the first is last.
    game(2, [['A', 30], ['B', 35], ['A', 50]]),
    // C wins; A and B lose.
    game(3, [['C', 60], ['A', 59], ['B', 10]]),
    // Three-way tie.
    game(4, [['A', 40], ['B', 40], ['C', 40]]),
  ];

  it('counts seat-games, wins and ties per agent', () => {
    const rows = standings(games);
    expect(rows.map((r) => r.agent)).toEqual(['A', 'B', 'C']);
    const by = Object.fromEntries(rows.map((r) => [r.agent, r]));
    expect(by.A).toMatchObject({ games: 6, wins: 2, ties: 2 });
    expect(by.B).toMatchObject({ games: 5, wins: 0, ties: 2 });
    expect(by.C).toMatchObject({ games: 4, wins: 1, ties: 1 });
    expect(by.A.winRate).toBeCloseTo(2 / 6, 12);
    expect(by.B.winRate).toBe(0);
    expect(by.C.winRate).toBe(0.25);
  });

  it('intervals and VP summaries come from the tallies', () => {
    const by = Object.fromEntries(standings(games).map((r) => [r.agent, r]));
    expect(by.A.wilson).toEqual(wilson(2, 6));
    expect(by.A.winRateHalfWidth).toBeCloseTo(normalHalfWidth(2, 6), 12);
    expect(by.C.wilson).toEqual(wilson(1, 4));
    expect(by.A.vp.n).toBe(6);
    expect(by.A.vp.mean).toBeCloseTo((50 + 45 + 30 + 50 + 59 + 40) / 6, 12);
    expect(by.A.vp.min).toBe(30);
    expect(by.A.vp.max).toBe(59);
    expect(by.B.vp.mean).toBeCloseTo((40 + 45 + 35 + 10 + 40) / 5, 12);
    expect(by.C.vp).toMatchObject({ n: 4, min: 20, max: 60 });
  });

  it('decision time is weighted by decisions; iterations per second of thinking; cut-short decisions add up', () => {
    const g = [
      game(0, [
        ['M', 10, { decisions: 10, decisionMs: 2, iterations: 400, cutShort: 1 }],
        ['R', 20],
        ['R', 5],
      ]),
      game(1, [
        ['M', 10, { decisions: 30, decisionMs: 6, iterations: 800, cutShort: 2 }],
        ['R', 1],
        ['R', 2],
      ]),
    ];
    const by = Object.fromEntries(standings(g).map((r) => [r.agent, r]));
    // (10 · 2 + 30 · 6) / 40 = 5 ms; 1200 iterations in 200 ms = 6000 /s.
    expect(by.M.decisionMs).toBeCloseTo(5, 12);
    expect(by.M.iterationsPerSecond).toBeCloseTo(6000, 9);
    expect(by.M.cutShort).toBe(3);
    expect(by.M).toMatchObject({ games: 2, wins: 1, ties: 0 });
    expect(by.R).toMatchObject({ games: 4, wins: 1, ties: 0, iterationsPerSecond: 0, cutShort: 0 });
    expect(formatStandings(standings(g))).toContain('M: 3 decisions cut short');
  });

  it('Standings fed one game at a time equals standings() over the list', () => {
    const s = new Standings();
    for (const g of games) s.add(g);
    expect(s.rows()).toEqual(standings(games));
    expect(standings([])).toEqual([]);
  });

  it('formatStandings prints a row per agent', () => {
    const text = formatStandings(standings(games));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^agent\s+games\s+wins\s+ties/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^A\s+6\s+2\s+2\s/);
    expect(lines[2]).toMatch(/^B\s+5\s+0\s+2\s/);
    expect(lines[3]).toMatch(/^C\s+4\s+1\s+1\s/);
  });
});

group('Tournament: games addressable by index', () => {
  it('game(k) equals the k-th plan, and the swap seating exchanges two seats', async () => {
    const { Tournament, planTournament } = await import('../src/lab/index.js');
    const options = { agents: ['mcts:5', 'rulebased', 'random'], setup: 'thesis' as const, deals: 3, seed: 4, seating: 'swap' as const, swapSeats: [0, 2] as [number, number], sides: 'A' as const, open: false };
    const t = new Tournament(options);
    expect(t.size).toBe(21 * 3 * 2);
    const plans = planTournament(options);
    expect(plans.length).toBe(t.size);
    for (const k of [0, 1, 5, 77, t.size - 1]) expect(t.game(k)).toEqual(plans[k]);
    expect(plans[0].agents).toEqual(['mcts:5', 'rulebased', 'random']);
    expect(plans[1].agents).toEqual(['random', 'rulebased', 'mcts:5']);
    expect(plans[1].seed).toBe(plans[0].seed);
    expect(plans[1].boards).toEqual(plans[0].boards);
    expect(() => t.game(t.size)).toThrow(RangeError);
  });

  it("the 'fixed' setup plays the board sets given, and checks their size", async () => {
    const { Tournament } = await import('../src/lab/index.js');
    const base = { agents: ['random', 'random', 'random'], setup: 'fixed' as const, deals: 2, seed: 1, seating: 'fixed' as const, sides: 'B' as const, open: false };
    const t = new Tournament({ ...base, boardSets: [[0, 1, 2], [3, 4, 5]] });
    expect(t.size).toBe(4);
    expect(t.game(2).boards).toEqual([3, 4, 5]);
    expect(t.game(2).id).toBe('s1-d0-o0');
    expect(() => new Tournament({ ...base, boardSets: [[0, 1]] })).toThrow(/2 boards for 3 seats/);
    expect(() => new Tournament(base)).toThrow(/needs boardSets/);
  });
});
