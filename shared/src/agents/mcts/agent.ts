/**
 * Monte Carlo Tree Search over information sets, as in Minenko (2025), with the enhancements of
 * Robilliard, Fonlupt and Teytaud (2014) and more as options (the parameter table, params.ts).
 *
 * One iteration: take a world consistent with what the agent knows (det=is: a fresh one each
 * iteration, one tree; det=pimc: one of `worlds` worlds sampled once, each with its own tree);
 * descend the tree, choosing among the children whose moves are legal in that world by UCB
 * (adding one untried legal move when there is one); play the rest of the game, or `depth` turns
 * from the decision, with the playout policy; score it; back the rewards up the path.
 *
 * Asked for them (AgentOptions.searchStatistics), a decision also carries its root statistics
 * (statistics.ts), gathered after the choice without a draw from the agent's RNG.
 */
import { MAX_PLAYERS, PHASE_TURN, Rng, clone, copyState, legalMoves, scoreTotal, seatActs, step, type GameState } from '../../engine/index.js';
import { NO_MODEL, type MctsParams } from '../params.js';
import { ModelError } from '../model-files.js';
import type { Agent, AgentOptions, Decision, DecisionContext, SearchStatistics } from '../types.js';
import { MoveKeys, isArm } from './arms.js';
import { PlayoutEvaluator, leafEvaluator, mixInto, type LeafEvaluator } from './evaluation.js';
import { dirichlet } from './noise.js';
import { fillRewards } from './reward.js';
import { Playouts } from './policies.js';
import { childSelection, type ChildSelection } from './selection.js';
import { searchStatistics } from './statistics.js';
import { NetworkGuide } from './network-guide.js';
import { Node, rankRootMoves, rootSettled, type RootMove } from './tree.js';


export class MctsAgent implements Agent {
  readonly moveMode: 'cheapest' | 'all';
  private readonly moves = new Int32Array(MAX_PLAYERS);
  private readonly treeLegal: number[] = [];
  private readonly treeKeys: number[] = [];
  /**
   * The decision's own legal moves and their tree keys, for the root level of every iteration on
   * a normal turn: there the agent's moves depend only on what it knows (its hand, its city, the
   * public cities and coins), so every world it samples lists the same moves as the true state.
   */
  private rootLegal: readonly number[] = [];
  private readonly rootKeys: number[] = [];
  private readonly scores = new Float64Array(MAX_PLAYERS);
  private readonly rewards = new Float64Array(MAX_PLAYERS);
  /** The network of eval and prior (model=…), if they read one. */
  private readonly guide: NetworkGuide | undefined;
  /** How a leaf is scored (eval) and how the tree chooses (prior). */
  private readonly evaluator: LeafEvaluator;
  private readonly selection: ChildSelection;
  private readonly path: Node[] = [];
  /** batch > 1: the scratch of a call's leaves, and the playouts of eval=playout and mix there. */
  private readonly batch: BatchScratch | undefined;
  private readonly playoutLeaf: PlayoutEvaluator;
  private readonly playouts: Playouts;
  private readonly keys: MoveKeys;
  /** The world the iterations play in, kept for the next decision's draws. */
  private world: GameState | undefined;
  /** reuse=on: the subtree under the agent's last move, the next decision's root. */
  private kept: Node | undefined;
  /** The last decision's trees (one, or `worlds` with det=pimc), for inspection. */
  lastRoots: readonly Node[] = [];
  /** The last decision's legal root moves, best first. */
  lastSearch: RootMove[] = [];

  /** Whether decisions carry their root statistics, and all root moves or the top ones (AgentOptions.searchStatistics). */
  private readonly explains: boolean | 'all';

  constructor(
    readonly params: MctsParams,
    options: AgentOptions = {},
  ) {
    this.moveMode = params.trades;
    this.explains = options.searchStatistics ?? false;
    this.playouts = new Playouts(params);
    this.keys = new MoveKeys(params.arms === 'grouped', params.trades);
    this.guide = params.model !== NO_MODEL ? new NetworkGuide(params.model, params.eval, options.models?.[params.model]) : undefined;
    if ((params.prior !== 'ucb' || params.eval !== 'playout') && !this.guide) {
      throw new ModelError(`eval=${params.eval}, prior=${params.prior} read a network: give one (model=NAME.onnx)`);
    }
    this.evaluator = leafEvaluator(params, this.playouts, this.guide);
    this.playoutLeaf = new PlayoutEvaluator(params, this.playouts);
    this.batch = params.batch > 1 ? new BatchScratch(params.batch) : undefined;
    this.selection = childSelection(params, this.keys, this.guide);
  }

