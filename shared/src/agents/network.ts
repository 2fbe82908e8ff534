/**
 * Trained networks as the agents use them: ONNX files under MODELS_DIR (default `models/` in the
 * working directory), named by their path there — the lab never reads a file outside it. A
 * network reads a seat's observation vector (agents/encoding.ts, as float32) and gives one logit
 * per action index (its first output) and, when it has a second output, a value per seat (the
 * seats' predicted final VP / VALUE_SCALE, this seat first: python/wonderlab/train.py).
 *
 * Its subnormal weights are zeroed as it is loaded (onnx-subnormals.ts: they make every call many
 * times slower). Each is run by onnxruntime-node's native session, called synchronously (its
 * promise-returning `run` only defers the same native call to the next tick), one thread per
 * session: a game thread decides while it waits. `policy(model=…)` plays a network's logits
 * (policy.ts); MCTS reads its logits as priors and its values as leaf evaluations
 * (mcts/network-guide.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { ACTION_COUNT, observationSize } from './encoding.js';
import { zeroSubnormalWeights } from './onnx-subnormals.js';

/** The network's values are the seats' final VP divided by this (python/wonderlab/train.py's VALUE_SCALE). */
export const VALUE_SCALE = 50;

/** What the agents need of a network: logits, and values where it has them, for one observation. */
export interface Network {
  /** The model's name under MODELS_DIR. */
  readonly name: string;
  /** sha256 of the model file, hex. */
  readonly sha256: string;
  /** The observation length it reads (observationSize(players)). */
  readonly inputSize: number;
  /** Values per observation: its second output's width (the players), or 0 without one. */
  readonly valueSize: number;
  /** ACTION_COUNT logits for one observation. */
  logits(observation: Float32Array): Float32Array;
  /**
   * The values for one observation (its second output; empty without one). Only that output is
   * fetched, so onnxruntime skips the logits' layer: a leaf evaluation is about a quarter cheaper.
   */
  values(observation: Float32Array): Float32Array;
}

export class ModelError extends Error {}

/** Letters, digits, '.', '_', '-' in path segments separated by '/', ending in .onnx: a name, never a path out. */
export const MODEL_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*\.onnx$/;

export function modelsDir(): string {
  return resolve(process.env.MODELS_DIR ?? 'models');
}

/** The file of a model name; throws ModelError for a name that is not one. */
export function modelPath(name: string): string {
  if (!MODEL_NAME.test(name) || name.split('/').some((part) => part === '..' || part === '.') || isAbsolute(name)) {
    throw new ModelError(`model '${name}': expected a file name under MODELS_DIR such as dqn-3p.onnx or run1/gen4.onnx (letters, digits, . _ - and /, ending in .onnx)`);
  }
  const dir = modelsDir();
  const path = resolve(join(dir, name));
  if (!path.startsWith(dir + sep)) throw new ModelError(`model '${name}': outside MODELS_DIR`);
  return path;
}

// The native binding's surface that is used here (onnxruntime-node/dist/binding.d.ts).
interface NativeSession {
  loadModel(buffer: ArrayBuffer, byteOffset: number, byteLength: number, options: object): void;
  readonly inputMetadata: { name: string; shape: number[] }[];
  readonly outputMetadata: { name: string; shape: number[] }[];
  run(feeds: Record<string, unknown>, fetches: Record<string, null>, options: object): Record<string, { data: Float32Array; dims: readonly number[] }>;
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
}

const loaded = new Map<string, { stamp: string; network: Network }>();

/**
 * The network of a model name, loaded once per process (again if the file changed), checked to
 * read a float32 [batch, D] observation and give [batch, ACTION_COUNT] logits first (and, if it
 * has a second output, [batch, P] values). Throws ModelError naming the model for a missing,
 * unreadable or mis-shaped file.
 */
export function loadNetwork(name: string): Network {
  const path = modelPath(name);
  let stamp: string;
  try {
    const st = statSync(path);
    stamp = `${st.size}:${st.mtimeMs}`;
  } catch {
    throw new ModelError(`model '${name}': no such file in MODELS_DIR (${modelsDir()})`);
  }
  const kept = loaded.get(path);
  if (kept && kept.stamp === stamp) return kept.network;
  const bytes = readFileSync(path);
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
  loaded.set(path, { stamp, network });
  return network;
}

/** A ModelError when the network does not read the observation of a game of `players`. */
export function checkNetworkPlayers(network: Network, players: number): void {
  if (network.inputSize !== observationSize(players)) {
    const fits = [3, 4, 5, 6, 7].filter((n) => observationSize(n) === network.inputSize);
    throw new ModelError(`model '${network.name}': reads observations of ${network.inputSize} values (${fits.length ? `${fits[0]} players` : 'no player count'}), a game of ${players} has ${observationSize(players)}`);
  }
  if (network.valueSize > 0 && network.valueSize !== players) {
    throw new ModelError(`model '${network.name}': gives ${network.valueSize} values, a game of ${players} has ${players} seats`);
  }
}
