/**
 * The thesis's rule-based player exists twice: as an agent reading its observation
 * (ThesisRuleBasedAgent) and as an allocation-free playout policy reading the state
 * (thesisRuleCandidates). They must agree on every position.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThesisRuleBasedAgent, thesisRuleCandidates } from '../src/agents/index.js';
import { Rng, actingSeats, legalMoves, newGame, step } from '../src/engine/index.js';
import { decisionContext } from '../src/agents/index.js';

describe('rule-based playouts follow the same rules as the rulebased agent', () => {
  it('property: same rule, and the agent’s move is among the playout policy’s candidates', () => {
    let checked = 0;
    const rulesSeen = new Set<number>();
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 7 }), fc.integer({ min: 0, max: 2 ** 31 }), (players, seed) => {
        const s = newGame({ players, seed });
        const rng = new Rng(seed);
        const moves = new Array<number>(players).fill(0);
        const candidates: number[] = [];
        while (!s.isOver()) {
          for (const p of actingSeats(s)) {
            const legal = legalMoves(s, p, 'cheapest', []);
            const decision = new ThesisRuleBasedAgent().decide(decisionContext(s, p, legal, rng, false));
            const rule = thesisRuleCandidates(s, p, legal, candidates);
            const agentRule = Number(/^rule (\d)/.exec(decision.reason ?? '')?.[1]);
            expect(agentRule).toBe(rule);
            expect(candidates).toContain(decision.move);
            rulesSeen.add(rule);
            checked++;
            moves[p] = legal[rng.int(legal.length)];
          }
          step(s, moves);
        }
      }),
      { numRuns: 30 },
    );
    expect(checked).toBeGreaterThan(1000);
    // Random play reaches every rule, so each branch of both versions was compared.
    expect([...rulesSeen].sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