  decide(ctx: DecisionContext): Decision {
    const p = this.params;
    const me = ctx.seat;
    const rng = ctx.rng;
    if (ctx.legal.length === 1) {
      // The tree has a level for this decision too: follow it.
      if (p.reuse === 'on') this.kept = this.kept?.child(this.keys.key(ctx.legal[0]), me);
      this.lastRoots = [];
      this.lastSearch = [];
      return { move: ctx.legal[0], iterations: 0 };
    }
    const budget = Math.max(1, Math.round(p.it * p.scale[ctx.age - 1]));
    const c = p.c;
    const deadline = p.time > 0 ? performance.now() + p.time * 1000 : Infinity;
    this.playouts.mast?.reset();
    let worlds: GameState[] | undefined;
    let roots: Node[];
    if (p.det === 'pimc') {
      worlds = [];
      for (let k = 0; k < p.worlds; k++) worlds.push(ctx.sampleWorld(rng));
      roots = worlds.map(() => new Node(-1, -1));
    } else {
      roots = [(p.reuse === 'on' && this.kept) || new Node(-1, -1)];
    }
    // prior=root: the root's priors come from what the seat knows, the same in every world (a kept
    // subtree's were read in a world of the last decision, where this hand was only guessed).
    if (p.prior === 'root') {
      const logits = this.guide!.seatLogits(ctx);
      for (const root of roots) root.logits = logits;
    }
    const carried = roots[0].visits;
    this.rootLegal = ctx.legal;
    this.keys.keys(ctx.legal, this.rootKeys);
    this.selection.rootNoise = p.noise > 0 ? this.drawRootNoise(rng) : undefined;
    // A world to resolve the statistics' grouped arms in, taken from the search's own worlds so
    // that explaining samples none of its own (the bury rule reads only what the seat knows).
    let shown = worlds?.[0];
    let done = 0;
    let cutShort = false;
    // A kept subtree (reuse=on) also has moves that were legal only in the worlds it was grown in.
    const allowed = new Set(ctx.legal.map((m) => this.keys.key(m)));
    const settles = p.stop === 'settled';
    // stop=settled: the root's move with the most visits cannot be caught before its lead is more
    // than the iterations left, so the check waits until that is possible at all.
    const settledAt = (left: number) => settles && roots[0].visits > left && rootSettled(roots[0], me, allowed, left);
    // One world serves every iteration, overwritten by the next draw: no state is allocated.
    let world = this.world?.n === ctx.players ? this.world : undefined;
    const batch = this.batch;
    if (batch) {
      const bw = batch.worlds;
      if (bw.length > 0 && bw[0].n !== ctx.players) bw.length = 0;
      while (done < budget) {
        // The clock is read once per call (a call's leaves are about the 8 iterations between reads of the unbatched loop).
        if (done > 0 && performance.now() >= deadline) {
          cutShort = true;
          break;
        }
        const count = Math.min(p.batch, budget - done);
        for (let j = 0; j < count; j++) {
          const k = (done + j) % roots.length;
          bw[j] = worlds ? (bw[j] ? copyState(bw[j], worlds[k]) : clone(worlds[k])) : ctx.sampleWorld(rng, bw[j]);
          if (this.explains && !shown) shown = clone(bw[j]);
        }
        this.iterateBatch(bw, roots, done, count, me, c, rng);
        done += count;
        if (settledAt(budget - done)) break;
      }
    }
    // Unbatched (a batched search that stopped for the clock does not go on here).
    while (!batch && done < budget) {
      // Reading the clock every iteration would cost more than a short playout.
      if ((done & 7) === 0 && done > 0 && performance.now() >= deadline) {
        cutShort = true;
        break;
      }
      const k = done % roots.length;
      world = worlds ? (world ? copyState(world, worlds[k]) : clone(worlds[k])) : ctx.sampleWorld(rng, world);
      if (this.explains && !shown) shown = clone(world);
      this.iterate(world, me, roots[k], c, rng);
      done++;
      if (settledAt(budget - done)) break;
    }
    this.world = world;
    this.lastRoots = roots;
    this.lastSearch = rankRootMoves(p, roots, me, allowed, rng);
    const key = this.lastSearch.length > 0 ? this.lastSearch[0].move : this.keys.key(ctx.legal[0]);
    // The bury rule reads only the agent's own hand and public facts: any world of its own does.
    const move = this.keys.resolve(isArm(key) ? (worlds?.[0] ?? ctx.sampleWorld(rng)) : undefined, me, key, ctx.legal, rng);
    if (p.reuse === 'on') this.kept = roots[0].child(key, me);
    if (!this.explains) return { move, iterations: done, cutShort };
    return { move, iterations: done, cutShort, search: this.explain(ctx, key, move, done, carried, shown!) };
  }

