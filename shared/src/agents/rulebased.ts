/**
 * The rule-based agents of the three works we follow. Each walks its rules in order and plays the
 * first that applies; "play a card" means build it, buying from the neighbours where needed (the
 * legal moves already carry the cheapest payment). Where a rule allows several cards, one is drawn
 * at random with the agent's RNG, so a seed fixes every choice.
 *
 * Readings of the papers' wording (also in the README):
 * - "the strongest in war" / "the military leader": most shields among all players (in the
 *   3-player games of the papers, that is both neighbours).
 * - A card "gives two or more resources" (thesis) when it produces two units (Sawmill) or offers a
 *   choice of two or more (Tree Farm, Forum); "two or more resource types" (Robilliard) means the
 *   choice cards only.
 * - A resource is "missing" or "lacking" when the player's board, cards and stages never produce it.
 * - Olympia's free build is used for a card that would otherwise cost coins.
 */
import { CARDS, moveCard, movePayLeft, movePayRight, type Rng } from '../engine/index.js';
import {
  buildOptions,
  coinsSpent,
  immediateVpGain,
  isCivilian,
  isDiscard,
  isMilitary,
  isScience,
  isStage,
  neighbours,
  pick,
  producedMask,
  resourceMask,
  resourceTypes,
  resourceUnits,
} from './features.js';
import type { Agent, Decision, DecisionContext } from './types.js';

/** The cards of `builds` that satisfy `test`, as their chosen build moves. */
function buildsWhere(builds: Map<number, number>, test: (c: number) => boolean): number[] {
  const out: number[] = [];
  for (const [c, m] of builds) if (test(c)) out.push(m);
  return out;
}

/** The moves of `moves` with the greatest `value`, one of them drawn at random. */
function pickBest(rng: Rng, moves: readonly number[], value: (m: number) => number): number {
  let best = -Infinity;
  let ties: number[] = [];
  for (const m of moves) {
    const v = value(m);
    if (v > best) {
      best = v;
      ties = [m];
    } else if (v === best) ties.push(m);
  }
  return pick(rng, ties);
}

/** The blue cards of `builds` worth the most VP. */
function civilianWithMostVp(builds: Map<number, number>): number[] {
  const blue = buildsWhere(builds, isCivilian);
  if (blue.length === 0) return [];
  const top = Math.max(...blue.map((m) => CARDS[moveCard(m)].vp));
  return blue.filter((m) => CARDS[moveCard(m)].vp === top);
}

/** The coins a move pays the neighbours. */
const coinsToNeighbours = (m: number): number => movePayLeft(m) + movePayRight(m);

/** ctx with another list of legal moves (never empty: a discard is always among them). */
function withLegal(ctx: DecisionContext, legal: readonly number[]): DecisionContext {
  return {
    seat: ctx.seat,
    players: ctx.players,
    age: ctx.age,
    legal,
    rng: ctx.rng,
    observe: () => ctx.observe(),
    sampleWorld: (rng, into) => ctx.sampleWorld(rng, into),
    writeObservation: (out) => ctx.writeObservation(out),
  };
}

type Rule = [reason: string, candidates: () => number[]];

/** Plays a random candidate of the first rule that has any. */
function firstRule(rng: Rng, rules: readonly Rule[], legal: readonly number[]): Decision {
  for (const [reason, candidates] of rules) {
    const moves = candidates();
    if (moves.length > 0) return { move: pick(rng, moves), reason };
  }
  return { move: pick(rng, legal), reason: 'no rule applies' };
}

function maxOthers(shields: number[], seat: number): number {
  let max = -Infinity;
  shields.forEach((k, q) => {
    if (q !== seat && k > max) max = k;
  });
  return max;
}

/** Age III of Robilliard's and dawieang's bots: the move with the best immediate VP gain. */
function bestImmediateVp(ctx: DecisionContext): Decision {
  const world = ctx.sampleWorld(ctx.rng);
  const move = pickBest(ctx.rng, ctx.legal, (m) => immediateVpGain(world, ctx.seat, m));
  return { move, reason: 'age III: best immediate VP' };
}

/** Minenko (2025), section 4.2. */
export class ThesisRuleBasedAgent implements Agent {
  readonly moveMode = 'cheapest' as const;

