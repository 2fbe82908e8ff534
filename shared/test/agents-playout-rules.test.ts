/**
 * The thesis's rule-based player exists twice: as an agent reading its observation
 * (ThesisRuleBasedAgent) and as an allocation-free playout policy reading the state
 * (thesisRuleCandidates). They must agree on every position. The playouts' lazy form, which
 * searches payments only for the cards of the rules it tries, must pick the very same move.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThesisRuleBasedAgent, thesisRuleCandidates, thesisRulesMove, thesisRulesMoveLazily } from '../src/agents/index.js';
import { Rng, actingSeats, legalMoves, newGame, step } from '../src/engine/index.js';
import { decisionContext } from '../src/agents/index.js';
import { playoutMoves } from '../src/agents/playout-moves.js';

import type { GameState } from '../src/engine/index.js';

/**
 * Plays one game of uniformly random moves drawn with `rng` (payments capped at `cap` where
 * given), calling `visit` at every seat's decision with its legal moves, before the seat's move
 * is drawn.
 */
function everyDecision(players: number, seed: number, rng: Rng, cap: number | undefined, visit: (s: GameState, p: number, legal: number[]) => void): void {
  const s = newGame({ players, seed });
  const moves = new Array<number>(players).fill(0);
  const legal: number[] = [];
  while (!s.isOver()) {
    for (const p of actingSeats(s)) {
      // Without a cap, the engine's legal moves; with one, the playouts' capped listing.
      if (cap === undefined) legalMoves(s, p, 'cheapest', legal);
      else playoutMoves(s, p, legal, cap);
      visit(s, p, legal);
      moves[p] = legal[rng.int(legal.length)];
    }
    step(s, moves);
  }
}

interface Decision {
  s: GameState;
  p: number;
  legal: number[];
  /** The game's own generator (it draws the random moves). */
  rng: Rng;
  seed: number;
  cap: number | undefined;
  /** How many decisions were checked before this one. */
  index: number;
  /** The thesis rule the decision falls under, and that rule's candidate moves (thesisRuleCandidates). */
  rule: number;
  candidates: number[];
}

/**
 * Runs `check` at every decision of `numRuns` random games (3 to 7 players, payments capped at one
 * of `caps`), then makes sure there were over 1000 decisions and that random play reached every
 * rule, so that each branch of both versions was compared.
 */
function checkEveryDecision(numRuns: number, caps: readonly (number | undefined)[], check: (d: Decision) => void): void {
  let index = 0;
  const rulesSeen = new Set<number>();
  const candidates: number[] = [];
  fc.assert(
    fc.property(fc.integer({ min: 3, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), fc.constantFrom(...caps), (players, seed, cap) => {
      const rng = new Rng(seed);
      everyDecision(players, seed, rng, cap, (s, p, legal) => {
        const rule = thesisRuleCandidates(s, p, legal, candidates);
        rulesSeen.add(rule);
        check({ s, p, legal, rng, seed, cap, index: index++, rule, candidates });
      });
    }),
    { numRuns },
  );
  expect(index).toBeGreaterThan(1000);
  expect([...rulesSeen].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
}

describe('rule-based playouts follow the same rules as the rulebased agent', () => {
  it('property: same rule, and the agent’s move is among the playout policy’s candidates', () => {
    checkEveryDecision(30, [undefined], ({ s, p, legal, rng, rule, candidates }) => {
      const decision = new ThesisRuleBasedAgent().decide(decisionContext(s, p, legal, rng, false));
      const agentRule = Number(/^rule (\d)/.exec(decision.reason ?? '')?.[1]);
      expect(agentRule).toBe(rule);
      expect(candidates).toContain(decision.move);
    });
  });
});

describe('the lazy rule-based playout move', () => {
  it('property: the same move as thesisRulesMove over the legal list, drawn with the same number, with and without a payment cap', () => {
    checkEveryDecision(40, [0, 8], ({ s, p, legal, seed, cap, index }) => {
      const eager = new Rng(seed + index);
      const lazy = new Rng(seed + index);
      expect(thesisRulesMoveLazily(s, p, lazy, cap)).toBe(thesisRulesMove(s, p, legal, eager));
      expect(Array.from(lazy.s), 'the same numbers drawn').toEqual(Array.from(eager.s));
    });
  });
});