  /** The decision's Dirichlet draw over the root's keys (noise > 0), one η per key. */
  private drawRootNoise(rng: Rng): Map<number, number> {
    const k = this.rootKeys.length;
    const eta = new Float64Array(k);
    dirichlet(this.params.alpha, k, rng, eta);
    const noise = new Map<number, number>();
    for (let i = 0; i < k; i++) noise.set(this.rootKeys[i], eta[i]);
    return noise;
  }

  /**
   * The last search's root statistics, its tree keys turned into legal moves: the move played
   * for the chosen key, else the key's move in `world`, with a generator of its own for the bury
   * rule's ties, so that the agent's RNG is not touched.
   */
  private explain(ctx: DecisionContext, chosen: number, move: number, iterations: number, carried: number, world: GameState): SearchStatistics {
    const draws = new Rng(ctx.seat);
    const moveOf = (key: number) => (key === chosen ? move : this.keys.resolve(world, ctx.seat, key, ctx.legal, draws));
    const limit = this.explains === 'all' ? Infinity : undefined;
    const statistics = searchStatistics({ ranked: this.lastSearch, chosen, moveOf, iterations, carried, votes: this.params.det === 'pimc' && this.params.worlds > 1, limit });
    // What the network makes of the position, beside what the search made of it (the play page's "why").
    const network = this.guide?.seatPrediction(ctx);
    return network?.length ? { ...statistics, network } : statistics;
  }

  /** One iteration: descend, score the leaf, back the rewards up. */
  private iterate(world: GameState, me: number, root: Node, c: number, rng: Rng): void {
    const pathLen = this.descend(world, me, root, c, rng, this.path);
    const scores = this.scores;
    const rewards = this.rewards;
    this.evaluator.evaluate(world, me, this.turns, rng, scores, rewards);
    this.playouts.mast?.update(rewards);
    backUp(this.path, pathLen, scores, rewards, true);
  }

  /**
   * `count` iterations with their leaves scored by one network call (batch > 1): each descent,
   * in turn, leaves a virtual visit (no reward) on its path, so that the next one is steered away
   * from it; a leaf that eval=mix plays out is read by the network first. The call gives each leaf
   * its value (eval=net, mix) and each new node its priors (prior=net, read where it was found:
   * the leaf, seat me's decision). Then each path gets its rewards, the visits already counted.
   */
  private iterateBatch(worlds: readonly GameState[], roots: readonly Node[], first: number, count: number, me: number, c: number, rng: Rng): void {
    const p = this.params;
    const guide = this.guide!;
    const b = this.batch!;
    const netValues = p.eval !== 'playout';
    const netPriors = p.prior === 'net' && p.tree === 'joint';
    const n = worlds[0].n;
    guide.startBatch(n, count);
    for (let j = 0; j < count; j++) {
      const world = worlds[j];
      const path = b.paths[j];
      const len = this.descend(world, me, roots[(first + j) % roots.length], c, rng, path);
      for (let i = 0; i < len; i++) path[i].visits++;
      b.pathLen[j] = len;
      b.fresh[j] = this.expandedNode;
      const over = world.isOver();
      const wantsPriors = netPriors && this.expandedNode !== undefined && !over && seatActs(world, me);
      b.row[j] = !over && (netValues || wantsPriors) ? guide.addRow(world, me) : -1;
      // A playout plays the leaf on now (eval=playout, mix; a finished game is scored as it stands).
      if (p.eval !== 'net') this.playoutLeaf.evaluate(world, me, this.turns, rng, b.scores[j], b.rewards[j]);
    }
    guide.runBatch(netPriors, netValues);
    const scores = this.scores;
    const rewards = this.rewards;
    for (let j = 0; j < count; j++) {
      const row = b.row[j];
      if (netValues) {
        if (row < 0) {
          // A finished game: its VP as they stand (and with mix, the playout's scoring of the same).
          for (let q = 0; q < n; q++) scores[q] = scoreTotal(worlds[j], q);
        } else {
          guide.rowScores(row, me, n, scores);
        }
        fillRewards(p.reward, scores, n, rewards);
        if (p.eval === 'mix') mixInto(n, p.lambda, b.scores[j], b.rewards[j], scores, rewards, scores, rewards);
      } else {
        scores.set(b.scores[j]);
        rewards.set(b.rewards[j]);
      }
      const fresh = b.fresh[j];
      if (netPriors && fresh && row >= 0 && fresh.logits === undefined) fresh.logits = guide.rowLogits(row);
      this.playouts.mast?.update(rewards);
      backUp(b.paths[j], b.pathLen[j], scores, rewards, false);
    }
  }

