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
import type { Logits } from './logits.js';
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
  /** For each output, the layers before its own (its trunk), in order. */
  private readonly trunks: Placed[][];
  /**
   * For each output whose layer applies no ReLU, that layer's weights transposed (a row per
   * output, its inputs in order, built on first use): a deferred output reads its weights along
   * one row instead of one per input a row's length apart (a cache line each).
   */
  private readonly byOutput: (Float32Array | undefined)[] = [];

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
    this.trunks = needs.map((chain) => chain.slice(0, -1).map((k) => this.placed[k]));
  }

  /**
   * Runs the network on `observation` (inputSize values from `at`); bit o of `wanted` says whether
   * to compute output o. Read them with output(o) before the next run.
   */
  run(observation: Float32Array, at: number, wanted: number): void {
    this.runLayers(observation, at, this.runs[wanted]);
  }

  /**
   * Output o of `observation` (one row) as Logits computed output by output when read: the layers
   * before o's own run now, and its own layer's inputs that are not zero are kept; an output read
   * is its bias plus its terms in their order, each rounded to float32 as the kernel rounds them,
   * so the same bits as run's. Undefined for an output whose layer applies ReLU (not deferred).
   */
  deferred(observation: Float32Array, o: number): Logits | undefined {
    const head = this.placed[this.plan.outputs[o]];
    if (head.relu) return undefined;
    const transposed = (this.byOutput[o] ??= this.transpose(head));
    this.runLayers(observation, 0, this.trunks[o]);
    const f32 = this.f32;
    let count = 0;
    for (let i = head.input; i < head.input + head.inputs; i++) if (f32[i] !== 0) count++;
    // One array: the outputs as read (NaN until then), then the inputs that are not zero as
    // (index, value) pairs — an index below 2^24 is exact in a float32. One allocation a node.
    const outputs = head.outputs;
    const kept = new Float32Array(outputs + 2 * count).fill(NaN, 0, outputs);
    for (let i = 0, k = outputs; i < head.inputs; i++) {
      const x = f32[head.input + i];
      if (x === 0) continue;
      kept[k++] = i;
      kept[k++] = x;
    }
    return new DeferredOutputs(f32, head.bias, transposed, head.inputs, outputs, kept);
  }

  /** A layer's weights with a row per output (its inputs in order), from the kernel's row per input. */
  private transpose(layer: Placed): Float32Array {
    const t = new Float32Array(layer.outputs * layer.inputs);
    for (let i = 0; i < layer.inputs; i++) {
      for (let o = 0; o < layer.outputs; o++) t[o * layer.inputs + i] = this.f32[layer.weights + i * layer.lanes + o];
    }
    return t;
  }

  private runLayers(observation: Float32Array, at: number, layers: readonly Placed[]): void {
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

/**
 * A layer's outputs computed one at a time as they are read, from its inputs that are not zero
 * (each with its index) and its weights a row per output, and kept once computed. Why: a tree
 * node's priors read the logits of the few actions legal where it is reached, and the logits'
 * layer (256 inputs × 390 outputs) was about half of a call's multiply-adds.
 */
class DeferredOutputs implements Logits {
  constructor(
    private readonly memory: Float32Array,
    private readonly bias: number,
    /** The layer's weights, a row of `inputs` per output (MlpRunner.transpose). */
    private readonly weights: Float32Array,
    private readonly inputs: number,
    private readonly outputs: number,
    /** The outputs read so far (NaN: not yet), then the listed inputs as (index, value) pairs. */
    private readonly kept: Float32Array,
  ) {}

  at(o: number): number {
    const kept = this.kept;
    const known = kept[o];
    // An output that is NaN itself is computed again at each read: the same NaN.
    if (known === known) return known;
    const weights = this.weights;
    const row = o * this.inputs;
    // As the kernel sums: the bias, then each listed input's term in list order, every product
    // and every sum rounded to float32 (a float64 sum of two float32s rounds to the float32 sum).
    let sum = this.memory[this.bias + o];
    for (let k = this.outputs; k < kept.length; k += 2) sum = Math.fround(sum + Math.fround(kept[k + 1] * weights[row + kept[k]]));
    kept[o] = sum;
    return sum;
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

  /** The logits as Logits computed action by action when read (MlpRunner.deferred): the same bits as logits(). */
  deferredLogits(observation: Float32Array): Logits | undefined {
    return this.runner.deferred(observation, 0);
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
