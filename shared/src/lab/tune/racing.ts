/**
 * Racing a finite list of candidates (agent specs or grid points) for the best: successive
 * elimination (Even-Dar, Mannor & Mansour 2006, "Action Elimination and Stopping Conditions for
 * the Multi-Armed Bandit and Reinforcement Learning Problems", JMLR 7) with a confidence radius
 * that holds at every look, however many looks are taken.
 *
 * A round plays every arm still in the race on the same new deals; a deal's score for an arm is in
 * [0, 1] (its win rate, or score against the reference, over the deal's seat-swapped or rotated
 * games), and the deals of an arm are independent draws, so Hoeffding's inequality applies to its
 * mean over deals. After look j (every arm in the race has t deals):
 *
 *   r_j = sqrt( ln(4 K j² / δ) / (2 t) )
 *
 * An arm whose mean trails the leader's by more than 2 r_j leaves the race. The race stops when
 * every arm still racing trails the leader by at least 2 r_j − ε (so when one arm is left, and at
 * the latest when r_j ≤ ε/2), or when the budget is spent (the leader is returned, *undecided*).
 *
 * The guarantee (derived in docs/tuning.md): P(|mean − μ| > r_j) ≤ 2 exp(−2 t r_j²) = δ/(2K j²)
 * for one arm at one look; over K arms and every look j ≥ 1 the chance that any estimate strays
 * beyond its radius is at most (δ/2)·π²/6 < δ. While none does, the best arm is never eliminated
 * (it trails the leader's mean by at most 2r), and a leader returned with every other arm at least
 * 2r − ε behind has μ ≥ mean − r ≥ mean_i + r − ε ≥ μ_i − ε for each of them, the best included.
 * So P(the arm returned is ε-best) ≥ 1 − δ for a race that decides; with ε = 0 and one best arm,
 * it is the best arm. What racing saves over uniform allocation (every arm played until the same
 * stop) is the deals of the arms it eliminates early.
 * Indexing the radius by the look rather than by the deals played makes the union bound cover only
 * the looks, which keeps the radius tighter when rounds are several deals long.
 */

/** What the race keeps of an arm: deals played and the sum of its deal scores. */
export interface ArmTally {
  deals: number;
  sum: number;
}

export interface RaceOptions {
  /** Error probability δ of the guarantee (0 < δ < 1). */
  delta: number;
  /** Indifference ε: arms within ε of the best are as good (0 ≤ ε < 1). */
  epsilon: number;
}

export interface RaceState {
  /** Which arms are still racing, by index. */
  alive: boolean[];
  /** Looks taken (rounds completed). */
  looks: number;
  /** The look each arm was eliminated at (undefined while alive). */
  eliminatedAt: (number | undefined)[];
  /** Set when the race has decided: the arm returned and why. */
  decided?: { arm: number; by: 'elimination' | 'epsilon' };
}

/** The radius at look j with t deals per arm, for K arms. */
export function raceRadius(k: number, look: number, deals: number, delta: number): number {
  return Math.sqrt(Math.log((4 * k * look * look) / delta) / (2 * deals));
}

export function startRace(arms: number): RaceState {
  if (!Number.isInteger(arms) || arms < 2) throw new RangeError(`a race needs at least two arms, got ${arms}`);
  return { alive: new Array<boolean>(arms).fill(true), looks: 0, eliminatedAt: new Array(arms).fill(undefined) };
}

/**
 * One look, after a round in which every arm still racing played the same number of new deals
 * (`tallies` are the arms' totals so far): eliminations, and the decision when there is one. A
 * decided race is returned unchanged.
 */
export function raceLook(state: RaceState, tallies: readonly ArmTally[], o: RaceOptions): RaceState {
  if (state.decided) return state;
  const k = state.alive.length;
  const alive = [...state.alive];
  const live = alive.flatMap((a, i) => (a ? [i] : []));
  const deals = tallies[live[0]].deals;
  if (live.some((i) => tallies[i].deals !== deals) || deals === 0) throw new RangeError('a look needs every arm in the race to have played the same deals, at least one');
  const j = state.looks + 1;
  const r = raceRadius(k, j, deals, o.delta);
  const mean = (i: number) => tallies[i].sum / tallies[i].deals;
  const leader = live.reduce((best, i) => (mean(i) > mean(best) ? i : best));
  const eliminatedAt = [...state.eliminatedAt];
  for (const i of live) {
    if (i !== leader && mean(leader) - mean(i) > 2 * r) {
      alive[i] = false;
      eliminatedAt[i] = j;
    }
  }
  const rest = alive.flatMap((a, i) => (a && i !== leader ? [i] : []));
  const separated = rest.every((i) => mean(leader) - mean(i) >= 2 * r - o.epsilon);
  const decided = rest.length === 0 ? { arm: leader, by: 'elimination' as const } : separated ? { arm: leader, by: 'epsilon' as const } : undefined;
  return { alive, looks: j, eliminatedAt, ...(decided ? { decided } : {}) };
}

/** The arm with the best mean among those still racing (the recommendation of an undecided race). */
export function raceLeader(state: RaceState, tallies: readonly ArmTally[]): number {
  const live = state.alive.flatMap((a, i) => (a ? [i] : []));
  return live.reduce((best, i) => (tallies[i].sum / tallies[i].deals > tallies[best].sum / tallies[best].deals ? i : best));
}
