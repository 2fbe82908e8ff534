/**
 * Trained networks as the agents use them: ONNX files under MODELS_DIR (default `models/` in the
 * working directory), named by their path there, found and checked before they are read by
 * model-files.ts (never a file outside MODELS_DIR, nor one over the size limit). A
 * network reads a seat's observation vector (agents/encoding.ts, as float32) and gives one logit
 * per action index (its first output) and, when it has a second output, a value per seat (the
 * seats' predicted final VP / VALUE_SCALE, this seat first: python/wonderlab/train.py).
 *
 * Its subnormal weights are zeroed as it is loaded (onnx-subnormals.ts: they make every call many
 * times slower). Every model is loaded and checked by onnxruntime-node. A multilayer perceptron (the
 * networks the lab trains: onnx-mlp.ts) is then run by the lab's WebAssembly kernel
 * (mlp-network.ts), a third of onnxruntime's cost at one row, once the two agree on probe inputs;
 * any other model by onnxruntime's native session, called synchronously (its promise-returning
 * `run` only defers the same native call to the next tick), one thread per session: a game thread
 * decides while it waits. NETWORK_RUNTIME=onnxruntime runs every model by onnxruntime. `policy(model=…)` plays a network's logits
 * (policy.ts); MCTS reads its logits as priors and its values as leaf evaluations
 * (mcts/network-guide.ts).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { ACTION_COUNT, observationSize } from './encoding.js';
import { ModelError, ONNX_MAX_BYTES, modelFile, readModelFile, type ModelFile } from './model-files.js';
import { zeroSubnormalWeights } from './onnx-subnormals.js';
import { readMlp } from './onnx-mlp.js';
import { MlpNetwork, MlpRunner } from './mlp-network.js';
import type { Logits } from './logits.js';

/** The network's values are the seats' final VP divided by this (python/wonderlab/train.py's VALUE_SCALE). */
export const VALUE_SCALE = 50;

/** What the checks read of a network: its file's hash and its shape. */
export interface NetworkShape {
  /** The model's name under MODELS_DIR. */
  readonly name: string;
  /** sha256 of the model file, hex. */
  readonly sha256: string;
  /** The observation length it reads (observationSize(players)). */
  readonly inputSize: number;
  /** Values per observation: its second output's width (the players), or 0 without one. */
  readonly valueSize: number;
}

/** What the agents need of a network: logits, and values where it has them, for one observation. */
export interface Network extends NetworkShape {
  /** What computes it: the lab's WebAssembly kernel (an MLP, mlp-network.ts) or onnxruntime. */
  readonly runtime: NetworkRuntime;
  /** ACTION_COUNT logits for one observation (an array the next call may overwrite). */
  logits(observation: Float32Array): Float32Array;
  /**
   * Where the runtime can (the kernel), the logits for one observation computed action by action
   * as they are read, the same values as logits(); undefined otherwise.
   */
  deferredLogits?(observation: Float32Array): Logits | undefined;
  /**
   * The values for one observation (its second output; empty without one; an array the next
   * call may overwrite). Only that output is computed: the logits' layer is skipped.
   */
  values(observation: Float32Array): Float32Array;
  /**
   * `count` observations in one call (the first count × inputSize values of `observations`, one
   * row each): their logits (count × ACTION_COUNT, row after row) when `withLogits`, and their
   * values (count × valueSize) when `withValues` and the network has them; what is not asked for is
   * empty. A call's cost is mostly fixed (on the lab's MLPs, 8 rows cost about twice 1): batched
   * leaves (the MCTS `batch` option) pay it once.
   */
  batch(observations: Float32Array, count: number, withLogits: boolean, withValues: boolean): { logits: Float32Array; values: Float32Array };
}

/** `wasm`: the lab's own kernel, for the MLPs it trains (mlp-network.ts); `onnxruntime`: any model. */
export type NetworkRuntime = 'wasm' | 'onnxruntime';

/**
 * Where a check finds the network of a model name (ModelError when there is none that loads):
 * loaded in place (localModels), or looked up among networks checked beforehand on another thread
 * (the coordinator's).
 */
export type ModelLookup = (name: string) => NetworkShape;

