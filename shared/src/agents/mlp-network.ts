/**
 * A multilayer perceptron (onnx-mlp.ts's plan) run by the WebAssembly kernel (mlp-kernel.ts): the
 * Network the agents call when their model is one, in place of onnxruntime (network.ts decides,
 * after checking the two agree on probe inputs).
 *
 * One memory holds the weights (each layer's rows padded to the kernel's 16 lanes with zeros) and a
 * buffer per layer's output; a call writes the scaled observation, runs the layers its outputs
 * need (the logits' layer is skipped for values alone), and copies the outputs out.
 */
import { DENSE_LANES, denseKernel, kernelMemory, type Dense } from './mlp-kernel.js';
import { ACTION_COUNT } from './encoding.js';
import type { MlpPlan } from './onnx-mlp.js';

const ALIGN = 16; // floats: 64 bytes

const padded = (n: number): number => Math.ceil(n / DENSE_LANES) * DENSE_LANES;

interface Placed {
  /** Float offsets into the memory. */
  readonly weights: number;
  readonly bias: number;
  readonly out: number;
  readonly input: number;
  readonly inputs: number;
  readonly lanes: number;
  readonly outputs: number;
  readonly relu: boolean;
}

export class MlpRunner {
  private readonly f32: Float32Array;
  private readonly dense: Dense;
  private readonly input: number;
  /** The observation's scaling, where it is not folded into the weights. */
  private readonly scale: MlpPlan['scale'];
  /** The kernel's scratch: a layer's inputs that are not zero. */
  private readonly list: number;
  private readonly placed: Placed[];
  /** For each set of wanted outputs (bit o for output o), the layers to run, in order, each once. */
  private readonly runs: Placed[][];

  constructor(private readonly plan: MlpPlan) {
    let top = 0;
    const take = (floats: number): number => {
      const at = top;
      top += Math.ceil(floats / ALIGN) * ALIGN;
      return at;
    };
    this.input = take(plan.inputSize);
    this.list = take(2 * Math.max(...plan.layers.map((l) => l.inputs)));
    const places = plan.layers.map((l) => {
      const lanes = padded(l.outputs);
      return { weights: take(l.inputs * lanes), bias: take(lanes), out: take(lanes), lanes };
    });
    // Scaling the observation by powers of two is folded into the weights that read it: (x / 2^k) · w
    // and x · (w / 2^k) are the same real number, so the same float, unless a scaled weight falls
    // below float32's normal range (then the observation is scaled call by call).
    const factor = plan.scale.reduce((f, { op, by }) => (op === 'div' ? f / by : f * by), 1);
    const exact = (v: number): boolean => v === 0 || (Math.abs(v) >= 2 ** -126 && Math.fround(v) === v);
    const foldable = Number.isFinite(factor) && factor !== 0 && Math.log2(Math.abs(factor)) % 1 === 0 && plan.layers.every((l) => l.input !== 'observation' || l.weights.every((w) => exact(w * factor)));
    this.scale = foldable ? [] : plan.scale;
    const weightsOf = (l: MlpPlan['layers'][number]): Float32Array => (foldable && l.input === 'observation' && factor !== 1 ? l.weights.map((w) => w * factor) : l.weights);
    const memory = kernelMemory(top * 4);
    this.f32 = new Float32Array(memory.buffer);
    this.dense = denseKernel(memory);
    this.placed = plan.layers.map((l, k) => {
      const p = places[k];
      const weights = weightsOf(l);
      for (let i = 0; i < l.inputs; i++) this.f32.set(weights.subarray(i * l.outputs, (i + 1) * l.outputs), p.weights + i * p.lanes);
      this.f32.set(l.bias, p.bias);
      const input = l.input === 'observation' ? this.input : places[l.input].out;
      return { ...p, input, inputs: l.inputs, outputs: l.outputs, relu: l.relu };
    });
    const needs = plan.outputs.map((k) => {
      const chain: number[] = [];
      for (let at: number | 'observation' = k; at !== 'observation'; at = plan.layers[at].input) chain.unshift(at);
      return chain;
    });
    // Each wanted output's chain in turn; a layer two outputs need (the trunk) is computed once.
    this.runs = Array.from({ length: 1 << needs.length }, (_, wanted) => {
      const layers = new Set(needs.flatMap((chain, o) => (wanted & (1 << o) ? chain : [])));
      return [...layers].map((k) => this.placed[k]);
    });
  }

