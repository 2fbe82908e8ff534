/**
 * The random and no-discard playouts draw their move without listing the hand (engine/uniform-draw.ts).
 * The draw must have the listing's support and its uniform weights: every option the listing
 * offers (each card's moves, or the grouped arms) and nothing else, each as often as the others.
 */
import { describe, expect, it } from 'vitest';
import { groupArms, isArm, resolveArm, resolveDrawnArm } from '../src/agents/mcts/arms.js';
import { playoutMoves } from '../src/agents/playout-moves.js';
import { cappedPricing } from '../src/agents/playout-payment.js';
import {
  ACTION_BUILD,
  ACTION_DISCARD,
  ACTION_FREE_BUILD,
  NO_DRAW,
  PHASE_TURN,
  RULES_PRICING,
  Rng,
  actingSeats,
  clone,
  decodeMove,
  drawnCard,
  drawnCardBuildable,
  drawUniformMove,
  handBase,
  legalMoves,
  moveAction,
  moveCard,
  newGame,
  priceDrawnHand,
  step,
  type GameState,
} from '../src/engine/index.js';

interface Variant {
  grouped: boolean;
  noDiscard: boolean;
  cap: number;
}

const VARIANTS: Variant[] = [];
for (const grouped of [false, true]) for (const noDiscard of [false, true]) for (const cap of [0, 2, 8]) VARIANTS.push({ grouped, noDiscard, cap });

/** The options a listing-based draw chooses among: the legal list, grouped or not, discards left out when anything else is there. */
function listedOptions(s: GameState, p: number, v: Variant): number[] {
  const legal = playoutMoves(s, p, [], v.cap);
  const options = v.grouped ? groupArms(legal, []) : legal;
  if (!v.noDiscard) return options;
  return options.filter((m) => moveAction(m) !== ACTION_DISCARD);
}

/** Normal-turn positions of random games, every player count, all the way to the last turn. */
function positions(games: number): { s: GameState; p: number }[] {
  const out: { s: GameState; p: number }[] = [];
  for (let g = 0; g < games; g++) {
    const players = 3 + (g % 5);
    const s = newGame({ players, seed: 1000 + g });
    const rng = new Rng(g);
    const moves = new Int32Array(players);
    while (!s.isOver()) {
      if (s.phase === PHASE_TURN) for (let p = 0; p < players; p++) if ((g + s.turn + p) % 4 === 0) out.push({ s: clone(s), p });
      for (const p of actingSeats(s)) {
        const legal = legalMoves(s, p, 'cheapest');
        moves[p] = legal[rng.int(legal.length)];
      }
      step(s, moves);
    }
  }
  return out;
}

