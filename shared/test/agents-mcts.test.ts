/**
 * The MCTS agent (src/agents/mcts.ts): it finds the obvious move in constructed positions, it is
 * deterministic given its RNG, its budget scales by Age and a time limit stops it, its
 * determinizations never show it a card it cannot know, and every option plays a full game.
 *
 * Positions list players clockwise: players[i + 1] is player i's LEFT neighbour.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MctsAgent, createAgent, type Agent, type Decision, type DecisionContext } from '../src/agents/index.js';
import {
  ACTION_BUILD,
  ACTION_DISCARD,
  CARDS,
  LOG_BUILT,
  LOG_DISCARD,
  LOG_DISCARD_TAKEN,
  LOG_NONE,
  LOG_SLOTS,
  PHASE_TURN,
  Rng,
  actingSeats,
  cityView,
  clone,
  decodeMove,
  handCandidates,
  handView,
  holderAt,
  legalMoves,
  lineageAt,
  moveAction,
  moveCard,
  newGame,
  scoreSeat,
  stateFromPosition,
  step,
  type GameState,
  type Position,
} from '../src/engine/index.js';
import { decisionContext } from '../src/agents/index.js';
import { playGame, type GamePlan } from '../src/lab/index.js';
import { randomPosition } from './random-positions.js';

// ── Helpers ─────────────────────────────────────────────────────────────────

function handOf(s: GameState, p: number): number[] {
  return Array.from(handView(s, p));
}

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
const names = (xs: readonly number[]) => xs.map((c) => CARDS[c].name).join(', ');

/** Counts of a multiset. */
function counts(xs: readonly number[]): Map<number, number> {
  const m = new Map<number, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** Whether multiset a ⊆ multiset b. */
function subMultiset(a: readonly number[], b: readonly number[]): boolean {
  const cb = counts(b);
  for (const [x, k] of counts(a)) if ((cb.get(x) ?? 0) < k) return false;
  return true;
}

/** a − b as multisets (b need not be inside a). */
function minus(a: readonly number[], b: readonly number[]): number[] {
  const cb = counts(b);
  const out: number[] = [];
  for (const x of a) {
    const k = cb.get(x) ?? 0;
    if (k > 0) cb.set(x, k - 1);
    else out.push(x);
  }
  return out;
}

/** Size of the multiset intersection. */
function overlap(a: readonly number[], b: readonly number[]): number {
  return a.length - minus(a, b).length;
}

/** A context for `seat` on `s` in the agent's move mode, with a fresh RNG from `seed`. */
function contextFor(agent: Agent, s: GameState, seat: number, seed: number, open = false): DecisionContext {
  const legal = legalMoves(s, seat, agent.moveMode, []);
  return decisionContext(s, seat, legal, new Rng(seed), open);
}

function decide(spec: string, s: GameState, seat: number, seed = 1): Decision & { legal: readonly number[] } {
  const agent = createAgent(spec);
  const ctx = contextFor(agent, s, seat, seed);
  const decision = agent.decide(ctx);
  expect(ctx.legal, 'the decision is one of the legal moves').toContain(decision.move);
  return { ...decision, legal: ctx.legal };
}

/** Plays random moves until the game reaches `age` (turn 1). */
function gameAtAge(seed: number, age: number): GameState {
  const s = newGame({ players: 3, seed, sides: 'A' });
  const rng = new Rng(seed * 31 + 7);
  const moves = new Int32Array(3);
  while (s.age < age) {
    for (const p of actingSeats(s)) {
      const legal = legalMoves(s, p, 'cheapest');
      moves[p] = legal[rng.int(legal.length)];
    }
    step(s, moves);
  }
  expect(s.age).toBe(age);
  expect(s.turn).toBe(1);
  expect(s.phase).toBe(PHASE_TURN);
  return s;
}

function finalScoresAfter(s: GameState, moves: number[]): number[] {
  const t = clone(s);
  step(t, moves);
  while (!t.isOver()) {
    const m = new Array<number>(t.n).fill(0);
    for (const p of actingSeats(t)) m[p] = legalMoves(t, p, 'cheapest').find((x) => moveAction(x) === ACTION_DISCARD)!;
    step(t, m);
  }
  return [...Array(t.n).keys()].map((p) => scoreSeat(t, p).total);
}

// ── Obvious moves ───────────────────────────────────────────────────────────

/**
 * Age III, turn 6 (two cards per hand). Alexandria (seat 0) has a compass (Apothecary) and a gear
 * (Workshop), and the wood, wood, papyrus and glass of a University: a tablet that completes a
 * science set, 2 → 10 VP. Its other card, Palace, cannot be built, and every stage is built.
 * Neither opponent can build anything, so they discard (+3 coins, +1 VP). Without the University
 * seat 0 ends with 13 VP against Gizah's 16; with it, 20: the only move that wins.
 */
const SCIENCE: Position = {
  age: 3,
  players: [
    { wonder: 'Alexandria', side: 'A', stages: 3, coins: 0, built: ['Sawmill', 'Press', 'Apothecary', 'Workshop'], hand: ['University', 'Palace'] },
    { wonder: 'Gizah', side: 'A', stages: 3, coins: 0, hand: ['Town Hall', 'Pantheon'] },
    { wonder: 'Ephesus', side: 'A', stages: 3, coins: 0, hand: ['Senate', 'Gardens'] },
  ],
};

/**
 * Age III, turn 6, seat 1 to find the military win. Babylon (seat 1) has no shields; its
 * neighbours Gizah (seat 0, its right) and Ephesus (seat 2, its left) have 2 each.
 * Arsenal (W W O L, all its own) gives 3 shields: the Age III conflicts turn from −1 −1 into
 * +5 +5 (and the neighbours' +5 into −1). Its other card, Palace, cannot be built.
 */
const MILITARY: Position = {
  age: 3,
  players: [
    { wonder: 'Gizah', side: 'A', stages: 3, coins: 0, built: ['Stockade', 'Barracks'], hand: ['Town Hall', 'Pantheon'] },
    { wonder: 'Babylon', side: 'A', stages: 3, coins: 0, built: ['Sawmill', 'Loom', 'Ore Vein'], hand: ['Palace', 'Arsenal'] },
    { wonder: 'Ephesus', side: 'A', stages: 3, coins: 0, built: ['Guard Tower', 'Barracks'], hand: ['Senate', 'Gardens'] },
  ],
};

function describeMove(m: number): string {
  const d = decodeMove(m);
  return `${d.action} ${d.card}`;
}

/**
 * A last-turn position in which one seat has a single winning build and every other seat can only
 * discard: what the seat may do, the build that wins, and the VP it gains at least.
 */
const OBVIOUS_MOVES = [
  { name: 'Age III, last turn: builds the card that completes a science set (+8 VP, the win)', position: SCIENCE, seat: 0, listing: ['build University', 'discard Palace', 'discard University'], win: 'build University', gain: 7, seeds: [1, 2, 3] },
  { name: 'Age III, last turn, seat 1: builds the military card that wins both conflicts', position: MILITARY, seat: 1, listing: ['build Arsenal', 'discard Arsenal', 'discard Palace'], win: 'build Arsenal', gain: 11, seeds: [4, 5, 6] },
];

describe('MCTS finds the obvious move', () => {
  for (const { name, position, seat, listing, win, gain, seeds } of OBVIOUS_MOVES) it(name, () => {
    const s = stateFromPosition(position);
    expect(s.turn).toBe(6);
    // The position is what its comment says.
    const legal = legalMoves(s, seat, 'cheapest');
    expect(legal.map(describeMove).sort()).toEqual(listing);
    const others = [...Array(s.n).keys()].filter((p) => p !== seat);
    for (const p of others) expect(legalMoves(s, p, 'cheapest').every((m) => moveAction(m) === ACTION_DISCARD)).toBe(true);
    /** The seat's move with every other seat discarding. */
    const withOthersDiscarding = (m: number) => [...Array(s.n).keys()].map((p) => (p === seat ? m : legalMoves(s, p, 'cheapest')[0]));
    const bestOther = (scores: number[]) => Math.max(...others.map((p) => scores[p]));
    const build = legal.find((m) => moveAction(m) === ACTION_BUILD)!;
    const withBuild = finalScoresAfter(s, withOthersDiscarding(build));
    const without = finalScoresAfter(s, withOthersDiscarding(legal.find((m) => moveAction(m) === ACTION_DISCARD)!));
    expect(withBuild[seat]).toBeGreaterThan(bestOther(withBuild));
    expect(without[seat]).toBeLessThan(bestOther(without));
    expect(withBuild[seat] - without[seat]).toBeGreaterThanOrEqual(gain);

    for (const seed of seeds) {
      const started = performance.now();
      const d = decide('mcts(it=200)', s, seat, seed);
      expect(performance.now() - started).toBeLessThan(2000);
      expect(describeMove(d.move), `seed ${seed}`).toBe(win);
      expect(moveCard(d.move)).toBe(moveCard(build));
      expect(d.iterations).toBe(400);
    }
    // The other rewards and final-move rules agree.
    for (const spec of ['mcts(it=200,reward=margin)', 'mcts(it=200,reward=rank)', 'mcts(it=200,final=mean)', 'mcts(it=200,tree=seats,trades=all)']) {
      expect(describeMove(decide(spec, s, seat, 9).move), spec).toBe(win);
    }
  });
});

// ── Determinism ─────────────────────────────────────────────────────────────

describe('MCTS is deterministic given its RNG', () => {
  it('the same seed gives the same move and iteration count, and the state is untouched', () => {
    for (const [spec, s, seat] of [
      ['mcts(it=30)', randomPosition(3, 11, 12, 3), 0],
      ['mcts(it=20,tree=seats,trades=all,pw=0.35)', randomPosition(4, 21, 22, 8), 2],
      ['mcts(it=25,depth=3,reward=margin)', randomPosition(5, 31, 32, 13), 4],
    ] as const) {
      const before = s.bytes.slice();
      const rngBefore = Array.from(s.rng.s);
      const a = decide(spec, s, seat, 42);
      const b = decide(spec, s, seat, 42);
      expect(b.move, spec).toBe(a.move);
      expect(b.iterations, spec).toBe(a.iterations);
      expect(a.iterations, spec).toBeGreaterThan(0);
      expect(s.bytes, 'the true state after deciding').toEqual(before);
      expect(Array.from(s.rng.s), 'the true state’s RNG after deciding').toEqual(rngBefore);
    }
  });

  it('one agent instance deciding twice on equal inputs gives equal decisions', () => {
    const s = randomPosition(3, 5, 6, 2);
    const agent = createAgent('mcts(it=30)');
    expect(agent).toBeInstanceOf(MctsAgent);
    const a = agent.decide(contextFor(agent, s, 1, 77));
    const b = agent.decide(contextFor(agent, s, 1, 77));
    expect(b).toEqual(a);
  });
});

// ── Budget ──────────────────────────────────────────────────────────────────

describe('MCTS budget', () => {
  it('iterations per decision scale by Age: 1, 1.5, 2 by default', () => {
    const ages = [1, 2, 3].map((age) => gameAtAge(3, age));
    expect(ages.map((s) => decide('mcts(it=40)', s, 0).iterations)).toEqual([40, 60, 80]);
    expect(ages.map((s) => decide('mcts(it=40,scale=1/2/3)', s, 1).iterations)).toEqual([40, 80, 120]);
    expect(ages.map((s) => decide('mcts(it=40,scale=1)', s, 2).iterations)).toEqual([40, 40, 40]);
    // The thesis syntax gets the same scaling.
    expect(ages.map((s) => decide('mcts:40', s, 0).iterations)).toEqual([40, 60, 80]);
    // At least one iteration, however small the factor.
    expect(decide('mcts(it=1,scale=0.01)', ages[0], 0).iterations).toBe(1);
  });

  it('a time limit stops the search early and says so', () => {
    const s = newGame({ players: 3, seed: 8 });
    const started = performance.now();
    const d = decide('mcts(it=10000000,time=0.05)', s, 0);
    const elapsed = performance.now() - started;
    expect(d.cutShort).toBe(true);
    expect(d.iterations).toBeGreaterThan(0);
    expect(d.iterations).toBeLessThan(10_000_000);
    expect(elapsed).toBeLessThan(1500);
  });

  it('without a time limit hit, cutShort is false', () => {
    const s = newGame({ players: 3, seed: 8 });
    const d = decide('mcts(it=20,time=60)', s, 0);
    expect(d.cutShort).toBe(false);
    expect(d.iterations).toBe(20);
  });
});

// ── Hidden information ──────────────────────────────────────────────────────

/** Public fields of a state: what every seat sees. */
const PUBLIC_ARRAYS = [
  'board',
  'side',
  'stages',
  'coins',
  'shields',
  'tokens',
  'handLen',
  'ownsName',
  'city',
  'cityLen',
  'colourCount',
  'science',
  'fixed',
  'choiceLen',
  'discount',
  'freeBuildAge',
  'powers',
  'pendingDiscardBuilds',
  'logKind',
  'discardSeenUpTo',
] as const;

/** Whether the viewer knows which card left a hand at log index i (as the rules of information say). */
function logKnown(s: GameState, viewer: number, i: number): boolean {
  const seat = i % s.n;
  const position = Math.floor(i / s.n);
  const kind = s.logKind[i];
  return (
    kind === LOG_NONE ||
    seat === viewer ||
    kind === LOG_BUILT ||
    kind === LOG_DISCARD_TAKEN ||
    (kind === LOG_DISCARD && position < s.discardSeenUpTo[viewer])
  );
}

interface Knowledge {
  /** Per seat: handCandidates (null for an unseen hand, the hand itself for the viewer). */
  candidates: (number[] | null)[];
  /** Cards of the current Age that could be in an unseen hand: neither seen in a hand the viewer passed nor otherwise known. */
  freePool: number[];
  /** Guilds the viewer has seen (Age III): they can never turn up in an unseen hand. */
  seenGuilds: Set<number>;
}

/**
 * What the viewer knows of the hands, worked out from the rules of passing: for each hand lineage
 * of the current Age that the viewer held on an earlier turn, the cards still in it and the ones
 * that left it face down since are pinned to it; the viewer's hand and every removal it knows are
 * pinned where they are. Everything else of the Age's cards (the unseen hands and the face-down
 * removals nobody pinned) is the free pool.
 */
function knowledge(s: GameState, viewer: number): Knowledge {
  const n = s.n;
  const age = s.age;
  const done = Math.min(s.phase === PHASE_TURN ? s.turn - 1 : s.turn, 6);
  const current = Math.min(s.turn, 6);
  const pinned: number[] = [];
  for (let h = 0; h < n; h++) {
    let last = 0;
    for (let t = 1; t <= done; t++) if (lineageAt(n, age, t, viewer) === h) last = t;
    if (last === 0) continue;
    const holder = holderAt(n, age, current, h);
    if (holder !== viewer) pinned.push(...handOf(s, holder));
    for (let t = last + 1; t <= done; t++) {
      const i = s.logIndex(age, t - 1, holderAt(n, age, t, h));
      if (!logKnown(s, viewer, i)) pinned.push(s.logCard[i]);
    }
    if (done === 6) {
      const i = s.logIndex(age, LOG_SLOTS - 1, holderAt(n, age, 6, h));
      if (!logKnown(s, viewer, i)) pinned.push(s.logCard[i]);
    }
  }
  const hidden: number[] = [];
  for (let q = 0; q < n; q++) if (q !== viewer) hidden.push(...handOf(s, q));
  for (let slot = 0; slot < LOG_SLOTS; slot++) {
    for (let seat = 0; seat < n; seat++) {
      const i = s.logIndex(age, slot, seat);
      if (!logKnown(s, viewer, i)) hidden.push(s.logCard[i]);
    }
  }
  const candidates = [...Array(n).keys()].map((q) => (q === viewer ? handOf(s, q) : handCandidates(s, viewer, q)));
  const freePool = minus(hidden, pinned);
  // Guilds the viewer has seen: in its hand, in any city, in a known removal, in a hand it passed.
  const seenGuilds = new Set<number>();
  const noteGuild = (c: number) => {
    if (c < CARDS.length && CARDS[c].isGuild) seenGuilds.add(c);
  };
  handOf(s, viewer).forEach(noteGuild);
  for (let q = 0; q < n; q++) for (const c of cityView(s, q)) noteGuild(c);
  for (let i = 0; i < s.logCard.length; i++) if (s.logKind[i] !== LOG_NONE && logKnown(s, viewer, i)) noteGuild(s.logCard[i]);
  pinned.forEach(noteGuild);
  return { candidates, freePool, seenGuilds };
}

/** Problems with one sampled world for `viewer` of the true state s (empty when sound). */
function worldProblems(s: GameState, world: GameState, viewer: number, k: Knowledge): string[] {
  const problems: string[] = [];
  for (const field of PUBLIC_ARRAYS) {
    const a = Array.from(s[field] as ArrayLike<number>);
    const b = Array.from(world[field] as ArrayLike<number>);
    if (a.join() !== b.join()) problems.push(`public field ${field} differs`);
  }
  for (const f of ['age', 'turn', 'phase', 'pendingSeventh'] as const) if (s[f] !== world[f]) problems.push(`${f} differs`);
  const pile = (x: GameState) => x.discard.reduce((a, b) => a + b, 0);
  if (pile(s) !== pile(world)) problems.push('the size of the discard pile differs');
  if (handOf(world, viewer).join() !== handOf(s, viewer).join()) {
    problems.push(`the viewer's hand changed: ${names(handOf(s, viewer))} → ${names(handOf(world, viewer))}`);
  }
  for (let i = 0; i < s.logCard.length; i++) {
    if (logKnown(s, viewer, i) && s.logCard[i] !== world.logCard[i]) problems.push(`known log entry ${i} changed`);
  }
  for (let q = 0; q < s.n; q++) {
    if (q === viewer) continue;
    const hand = handOf(world, q);
    const cands = k.candidates[q];
    if (cands) {
      if (!subMultiset(hand, cands)) problems.push(`seat ${q} (seen): ${names(hand)} ⊄ ${names(cands)}`);
      continue;
    }
    const plain = hand.filter((c) => !CARDS[c].isGuild);
    const guilds = hand.filter((c) => CARDS[c].isGuild);
    const poolPlain = s.age === 3 ? k.freePool.filter((c) => !CARDS[c].isGuild) : k.freePool;
    if (!subMultiset(plain, poolPlain)) problems.push(`seat ${q} (unseen): ${names(plain)} ⊄ free pool ${names(k.freePool)}`);
    if (s.age < 3 && guilds.length > 0) problems.push(`seat ${q}: a guild before Age III`);
    for (const g of guilds) if (k.seenGuilds.has(g)) problems.push(`seat ${q} (unseen) holds ${CARDS[g].name}, which the viewer has seen elsewhere`);
    if (new Set(guilds).size !== guilds.length) problems.push(`seat ${q}: a guild twice`);
  }
  return problems;
}

/**
 * The agent's context with sampleWorld wrapped: every world it samples is checked against the
 * truth, and a copy is kept.
 */
function checkedContext(agent: Agent, s: GameState, seat: number, seed: number, sink: GameState[], problems: string[]): DecisionContext {
  const ctx = contextFor(agent, s, seat, seed);
  const k = knowledge(s, seat);
  return {
    ...ctx,
    sampleWorld: (r: Rng) => {
      const world = ctx.sampleWorld(r);
      problems.push(...worldProblems(s, world, seat, k));
      sink.push(clone(world));
      return world;
    },
  };
}

/**
 * A point of a random game and a seat to look from, as the properties below draw them: players,
 * the game's seed, the moves' seed, the steps played, a number that picks the seat, and a seed for
 * the search or the worlds.
 */
const randomPoint = [fc.integer({ min: 3, max: 7 }), fc.integer(), fc.integer(), fc.integer({ min: 0, max: 20 }), fc.nat(), fc.integer()] as const;

describe("MCTS's determinizations never show a card the agent cannot know", () => {
  it('property: at any point of a random game, every sampled world agrees with what the seat knows', () => {
    let worlds = 0;
    let unseenHands = 0;
    fc.assert(
      fc.property(
        ...randomPoint,
        (players, seed, moveSeed, steps, viewerPick, agentSeed) => {
          const s = randomPosition(players, seed, moveSeed, steps);
          fc.pre(!s.isOver());
          const acting = actingSeats(s);
          const viewer = acting[viewerPick % acting.length];
          const agent = createAgent('mcts(it=6,depth=2)');
          const sink: GameState[] = [];
          const problems: string[] = [];
          const before = s.bytes.slice();
          const ctx = checkedContext(agent, s, viewer, agentSeed, sink, problems);
          const d = agent.decide(ctx);
          expect(ctx.legal).toContain(d.move);
          expect(problems, `players ${players}, age ${s.age} turn ${s.turn} phase ${s.phase}, viewer ${viewer}`).toEqual([]);
          expect(s.bytes).toEqual(before);
          worlds += sink.length;
          unseenHands += knowledge(s, viewer).candidates.filter((c) => c === null).length;
        },
      ),
      { numRuns: 60 },
    );
    expect(worlds).toBeGreaterThan(0);
    expect(unseenHands).toBeGreaterThan(0);
  });

  it('property: on a normal turn every sampled world lists the same moves for the seat as the true state (the root level reuses the decision’s list)', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        ...randomPoint,
        (players, seed, moveSeed, steps, viewerPick, worldSeed) => {
          const s = randomPosition(players, seed, moveSeed, steps);
          fc.pre(!s.isOver() && s.phase === PHASE_TURN);
          const viewer = viewerPick % players;
          const rng = new Rng(worldSeed);
          for (const mode of ['cheapest', 'all'] as const) {
            const legal = legalMoves(s, viewer, mode, []);
            const ctx = decisionContext(s, viewer, legal, rng, false);
            for (let w = 0; w < 4; w++) {
              expect(legalMoves(ctx.sampleWorld(rng), viewer, mode, []), `${mode}, players ${players}, age ${s.age} turn ${s.turn}`).toEqual(legal);
              compared++;
            }
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(compared).toBeGreaterThan(0);
  });

  it('Age I, turn 1: opponents’ hands are resampled (not the true ones), the own hand never changes', () => {
    const s = newGame({ players: 3, seed: 2024 });
    // arms=all: a chosen grouped arm samples one more world to pick its card; here one world per iteration.
    const agent = createAgent('mcts(it=300,depth=1,arms=all,det=is)');
    const sink: GameState[] = [];
    const problems: string[] = [];
    agent.decide(checkedContext(agent, s, 0, 5, sink, problems));
    expect(problems).toEqual([]);
    expect(sink).toHaveLength(300);
    const own = handOf(s, 0);
    const opponents = [...handOf(s, 1), ...handOf(s, 2)];
    const distinct = [new Set<string>(), new Set<string>()];
    let overlapSum = 0;
    let truthCopies = 0;
    for (const w of sink) {
      expect(handOf(w, 0)).toEqual(own);
      // The opponents hold between them exactly the deck minus the viewer's hand.
      expect(sorted([...handOf(w, 1), ...handOf(w, 2)])).toEqual(sorted(opponents));
      distinct[0].add(sorted(handOf(w, 1)).join());
      distinct[1].add(sorted(handOf(w, 2)).join());
      overlapSum += overlap(handOf(w, 1), handOf(s, 1));
      if (sorted(handOf(w, 1)).join() === sorted(handOf(s, 1)).join()) truthCopies++;
    }
    expect(distinct[0].size).toBeGreaterThan(100);
    expect(distinct[1].size).toBeGreaterThan(100);
    // Seat 1's true cards land in its sampled hand about half the time (7 of 14 places): no leak.
    const expected = (7 * 7) / 14;
    const mean = overlapSum / sink.length;
    expect(mean).toBeGreaterThan(expected - 0.6);
    expect(mean).toBeLessThan(expected + 0.6);
    expect(truthCopies).toBeLessThan(5);
  });

  it('Age I, turn 2 (3 players): the hand the viewer passed is pinned, the other one is free', () => {
    const s = newGame({ players: 3, seed: 99 });
    // Turn 1: seat 0 builds or discards its first card; seats 1 and 2 discard face down.
    const passed = handOf(s, 0);
    const m0 = legalMoves(s, 0, 'cheapest')[0];
    const m1 = legalMoves(s, 1, 'cheapest').find((m) => moveAction(m) === ACTION_DISCARD)!;
    const m2 = legalMoves(s, 2, 'cheapest').find((m) => moveAction(m) === ACTION_DISCARD)!;
    step(s, [m0, m1, m2]);
    expect(s.turn).toBe(2);
    // Age I passes left: seat 0's hand went to seat 1 (players[i + 1] is i's left).
    const atSeat1 = handOf(s, 1);
    expect(sorted(atSeat1)).toEqual(sorted(minus(passed, [moveCard(m0)])));
    expect(handCandidates(s, 0, 1)).not.toBeNull();
    expect(handCandidates(s, 0, 2)).toBeNull();
    const free = [...handOf(s, 2), moveCard(m1), moveCard(m2)];

    const agent = createAgent('mcts(it=200,depth=1,det=is)');
    const sink: GameState[] = [];
    const problems: string[] = [];
    agent.decide(checkedContext(agent, s, 0, 3, sink, problems));
    expect(problems).toEqual([]);
    const seat2Hands = new Set<string>();
    let discardsSeenInSeat2 = 0;
    for (const w of sink) {
      expect(handOf(w, 0)).toEqual(handOf(s, 0));
      // The hand it passed holds exactly what it passed minus what it played.
      expect(sorted(handOf(w, 1))).toEqual(sorted(atSeat1));
      // The other hand holds only cards the viewer has never seen.
      expect(subMultiset(handOf(w, 2), free), names(handOf(w, 2))).toBe(true);
      for (const c of handOf(w, 2)) expect(passed.includes(c) && !free.includes(c), `${CARDS[c].name} was in the viewer's hand`).toBe(false);
      seat2Hands.add(sorted(handOf(w, 2)).join());
      discardsSeenInSeat2 += overlap(handOf(w, 2), [moveCard(m1), moveCard(m2)]);
    }
    expect(seat2Hands.size).toBeGreaterThan(1);
    // The face-down discards may be anywhere in the free group: sometimes in seat 2's hand.
    expect(discardsSeenInSeat2).toBeGreaterThan(0);
  });

  it('open information: every sampled world shows the true hands', () => {
    const s = randomPosition(4, 3, 4, 5);
    const agent = createAgent('mcts(it=20,depth=1,arms=all,det=is)');
    const legal = legalMoves(s, 0, agent.moveMode, []);
    const ctx = decisionContext(s, 0, legal, new Rng(1), true);
    const hands: number[][][] = [];
    agent.decide({
      ...ctx,
      sampleWorld: (r: Rng) => {
        const w = ctx.sampleWorld(r);
        hands.push([0, 1, 2, 3].map((q) => handOf(w, q)));
        return w;
      },
    });
    expect(hands.length).toBe(20);
    for (const h of hands) expect(h).toEqual([0, 1, 2, 3].map((q) => handOf(s, q)));
  });
});

// ── Options ─────────────────────────────────────────────────────────────────

const OPTION_SPECS = [
  'mcts(it=10,tree=seats)',
  'mcts(it=10,trades=all)',
  'mcts(it=10,pw=0.35)',
  'mcts(it=10,pw=0.5,pwq=2)',
  'mcts(it=10,kscore=0.1)',
  'mcts(it=10,playout=nodiscard)',
  'mcts(it=10,playout=rulebased)',
  'mcts(it=10,opp=rulebased)',
  'mcts(it=10,opp=nodiscard,tree=seats)',
  'mcts(it=10,tl=8/24/32)',
  'mcts(it=10,reward=rank)',
  'mcts(it=10,reward=margin)',
  'mcts(it=10,depth=4)',
  'mcts(it=10,final=mean)',
  'mcts(it=10,reward=share)',
  'mcts(it=10,arms=grouped)',
  'mcts(it=10,arms=grouped,tree=seats,trades=all)',
  'mcts(it=10,parms=grouped,playout=nodiscard)',
  'mcts(it=10,playout=mast)',
  'mcts(it=10,playout=mast,parms=grouped)',
  'mcts(it=10,opp=mast,tree=seats)',
  'mcts(it=12,det=pimc,worlds=3)',
  'mcts(it=12,det=pimc,worlds=3,arms=grouped)',
  'mcts(it=10,det=is,reuse=on)',
  'mcts(it=10,det=is,reuse=on,arms=grouped,parms=grouped)',
  'mcts-robilliard(it=10)',
  'mcts-strong(it=10)',
  'mcts(it=8,tree=seats,trades=all,pw=0.35,kscore=0.1,playout=nodiscard,tl=8/24/32,reward=rank,depth=4,final=mean)',
];

describe('every MCTS option plays a full 3-player game against two random agents', () => {
  it.each(OPTION_SPECS)('%s', (spec) => {
    const plan: GamePlan = {
      id: spec,
      index: 0,
      seed: 4242,
      set: -1,
      deal: 0,
      seating: 0,
      agents: [spec, 'random', 'random'],
      sides: 'random',
      open: false,
    };
    // playGame throws if an agent picks a move that is not legal.
    const g = playGame(plan);
    expect(g.players).toHaveLength(3);
    const me = g.players[0];
    expect(me.decisions).toBeGreaterThanOrEqual(18);
    expect(me.iterations).toBeGreaterThan(0);
    expect(me.cutShort).toBe(0);
    expect(me.built.length).toBeGreaterThan(0);
    // And with open hands.
    expect(() => playGame({ ...plan, open: true })).not.toThrow();
  });
});
