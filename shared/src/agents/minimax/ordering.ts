/**
 * The minimax agent's move ordering and forward-pruning filter: a seat's legal moves as keys (one
 * stage and one discard, MCTS's grouped arms), sorted by the thesis's rule-based ranking (rules
 * 1–7 in order, blue cards by most VP, a wonder stage as rule 4, a discard last; ties keep the
 * legal moves' order), the first `keep` kept, each resolved into a move (an arm by the bury rule).
 *
 * The bury rule's ties are drawn from a generator reset to the same state before every
 * resolution, so that a node's moves never depend on the order the search visits nodes in
 * (iterative deepening and alpha-beta visit them differently).
 */
import { ACTION_DISCARD, ACTION_STAGE, CARDS, Rng, moveAction, moveCard, type GameState } from '../../engine/index.js';
import { MoveKeys, isArm } from '../mcts/arms.js';
import { producedBy, strongestInWar, thesisBuildRule } from '../playout-rules.js';

/**
 * The ordering's rank of a move key for a seat producing `have` that is or is not `strongest`:
 * lower first. A build ranks as the thesis rule it falls under ×100 (blue cards less their VP,
 * since rule 5 takes the most VP), a stage as rule 4, a discard last.
 */
function rank(key: number, have: number, strongest: boolean): number {
  const a = moveAction(key);
  if (a === ACTION_DISCARD) return 800;
  if (a === ACTION_STAGE) return 400;
  const c = moveCard(key);
  const rule = thesisBuildRule(c, have, strongest);
  return rule * 100 + (rule === 5 ? 99 - CARDS[c].vp : 0);
}

/** Scratch lists of one search level. */
export interface OrderedMoves {
  keys: number[];
  ranks: number[];
  /** The moves to search, in order. */
  moves: number[];
}

export const orderedMoves = (): OrderedMoves => ({ keys: [], ranks: [], moves: [] });

export class MoveOrdering {
  private readonly moveKeys = new MoveKeys(true, 'cheapest');
  private readonly ties = new Rng(0);
  private readonly tieState = new Uint32Array(4);

  /** Sets the state every resolution's tie draws start from (one per decision). */
  reset(seed: Rng): void {
    seed.forkInto(this.ties);
    this.tieState.set(this.ties.s);
  }

  /** The legal move a key stands for, for seat q in `world`. */
  resolve(world: GameState, q: number, key: number, legal: readonly number[]): number {
    if (!isArm(key)) return this.moveKeys.resolve(undefined, q, key, legal, this.ties);
    this.ties.s.set(this.tieState);
    return this.moveKeys.resolve(world, q, key, legal, this.ties);
  }

  /** Fills `out` with seat q's ordered keys and moves in `world`, at most `keep` (0: all); returns out.moves. */
  order(world: GameState, q: number, legal: readonly number[], keep: number, out: OrderedMoves): number[] {
    const keys = this.moveKeys.keys(legal, out.keys);
    const have = producedBy(world, q);
    const strongest = strongestInWar(world, q);
    const ranks = out.ranks;
    ranks.length = keys.length;
    for (let i = 0; i < keys.length; i++) ranks[i] = rank(keys[i], have, strongest);
    // Insertion sort, stable: a hand has at most a dozen keys.
    for (let i = 1; i < keys.length; i++) {
      const k = keys[i];
      const r = ranks[i];
      let j = i - 1;
      while (j >= 0 && ranks[j] > r) {
        keys[j + 1] = keys[j];
        ranks[j + 1] = ranks[j];
        j--;
      }
      keys[j + 1] = k;
      ranks[j + 1] = r;
    }
    if (keep > 0 && keys.length > keep) keys.length = keep;
    const moves = out.moves;
    moves.length = keys.length;
    for (let i = 0; i < keys.length; i++) moves[i] = this.resolve(world, q, keys[i], legal);
    return moves;
  }
}
