/**
 * A trained network guiding the search (the `model`, `eval` and `prior` options): its values
 * score a simulation where it leaves the tree, its logits are the priors of a tree node's moves.
 * The network reads what a seat may know in the simulated world (agents/encoding.ts), the same
 * observation it was trained on; its values are every seat's predicted final VP, from the reading
 * seat's place (python/wonderlab/train.py), which the search turns into its reward as it does a
 * finished game's VP.
 */
import { ACTION_COUNT, actionIndex, writeObservation } from '../encoding.js';
import { VALUE_SCALE, checkNetworkPlayers, loadNetwork, type Network, type NetworkShape } from '../network.js';
import { ModelError } from '../model-files.js';
import { FullLogits, type Logits } from '../logits.js';
import type { MctsParams } from '../params.js';
import type { GameState } from '../../engine/index.js';
import type { DecisionContext } from '../types.js';
import type { MoveKeys } from './arms.js';

/** A ModelError when `eval` scores by the network and the network has no values to score with. */
export function checkEvalValues(network: NetworkShape, evaluation: MctsParams['eval']): void {
  if (evaluation !== 'playout' && network.valueSize === 0) {
    throw new ModelError(`model '${network.name}': eval=${evaluation} needs a network with values (a second output: python -m wonderlab.train writes one)`);
  }
}

export class NetworkGuide {
  readonly network: Network;
  private bytes = new Uint8Array(0);
  private input = new Float32Array(0);
  private checkedPlayers = 0;

  /** `sha256`: the hash the model's file must have (AgentOptions.models). */
  constructor(model: string, evaluation: MctsParams['eval'], sha256?: string) {
    this.network = loadNetwork(model, { sha256 });
    checkEvalValues(this.network, evaluation);
  }

  /** The observation of seat q in `world`, as the network reads it. */
  private observe(world: GameState, q: number): Float32Array {
    this.sizeFor(world.n);
    writeObservation(world, q, this.bytes);
    return this.toInput();
  }

  private sizeFor(players: number): void {
    if (this.checkedPlayers !== players) {
      checkNetworkPlayers(this.network, players);
      this.checkedPlayers = players;
      this.bytes = new Uint8Array(this.network.inputSize);
      this.input = new Float32Array(this.network.inputSize);
    }
  }

  /** The observation bytes as the network's float input (set converts natively: 0.13 µs against 0.98 for a loop here). */
  private toInput(): Float32Array {
    this.input.set(this.bytes);
    return this.input;
  }

  /** Every seat's predicted final VP in `world` (seat order), as seat `me` sees it, into `scores`. */
  predictScores(world: GameState, me: number, scores: Float64Array): void {
    seatScores(this.network.values(this.observe(world, me)), 0, me, world.n, scores);
  }

  /** The deciding seat's own observation, as the network reads it (as `observe` for a world). */
  private observeOwn(ctx: DecisionContext): Float32Array {
    this.sizeFor(ctx.players);
    ctx.writeObservation(this.bytes);
    return this.toInput();
  }

  /** Every seat's predicted final VP (seat order) from the deciding seat's own observation; empty without values. */
  seatPrediction(ctx: DecisionContext): number[] {
    if (this.network.valueSize === 0) return [];
    const scores = new Float64Array(ctx.players);
    seatScores(this.network.values(this.observeOwn(ctx)), 0, ctx.seat, ctx.players, scores);
    return Array.from(scores);
  }

  /** The network's logits for the deciding seat's own observation (a copy, kept by the root). */
  seatLogits(ctx: DecisionContext): FullLogits {
    return new FullLogits(this.network.logits(this.observeOwn(ctx)).slice());
  }

  /**
   * The network's logits for seat q's decision in `world` (kept by the tree node): computed action
   * by action as the node's priors read them where the runtime can, else all at once (a copy).
   */
  logits(world: GameState, q: number): Logits {
    const input = this.observe(world, q);
    return this.network.deferredLogits?.(input) ?? new FullLogits(this.network.logits(input).slice());
  }

  /** Batched leaves (the batch option): observations row after row, and the last call's outputs. */
  private rows = new Float32Array(0);
  private rowCount = 0;
  private batchOut: { logits: Float32Array; values: Float32Array } = { logits: new Float32Array(0), values: new Float32Array(0) };

  /** Starts a batch of at most `capacity` rows, for games of `players`. */
  startBatch(players: number, capacity: number): void {
    this.sizeFor(players);
    const need = capacity * this.network.inputSize;
    if (this.rows.length < need) this.rows = new Float32Array(need);
    this.rowCount = 0;
  }

  /** Seat me's observation in `world` as the batch's next row; returns the row. */
  addRow(world: GameState, me: number): number {
    const bytes = this.bytes;
    writeObservation(world, me, bytes);
    this.rows.set(bytes, this.rowCount * bytes.length);
    return this.rowCount++;
  }

  /** One network call for the rows added: their logits and/or values, read by rowScores and rowLogits. */
  runBatch(withLogits: boolean, withValues: boolean): void {
    if (this.rowCount > 0) this.batchOut = this.network.batch(this.rows, this.rowCount, withLogits, withValues);
  }

  /** predictScores of a batch row (seat me's observation of a world of n seats). */
  rowScores(row: number, me: number, n: number, scores: Float64Array): void {
    seatScores(this.batchOut.values, row * this.network.valueSize, me, n, scores);
  }

  /** The logits of a batch row (a copy, kept by the tree node). */
  rowLogits(row: number): FullLogits {
    return new FullLogits(this.batchOut.logits.slice(row * ACTION_COUNT, (row + 1) * ACTION_COUNT));
  }
}

/**
 * The priors of the keys `keys` (a tree node's moves in this world): softmax over the keys of each
 * key's logit divided by `temp` (ptemp), a key's logit being the highest of the legal moves it
 * stands for (a grouped arm stands for several cards). Written to priors[0 .. keys.length).
 */
export function keyPriors(logits: Logits, keys: readonly number[], legal: readonly number[], moveKeys: MoveKeys, priors: Float64Array, temp: number): void {
  const k = keys.length;
  for (let i = 0; i < k; i++) priors[i] = -Infinity;
  for (let j = 0; j < legal.length; j++) {
    const key = moveKeys.key(legal[j]);
    const l = logits.at(actionIndex(legal[j]));
    for (let i = 0; i < k; i++) {
      if (keys[i] === key) {
        if (l > priors[i]) priors[i] = l;
        break;
      }
    }
  }
  let max = -Infinity;
  for (let i = 0; i < k; i++) if (priors[i] > max) max = priors[i];
  let sum = 0;
  for (let i = 0; i < k; i++) {
    // x / 1 is x: at the default temperature the priors are those before the option.
    priors[i] = Math.exp((priors[i] - max) / temp);
    sum += priors[i];
  }
  for (let i = 0; i < k; i++) priors[i] /= sum;
}

/** A network's values from `at` on, in relative order (`me` first, then its left neighbour, …), as every seat's VP in seat order. */
function seatScores(values: Float32Array, at: number, me: number, n: number, scores: Float64Array): void {
  for (let k = 0; k < n; k++) scores[me + k < n ? me + k : me + k - n] = values[at + k] * VALUE_SCALE;
}