  /** Turns played by the last descent. */
  private turns = 0;
  /** The node the last descent added to the tree (its first visit), if it added one. */
  private expandedNode: Node | undefined;

  /**
   * Descends from `root` in `world` (stepped along), choosing the agent's moves by the tree and the
   * others' by their playout policies, until a node is visited for the first time, the game ends
   * or the depth is reached; writes the nodes visited to path and returns how many.
   */
  private descend(world: GameState, me: number, root: Node, c: number, rng: Rng, path: Node[]): number {
    const p = this.params;
    const n = world.n;
    const moves = this.moves;
    const playouts = this.playouts;
    const mast = playouts.mast;
    const keys = this.keys;
    this.expandedNode = undefined;
    // The nodes visited are path[0..pathLen): the list is reused, never emptied (see setListLength).
    let pathLen = 0;
    path[pathLen++] = root;
    let node = root;
    let turns = 0;
    let expanded = false;
    // Descent: one tree level per acting seat that the tree models, the agent's own first (the
    // root's children are its moves; the order of simultaneous choices is otherwise immaterial).
    while (!expanded && !world.isOver() && turns < p.depth) {
      for (let k = 0; k < n; k++) {
        const q = me + k < n ? me + k : me + k - n;
        if (!seatActs(world, q)) continue;
        if (p.tree === 'joint' && q !== me) {
          moves[q] = playouts.move(world, q, playouts.policyOf(q, me), rng);
          continue;
        }
        if (expanded) {
          moves[q] = playouts.move(world, q, playouts.policyOf(q, me), rng);
          continue;
        }
        const atRoot = pathLen === 1 && world.phase === PHASE_TURN;
        const legal = atRoot ? this.rootLegal : legalMoves(world, q, p.trades, this.treeLegal);
        const available = atRoot ? this.rootKeys : keys.keys(legal, this.treeKeys);
        const next = this.selection.select(node, pathLen - 1, world, q, available, legal, c, rng);
        if (next.visits === 0) {
          expanded = true;
          this.expandedNode = next;
        }
        node = next;
        path[pathLen++] = node;
        moves[q] = keys.resolve(world, q, node.move, legal, rng);
        mast?.note(q, moves[q]);
      }
      if (world.phase === PHASE_TURN) turns++;
      step(world, moves);
    }
    this.turns = turns;
    return pathLen;
  }
}

/** Backs a simulation's rewards and VP up the nodes path[0..len), counting the visit unless it was counted on the way down. */
function backUp(path: readonly Node[], len: number, scores: Float64Array, rewards: Float64Array, countVisit: boolean): void {
  for (let i = 0; i < len; i++) {
    const visited = path[i];
    if (countVisit) visited.visits++;
    if (visited.mover >= 0) {
      visited.reward += rewards[visited.mover];
      visited.vp += scores[visited.mover];
    }
  }
}

/** The scratch of batched iterations (batch > 1), one entry per leaf of a call. */
class BatchScratch {
  readonly paths: Node[][];
  readonly pathLen: Int32Array;
  readonly row: Int32Array;
  readonly fresh: (Node | undefined)[];
  readonly scores: Float64Array[];
  readonly rewards: Float64Array[];
  /** The worlds the leaves are played in, kept from decision to decision. */
  worlds: GameState[] = [];

  constructor(size: number) {
    this.paths = Array.from({ length: size }, () => []);
    this.pathLen = new Int32Array(size);
    this.row = new Int32Array(size);
    this.fresh = new Array<Node | undefined>(size).fill(undefined);
    this.scores = Array.from({ length: size }, () => new Float64Array(MAX_PLAYERS));
    this.rewards = Array.from({ length: size }, () => new Float64Array(MAX_PLAYERS));
  }
}