describe('drawUniformMove', () => {
  const sample = positions(40);

  it('draws only what the listing offers, says NO_DRAW exactly when a no-discard listing is empty, and reaches Olympia’s free build', () => {
    const rng = new Rng(3);
    let checked = 0;
    let noDraws = 0;
    let freeBuilds = 0;
    for (const { s, p } of sample) {
      for (const v of VARIANTS) {
        const options = listedOptions(s, p, v);
        for (let k = 0; k < 4; k++) {
          const m = drawUniformMove(s, p, rng, v.grouped, v.noDiscard, cappedPricing(v.cap));
          if (options.length === 0) {
            expect(m).toBe(NO_DRAW);
            noDraws++;
          } else {
            if (!options.includes(m)) throw new Error(`${JSON.stringify(v)}: drew ${JSON.stringify(decodeMove(m))}, not among ${options.length} options`);
            if (moveAction(m) === ACTION_FREE_BUILD) freeBuilds++;
          }
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(5000);
    expect(noDraws).toBeGreaterThan(0);
    expect(freeBuilds).toBeGreaterThan(0);
  });

  it('gives every option the same weight (each count within 5 standard deviations, and a pooled chi-square near its degrees of freedom)', () => {
    const rng = new Rng(17);
    let chiSquare = 0;
    let freedom = 0;
    let tested = 0;
    for (const [i, { s, p }] of sample.entries()) {
      if (i % 7 !== 0) continue;
      for (const v of VARIANTS) {
        const options = listedOptions(s, p, v);
        if (options.length < 2) continue;
        const perOption = 300;
        const draws = perOption * options.length;
        const counts = new Map<number, number>(options.map((m) => [m, 0]));
        for (let k = 0; k < draws; k++) {
          const m = drawUniformMove(s, p, rng, v.grouped, v.noDiscard, cappedPricing(v.cap));
          counts.set(m, (counts.get(m) ?? 0) + 1);
        }
        expect(counts.size).toBe(options.length);
        const q = 1 / options.length;
        const sd = Math.sqrt(draws * q * (1 - q));
        for (const [, c] of counts) {
          expect(Math.abs(c - perOption)).toBeLessThan(5 * sd);
          chiSquare += (c - perOption) ** 2 / perOption;
        }
        freedom += options.length - 1;
        tested++;
      }
    }
    expect(tested).toBeGreaterThan(100);
    // Chi-square over `freedom` degrees of freedom: mean freedom, sd √(2·freedom).
    expect(Math.abs(chiSquare - freedom)).toBeLessThan(5 * Math.sqrt(2 * freedom));
  });

  it('resolves a drawn arm to the move resolveArm picks from the full listing, drawing the same numbers', () => {
    const drawRng = new Rng(29);
    let resolved = 0;
    let stages = 0;
    let tiesDrawn = 0;
    for (const { s, p } of sample) {
      for (const cap of [0, 2, 8]) {
        for (let k = 0; k < 6; k++) {
          const arm = drawUniformMove(s, p, drawRng, true, false, cappedPricing(cap));
          if (!isArm(arm)) continue;
          const seed = 7919 * resolved + k;
          const lazyRng = new Rng(seed);
          const lazy = resolveDrawnArm(s, p, arm, lazyRng);
          const listRng = new Rng(seed);
          const listed = resolveArm(s, p, arm, playoutMoves(s, p, [], cap), listRng);
          expect(lazy).toBe(listed);
          // Both generators are at the same point afterwards: the same numbers were drawn.
          const next = lazyRng.int(1 << 30);
          expect(next).toBe(listRng.int(1 << 30));
          if (next !== new Rng(seed).int(1 << 30)) tiesDrawn++;
          if (moveAction(arm) !== ACTION_DISCARD) stages++;
          resolved++;
        }
      }
    }
    expect(resolved).toBeGreaterThan(2000);
    expect(stages).toBeGreaterThan(100);
    expect(tiesDrawn).toBeGreaterThan(100);
  });

  it('prices the rest of a drawn hand: every distinct card, buildable exactly when the listing has a build of it', () => {
    const rng = new Rng(41);
    let cards = 0;
    let buildable = 0;
    for (const { s, p } of sample) {
      drawUniformMove(s, p, rng, false, false, RULES_PRICING);
      const count = priceDrawnHand(s, p);
      const legal = legalMoves(s, p, 'cheapest');
      const inHand = new Set(Array.from({ length: s.handLen[p] }, (_, i) => s.hands[handBase(s, p) + i]));
      expect(new Set(Array.from({ length: count }, (_, i) => drawnCard(i)))).toEqual(inHand);
      for (let i = 0; i < count; i++) {
        const c = drawnCard(i);
        const listed = legal.some((m) => moveCard(m) === c && (moveAction(m) === ACTION_BUILD || moveAction(m) === ACTION_FREE_BUILD));
        expect(drawnCardBuildable(i)).toBe(listed);
        if (listed) buildable++;
        cards++;
      }
    }
    expect(cards).toBeGreaterThan(100);
    expect(buildable).toBeGreaterThan(0);
    expect(buildable).toBeLessThan(cards);
  });

  it('refuses to resolve an arm for another state or seat than the last draw', () => {
    const { s, p } = sample[0];
    const arm = drawUniformMove(s, p, new Rng(1), true, false, RULES_PRICING);
    expect(() => resolveDrawnArm(clone(s), p, arm, new Rng(1))).toThrow(/last draw/);
    expect(() => resolveDrawnArm(s, (p + 1) % s.n, arm, new Rng(1))).toThrow(/last draw/);
  });

  it('refuses a phase other than a normal turn', () => {
    const s = newGame({ players: 3, seed: 1 });
    s.phase = 3;
    expect(() => drawUniformMove(s, 0, new Rng(1), false, false, RULES_PRICING)).toThrow(/normal turns/);
  });
});