  decide(ctx: DecisionContext): Decision {
    const { rng, legal, seat } = ctx;
    const obs = ctx.observe();
    const builds = buildOptions(legal);
    const produced = producedMask(obs, seat);
    const shields = obs.seats.map((v) => v.shields);
    const rules: Rule[] = [
      ['rule 1: two or more resources', () => buildsWhere(builds, (c) => resourceUnits(c) >= 2 || resourceTypes(c) >= 2)],
      ['rule 2: a missing resource', () => buildsWhere(builds, (c) => (resourceMask(c) & ~produced) !== 0)],
      ['rule 3: military', () => (shields[seat] > maxOthers(shields, seat) ? [] : buildsWhere(builds, isMilitary))],
      ['rule 4: wonder stage', () => legal.filter(isStage)],
      ['rule 5: civilian with most VP', () => civilianWithMostVp(builds)],
      ['rule 6: science', () => buildsWhere(builds, isScience)],
      ['rule 7: any card', () => [...builds.values()]],
      ['rule 8: sell a card', () => legal.filter(isDiscard)],
    ];
    return firstRule(rng, rules, legal);
  }
}

/**
 * Robilliard, Fonlupt and Teytaud (2014), section 6.1. The paper plays a card "of course if it is
 * affordable" without saying whether buying from the neighbours makes a card affordable; with
 * `trades: false` it does not, and the player never trades (rulebased-robilliard-notrade).
 */
export class RobilliardRuleBasedAgent implements Agent {
  readonly moveMode = 'cheapest' as const;
  private readonly trades: boolean;

  constructor(options: { trades?: boolean } = {}) {
    this.trades = options.trades ?? true;
  }

  decide(full: DecisionContext): Decision {
    // A move the player cannot make without trading is one it does not see.
    const ctx = this.trades ? full : withLegal(full, full.legal.filter((m) => coinsToNeighbours(m) === 0));
    if (ctx.age === 3) return bestImmediateVp(ctx);
    const { rng, legal, seat } = ctx;
    const obs = ctx.observe();
    const builds = buildOptions(legal);
    const produced = producedMask(obs, seat);
    const shields = obs.seats.map((v) => v.shields);
    const others = maxOthers(shields, seat);
    const rules: Rule[] = [
      ['rule 1: two or more resource types', () => buildsWhere(builds, (c) => resourceTypes(c) >= 2)],
      ['rule 2: a lacking resource', () => buildsWhere(builds, (c) => resourceTypes(c) === 1 && (resourceMask(c) & ~produced) !== 0)],
      ['rule 3: military', () =>
        shields[seat] > others ? [] : buildsWhere(builds, (c) => isMilitary(c) && shields[seat] + CARDS[c].shields >= others)],
      ['rule 4: civilian with most VP', () => civilianWithMostVp(builds)],
      ['rule 5: science', () => buildsWhere(builds, isScience)],
      ['rule 6: any card', () => [...builds.values()]],
      ['rule 7: discard', () => legal.filter(isDiscard)],
    ];
    return firstRule(rng, rules, legal);
  }
}

/**
 * dawieang (2021), "RuleBasedAI". Its wording leaves the resource rules open; we read rule 2
 * ("more than one type of resource") as the cards offering three or more types (Forum,
 * Caravansery), rule 3 ("mixed resource", e.g. Clay Pit) as the two-way choices.
 */
export class DawieangRuleBasedAgent implements Agent {
  readonly moveMode = 'cheapest' as const;

  decide(ctx: DecisionContext): Decision {
    if (ctx.age === 3) return bestImmediateVp(ctx);
    const { rng, legal, seat } = ctx;
    const obs = ctx.observe();
    const builds = buildOptions(legal);
    const produced = producedMask(obs, seat);
    const shields = obs.seats.map((v) => v.shields);
    const [left, right] = neighbours(obs, seat);
    const stages = legal.filter(isStage);
    if (stages.length > 0) {
      const free = stages.filter((m) => coinsSpent(m) === 0);
      if (free.length > 0) return { move: pick(rng, free), reason: 'rule 1: free wonder stage' };
      // The coin is tossed only when a paid stage is on offer.
      if (rng.int(2) === 0) return { move: pick(rng, stages), reason: 'rule 1a: paid wonder stage' };
    }
    const rules: Rule[] = [
      ['rule 2: three or more resource types', () => buildsWhere(builds, (c) => resourceTypes(c) >= 3)],
      ['rule 3: mixed resource', () => buildsWhere(builds, (c) => resourceTypes(c) === 2)],
      ['rule 4: a missing resource', () => buildsWhere(builds, (c) => (resourceMask(c) & ~produced) !== 0)],
      ['rule 5: military overtaking a neighbour', () =>
        buildsWhere(builds, (c) => {
          if (!isMilitary(c)) return false;
          const after = shields[seat] + CARDS[c].shields;
          return [left, right].some((q) => shields[q] >= shields[seat] && after > shields[q]);
        })],
      ['rule 6: science', () => buildsWhere(builds, isScience)],
      ['rule 7: civilian', () => buildsWhere(builds, isCivilian)],
      ['rule 8: any non-discard', () => legal.filter((m) => !isDiscard(m))],
      ['rule 9: anything', () => [...legal]],
    ];
    return firstRule(rng, rules, legal);
  }
}