// The native binding's surface that is used here (onnxruntime-node/dist/binding.d.ts).
interface NativeSession {
  loadModel(buffer: ArrayBuffer, byteOffset: number, byteLength: number, options: object): void;
  readonly inputMetadata: { name: string; shape: number[] }[];
  readonly outputMetadata: { name: string; shape: number[] }[];
  run(feeds: Record<string, unknown>, fetches: Record<string, null>, options: object): Record<string, { data: Float32Array; dims: readonly number[] }>;
  dispose(): void;
}
interface Ort {
  Session: new () => NativeSession;
  Tensor: new (type: 'float32', data: Float32Array, dims: readonly number[]) => unknown;
}

let ort: Ort | undefined;

/** onnxruntime-node, loaded on first use: nothing else in the lab loads the native library. */
function onnxRuntime(): Ort {
  if (!ort) {
    const require = createRequire(import.meta.url);
    const { binding, initOrt } = require('onnxruntime-node/dist/binding.js') as { binding: { InferenceSession: new () => NativeSession }; initOrt: () => void };
    // onnxruntime-common as onnxruntime-node itself resolves it (its dependency, not ours).
    const { Tensor } = createRequire(require.resolve('onnxruntime-node'))('onnxruntime-common') as { Tensor: Ort['Tensor'] };
    initOrt();
    ort = { Session: binding.InferenceSession, Tensor };
  }
  return ort;
}

const NO_VALUE = new Float32Array(0);

class OnnxNetwork implements Network {
  readonly runtime = 'onnxruntime';
  private readonly input: string;
  private readonly output: string;
  private readonly valueOutput: string | undefined;
  private readonly dims: readonly number[];

  constructor(
    readonly name: string,
    readonly sha256: string,
    readonly inputSize: number,
    readonly valueSize: number,
    private readonly session: NativeSession,
  ) {
    this.input = session.inputMetadata[0].name;
    this.output = session.outputMetadata[0].name;
    this.valueOutput = valueSize > 0 ? session.outputMetadata[1].name : undefined;
    this.dims = [1, inputSize];
    this.fetchLogits = { [this.output]: null };
    this.fetchValues = this.valueOutput ? { [this.valueOutput]: null } : undefined;
  }

  /** Frees the native session now, not when the collector gets to it (a network only checked, never played). */
  dispose(): void {
    this.session.dispose();
  }

  /** The input tensor of the last call, kept while callers pass the same array (an agent reuses one). */
  private feeds?: { array: Float32Array; value: Record<string, unknown> };
  private readonly fetchLogits: Record<string, null>;
  private readonly fetchValues: Record<string, null> | undefined;
  private readonly options = {};

  private feed(observation: Float32Array): Record<string, unknown> {
    if (this.feeds?.array !== observation) {
      const { Tensor } = onnxRuntime();
      // A tensor wraps its array without copying: later contents of `observation` are what it reads.
      this.feeds = { array: observation, value: { [this.input]: new Tensor('float32', observation, this.dims) } };
    }
    return this.feeds.value;
  }

  logits(observation: Float32Array): Float32Array {
    return this.session.run(this.feed(observation), this.fetchLogits, this.options)[this.output].data;
  }

  values(observation: Float32Array): Float32Array {
    if (!this.fetchValues || !this.valueOutput) return NO_VALUE;
    return this.session.run(this.feed(observation), this.fetchValues, this.options)[this.valueOutput].data;
  }

  /** Per caller's array and row count, the input tensor over its rows (searches sharing the network keep their own). */
  private batchFeeds = new WeakMap<Float32Array, Map<number, Record<string, unknown>>>();

  batch(observations: Float32Array, count: number, withLogits: boolean, withValues: boolean): { logits: Float32Array; values: Float32Array } {
    const values = withValues && this.valueOutput !== undefined;
    if (!withLogits && !values) return { logits: NO_VALUE, values: NO_VALUE };
    let byCount = this.batchFeeds.get(observations);
    if (!byCount) this.batchFeeds.set(observations, (byCount = new Map()));
    let feed = byCount.get(count);
    if (!feed) {
      const { Tensor } = onnxRuntime();
      // A view of the rows asked for: the tensor reads them without a copy.
      const rows = observations.subarray(0, count * this.inputSize);
      feed = { [this.input]: new Tensor('float32', rows, [count, this.inputSize]) };
      byCount.set(count, feed);
    }
    const fetches: Record<string, null> = {};
    if (withLogits) fetches[this.output] = null;
    if (values) fetches[this.valueOutput!] = null;
    const out = this.session.run(feed, fetches, this.options);
    return { logits: withLogits ? out[this.output].data : NO_VALUE, values: values ? out[this.valueOutput!].data : NO_VALUE };
  }
}

