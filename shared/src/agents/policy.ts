/**
 * `policy(model=NAME, temp=T)`: a trained network plays the seat. The network reads the seat's
 * observation vector (agents/encoding.ts, as float32) and gives one logit per action index; the
 * agent plays the legal action with the highest logit (temp = 0) or samples the legal actions
 * with probabilities softmax(logit / temp) from its own RNG.
 *
 * Models are ONNX files under MODELS_DIR (default `models/` in the working directory), named by
 * their path there: the lab never reads a file outside it. Each is run by onnxruntime-node's
 * native session, called synchronously (its promise-returning `run` only defers the same native
 * call to the next tick), one thread per session: a game thread decides while it waits.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { ACTION_COUNT, actionIndex, observationSize } from './encoding.js';
import type { Agent, Decision, DecisionContext } from './types.js';

/** What the agent needs of a network: logits for one observation. */
export interface PolicyNetwork {
  /** The model's name under MODELS_DIR. */
  readonly name: string;
  /** sha256 of the model file, hex. */
  readonly sha256: string;
  /** The observation length it reads (observationSize(players)). */
  readonly inputSize: number;
  /** ACTION_COUNT logits for one observation. */
  logits(observation: Float32Array): Float32Array;
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

class OnnxPolicy implements PolicyNetwork {
  private readonly input: string;
  private readonly output: string;
  private readonly dims: readonly number[];

  constructor(
    readonly name: string,
    readonly sha256: string,
    readonly inputSize: number,
    private readonly session: NativeSession,
  ) {
    this.input = session.inputMetadata[0].name;
    this.output = session.outputMetadata[0].name;
    this.dims = [1, inputSize];
    this.fetches = { [this.output]: null };
  }

  /** The input tensor of the last call, kept while callers pass the same array (an agent reuses one). */
  private feeds?: { array: Float32Array; value: Record<string, unknown> };
  private readonly fetches: Record<string, null>;
  private readonly options = {};

  logits(observation: Float32Array): Float32Array {
    if (this.feeds?.array !== observation) {
      const { Tensor } = onnxRuntime();
      // A tensor wraps its array without copying: later contents of `observation` are what it reads.
      this.feeds = { array: observation, value: { [this.input]: new Tensor('float32', observation, this.dims) } };
    }
    return this.session.run(this.feeds.value, this.fetches, this.options)[this.output].data;
  }
}

const loaded = new Map<string, { stamp: string; network: PolicyNetwork }>();

/**
 * The network of a model name, loaded once per process (again if the file changed), checked to
 * read a float32 [batch, D] observation and give [batch, ACTION_COUNT] logits. Throws ModelError
 * naming the model for a missing, unreadable or mis-shaped file.
 */
export function loadPolicy(name: string): PolicyNetwork {
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
  const network = new OnnxPolicy(name, createHash('sha256').update(bytes).digest('hex'), inputSize, session);
  loaded.set(path, { stamp, network });
  return network;
}

/** A ModelError when the network does not read the observation of a game of `players`. */
export function checkPolicyPlayers(network: PolicyNetwork, players: number): void {
  if (network.inputSize !== observationSize(players)) {
    const fits = [3, 4, 5, 6, 7].filter((n) => observationSize(n) === network.inputSize);
    throw new ModelError(`model '${network.name}': reads observations of ${network.inputSize} values (${fits.length ? `${fits[0]} players` : 'no player count'}), a game of ${players} has ${observationSize(players)}`);
  }
}

export class PolicyAgent implements Agent {
  readonly moveMode = 'cheapest' as const;
  private readonly bytes: Uint8Array;
  private readonly input: Float32Array;

  constructor(
    private readonly network: PolicyNetwork,
    private readonly temp: number,
  ) {
    this.bytes = new Uint8Array(network.inputSize);
    this.input = new Float32Array(network.inputSize);
  }

  decide(ctx: DecisionContext): Decision {
    checkPolicyPlayers(this.network, ctx.players);
    ctx.writeObservation(this.bytes);
    for (let i = 0; i < this.bytes.length; i++) this.input[i] = this.bytes[i];
    const logits = this.network.logits(this.input);
    const { legal } = ctx;
    if (this.temp === 0) {
      // The highest logit; a tie goes to the lower action index, as numpy's argmax does.
      let best = legal[0];
      for (const m of legal) {
        const a = actionIndex(m);
        const b = actionIndex(best);
        if (logits[a] > logits[b] || (logits[a] === logits[b] && a < b)) best = m;
      }
      return { move: best };
    }
    let max = -Infinity;
    for (const m of legal) max = Math.max(max, logits[actionIndex(m)]);
    const weights = legal.map((m) => Math.exp((logits[actionIndex(m)] - max) / this.temp));
    let x = ctx.rng.float() * weights.reduce((s, w) => s + w, 0);
    for (let i = 0; i < legal.length; i++) {
      x -= weights[i];
      if (x < 0) return { move: legal[i] };
    }
    return { move: legal[legal.length - 1] };
  }
}