  /**
   * Runs the network on `observation` (inputSize values from `at`); bit o of `wanted` says whether
   * to compute output o. Read them with output(o) before the next run.
   */
  run(observation: Float32Array, at: number, wanted: number): void {
    const { f32, plan } = this;
    const x = this.input;
    const n = plan.inputSize;
    // onnxruntime refuses a short input; here it would read the last call's tail.
    if (at + n > observation.length) throw new RangeError(`a network input of ${n} values at ${at}, given ${observation.length}`);
    // One row (the search's call) is set whole: a subarray is an object made per call.
    f32.set(at === 0 && observation.length === n ? observation : observation.subarray(at, at + n), x);
    // Each operation rounded to float32 as onnxruntime computes it: the memory's view stores floats.
    for (const { op, by } of this.scale) {
      if (op === 'div') for (let i = x; i < x + n; i++) f32[i] /= by;
      else for (let i = x; i < x + n; i++) f32[i] *= by;
    }
    const layers = this.runs[wanted];
    for (let k = 0; k < layers.length; k++) {
      const p = layers[k];
      this.dense(p.input * 4, p.inputs, p.weights * 4, p.bias * 4, p.out * 4, p.lanes, p.relu ? 1 : 0, this.list * 4);
    }
  }

  /** Output o of the last run, copied into `into` from `at`. */
  output(o: number, into: Float32Array, at = 0): void {
    const p = this.placed[this.plan.outputs[o]];
    into.set(this.f32.subarray(p.out, p.out + p.outputs), at);
  }
}

/** MlpRunner.run's `wanted` bits: the logits (output 0), the values (output 1). */
const LOGITS = 1;
const VALUES = 2;

/**
 * The Network interface over an MlpRunner (network.ts makes one when the model is an MLP, and
 * types it as a Network there: this module does not import network.ts, which imports it).
 */
export class MlpNetwork {
  readonly runtime = 'wasm' as const;
  private readonly logitsOut: Float32Array;
  private readonly valuesOut: Float32Array;

  constructor(
    readonly name: string,
    readonly sha256: string,
    readonly inputSize: number,
    readonly valueSize: number,
    private readonly runner: MlpRunner,
  ) {
    this.logitsOut = new Float32Array(ACTION_COUNT);
    this.valuesOut = new Float32Array(valueSize);
  }

  logits(observation: Float32Array): Float32Array {
    this.runner.run(observation, 0, LOGITS);
    this.runner.output(0, this.logitsOut);
    return this.logitsOut;
  }

  values(observation: Float32Array): Float32Array {
    if (this.valueSize === 0) return this.valuesOut;
    this.runner.run(observation, 0, VALUES);
    this.runner.output(1, this.valuesOut);
    return this.valuesOut;
  }

  batch(observations: Float32Array, count: number, withLogits: boolean, withValues: boolean): { logits: Float32Array; values: Float32Array } {
    const values = withValues && this.valueSize > 0;
    const logits = new Float32Array(withLogits ? count * ACTION_COUNT : 0);
    const vs = new Float32Array(values ? count * this.valueSize : 0);
    const wanted = (withLogits ? LOGITS : 0) | (values ? VALUES : 0);
    for (let r = 0; r < count; r++) {
      this.runner.run(observations, r * this.inputSize, wanted);
      if (withLogits) this.runner.output(0, logits, r * ACTION_COUNT);
      if (values) this.runner.output(1, vs, r * this.valueSize);
    }
    return { logits, values: vs };
  }
}