/**
 * A checked file read, hashed and loaded into a session, checked to read a float32 [batch, D]
 * observation and give [batch, ACTION_COUNT] logits first (and, if it has a second output,
 * [batch, P] values). ModelError naming the model otherwise (a loaded session then freed at once).
 */
function openNetwork(file: ModelFile, runtime: NetworkRuntime = 'onnxruntime'): Network & { dispose?(): void } {
  const { name } = file;
  const bytes = readModelFile(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // The copy in memory only, after the hash: the file stays the one its manifest names.
  try {
    zeroSubnormalWeights(bytes);
  } catch {
    // Not a protobuf message: onnxruntime says below what is wrong with it.
  }
  const { Session } = onnxRuntime();
  const session = new Session();
  try {
    session.loadModel(bytes.buffer, bytes.byteOffset, bytes.byteLength, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
  } catch (err) {
    throw new ModelError(`model '${name}': not a model onnxruntime can load (${(err as Error).message.split('\n')[0]})`);
  }
  try {
    const inputs = session.inputMetadata;
    const outputs = session.outputMetadata;
    const inputSize = inputs[0]?.shape.at(-1) ?? -1;
    if (inputs.length !== 1 || inputs[0].shape.length !== 2 || !(inputSize > 0)) {
      throw new ModelError(`model '${name}': expected one input of shape [batch, observation size], got ${JSON.stringify(inputs.map((i) => i.shape))}`);
    }
    const width = outputs[0]?.shape.at(-1);
    if (outputs.length < 1 || width !== ACTION_COUNT) {
      throw new ModelError(`model '${name}': expected its first output to be [batch, ${ACTION_COUNT}] logits, got ${JSON.stringify(outputs.map((o) => o.shape))}`);
    }
    const valueSize = outputs[1]?.shape.length === 2 ? (outputs[1].shape[1] ?? 0) : 0;
    if (outputs.length > 1 && !(valueSize >= 3 && valueSize <= 7)) {
      throw new ModelError(`model '${name}': expected its second output to be [batch, players] values, got ${JSON.stringify(outputs[1].shape)}`);
    }
    const network = new OnnxNetwork(name, sha256, inputSize, outputs.length > 1 ? valueSize : 0, session);
    if (runtime === 'wasm') {
      let mlp: MlpNetwork | undefined;
      try {
        mlp = asMlp(bytes, network);
      } catch {
        // A plan the kernel cannot hold (its memory): onnxruntime runs it.
      }
      if (mlp) {
        session.dispose();
        return mlp;
      }
    }
    return network;
  } catch (err) {
    session.dispose();
    throw err;
  }
}

/** Probe inputs per check: observation-like (small counts, most zero), from a fixed generator. */
const PROBES = 8;
/** How far the kernel's outputs may be from onnxruntime's: sums in another order differ by about 1e-6. */
const PROBE_TOLERANCE = 1e-4;

/**
 * The model as an MlpNetwork, when it is an MLP (onnx-mlp.ts) of the shape onnxruntime read and
 * the kernel's logits and values agree with onnxruntime's on the probes (within PROBE_TOLERANCE,
 * relative above 1); undefined otherwise (onnxruntime runs it).
 */
function asMlp(bytes: Uint8Array, reference: OnnxNetwork): MlpNetwork | undefined {
  const plan = readMlp(bytes);
  if (!plan || plan.inputSize !== reference.inputSize) return undefined;
  const widths = plan.outputs.map((k) => plan.layers[k].outputs);
  if (widths[0] !== ACTION_COUNT || (widths[1] ?? 0) !== reference.valueSize) return undefined;
  const mlp = new MlpNetwork(reference.name, reference.sha256, reference.inputSize, reference.valueSize, new MlpRunner(plan));
  const x = new Float32Array(reference.inputSize);
  let state = 0x9e3779b9;
  const next = (): number => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
  const far = (a: Float32Array, b: Float32Array): boolean => a.length !== b.length || a.some((v, i) => !(Math.abs(v - b[i]) <= PROBE_TOLERANCE * Math.max(1, Math.abs(b[i]))));
  for (let probe = 0; probe < PROBES; probe++) {
    for (let i = 0; i < x.length; i++) x[i] = next() < 0.15 ? Math.floor(next() * 9) : 0;
    if (far(Float32Array.from(mlp.logits(x)), reference.logits(x))) return undefined;
    if (reference.valueSize > 0 && far(Float32Array.from(mlp.values(x)), reference.values(x))) return undefined;
  }
  return mlp;
}

/** The runtime loadNetwork uses unless told: NETWORK_RUNTIME, else wasm for the MLPs that allow it. */
function defaultRuntime(): NetworkRuntime {
  const env = process.env.NETWORK_RUNTIME;
  if (env === undefined || env === '' || env === 'wasm') return 'wasm';
  if (env === 'onnxruntime') return env;
  throw new ModelError(`NETWORK_RUNTIME='${env}': expected wasm or onnxruntime`);
}

const loaded = new Map<string, { identity: string; network: Network }>();

/** Options of loadNetwork. */
export interface LoadOptions {
  /** Refuse a larger file, from its size (MAX_MODEL_BYTES where the lab sets one); default: the 2 GiB an ONNX file can hold. */
  maxBytes?: number;
  /** The sha256 the file must have (a sweep's record of it): another is a ModelError, never a network played in its place. */
  sha256?: string;
  /** `onnxruntime` runs the model by onnxruntime even when it is an MLP; default NETWORK_RUNTIME's choice (wasm where it can). */
  runtime?: NetworkRuntime;
}

/**
 * The network of a model name, loaded once per process and again when its file is another
 * (model-files.ts: its identity), checked as openNetwork says. Throws ModelError naming the model
 * for a missing, unreadable, mis-shaped or (given `sha256`) changed file.
 */
export function loadNetwork(name: string, options: LoadOptions = {}): Network {
  const file = modelFile(name, options.maxBytes ?? ONNX_MAX_BYTES);
  const runtime = options.runtime ?? defaultRuntime();
  const key = `${runtime} ${name}`;
  let kept = loaded.get(key);
  if (kept?.identity !== file.identity) {
    kept = { identity: file.identity, network: openNetwork(file, runtime) };
    loaded.set(key, kept);
  }
  const { network } = kept;
  if (options.sha256 !== undefined && network.sha256 !== options.sha256) {
    throw new ModelError(`model '${name}' changed since the sweep was submitted: sha256 ${options.sha256.slice(0, 12)}… recorded, ${network.sha256.slice(0, 12)}… now`);
  }
  return network;
}

/**
 * A model's hash and shape, read from its file under `dirs` (MODELS_DIR's folders) and checked as
 * loadNetwork checks it, without keeping the network (its session is freed at once): what a
 * thread that only checks models answers (the coordinator's).
 */
export function inspectNetwork(name: string, maxBytes: number, dirs?: readonly string[]): NetworkShape {
  const network = openNetwork(modelFile(name, maxBytes, dirs));
  network.dispose?.();
  return { name, sha256: network.sha256, inputSize: network.inputSize, valueSize: network.valueSize };
}

/** A ModelError when the network does not read the observation of a game of `players`. */
export function checkNetworkPlayers(network: NetworkShape, players: number): void {
  if (network.inputSize !== observationSize(players)) {
    const fits = [3, 4, 5, 6, 7].filter((n) => observationSize(n) === network.inputSize);
    throw new ModelError(`model '${network.name}': reads observations of ${network.inputSize} values (${fits.length ? `${fits[0]} players` : 'no player count'}), a game of ${players} has ${observationSize(players)}`);
  }
  if (network.valueSize > 0 && network.valueSize !== players) {
    throw new ModelError(`model '${network.name}': gives ${network.valueSize} values, a game of ${players} has ${players} seats`);
  }
}
