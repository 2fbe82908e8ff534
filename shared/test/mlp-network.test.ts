/**
 * The lab's WebAssembly kernel for its MLP networks (agents/mlp-network.ts, mlp-kernel.ts,
 * onnx-mlp.ts): loadNetwork runs the networks the lab trains with it and every other model with
 * onnxruntime; its logits and values are onnxruntime's to float32 rounding on real observations,
 * and what a plain float64 computation from the file's weights gives; the same bits every call;
 * a batch is its rows one by one.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE_MODELS, PUBLISHED_MODELS } from './fixture-models.js';
import { loadNetwork } from '../src/agents/network.js';
import { ModelError } from '../src/agents/model-files.js';
import { writeObservation } from '../src/agents/encoding.js';
import { readMlp, type MlpPlan } from '../src/agents/onnx-mlp.js';
import { zeroSubnormalWeights } from '../src/agents/onnx-subnormals.js';
import { visitRandomGame } from './random-positions.js';

const REPRODUCTION = new URL('../../reproduction', import.meta.url).pathname;
const PYTHON = new URL('../../.venv/bin/python', import.meta.url).pathname;
const MODELS = [PUBLISHED_MODELS, FIXTURE_MODELS, REPRODUCTION].join(':');

const before = { MODELS_DIR: process.env.MODELS_DIR, NETWORK_RUNTIME: process.env.NETWORK_RUNTIME };
function env(key: 'MODELS_DIR' | 'NETWORK_RUNTIME', value: string | undefined): void {
  if (value === undefined) delete process.env[key];
  else process.env[key] = value;
}
afterEach(() => {
  env('MODELS_DIR', before.MODELS_DIR);
  env('NETWORK_RUNTIME', before.NETWORK_RUNTIME);
});

/** Every seat's observation in the positions of a few random 3-player games. */
function observations(size: number): Float32Array[] {
  const out: Float32Array[] = [];
  for (const seed of [31, 32, 33]) {
    visitRandomGame(3, seed, 1, (position, p) => {
      const bytes = new Uint8Array(size);
      writeObservation(position, p, bytes);
      out.push(Float32Array.from(bytes));
    });
  }
  return out;
}

/**
 * The plan's outputs layer by layer from its weights: each output its bias, then every input that
 * is not zero in input order (a zero adds nothing), the product then the sum. In float64, the
 * kernel's reference to float32 rounding; in float32, each product and each sum rounded as the
 * kernel rounds them (multiply then add, never fused): the kernel's bits must be these, whatever
 * its grouping of rows and lanes.
 */
function reference(plan: MlpPlan, x: Float32Array, precision: 'float64' | 'float32'): Float64Array[] | Float32Array[] {
  const Floats = precision === 'float32' ? Float32Array : Float64Array;
  const round = precision === 'float32' ? Math.fround : (v: number) => v;
  let input = Floats.from(x);
  for (const s of plan.scale) input = input.map((v) => (s.op === 'div' ? v / s.by : v * s.by));
  const outs: (Float32Array | Float64Array)[] = [];
  for (const l of plan.layers) {
    const from = l.input === 'observation' ? input : outs[l.input];
    const y = Floats.from(l.bias);
    for (let i = 0; i < l.inputs; i++) {
      if (from[i] === 0) continue;
      // Storing into a Float32Array rounds the sum; the product is rounded first.
      for (let j = 0; j < l.outputs; j++) y[j] += round(from[i] * l.weights[i * l.outputs + j]);
    }
    outs.push(l.relu ? y.map((v) => Math.max(0, v)) : y);
  }
  return plan.outputs.map((k) => outs[k]) as Float64Array[] | Float32Array[];
}

function largestGap(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let gap = 0;
  for (let i = 0; i < a.length; i++) gap = Math.max(gap, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
  return gap;
}

const CASES = [
  { name: 'strong/gen-3.onnx', file: `${PUBLISHED_MODELS}/strong/gen-3.onnx`, values: 3 },
  { name: 'net-3p.onnx', file: `${FIXTURE_MODELS}/net-3p.onnx`, values: 3 },
  { name: 'policy-3p.onnx', file: `${FIXTURE_MODELS}/policy-3p.onnx`, values: 0 },
];

describe('the MLP kernel', () => {
  it.each(CASES)('runs $name: its logits and values are onnxruntime’s and a float64 computation’s to float32 rounding', ({ name, file, values }) => {
    env('MODELS_DIR', MODELS);
    const wasm = loadNetwork(name);
    const ort = loadNetwork(name, { runtime: 'onnxruntime' });
    expect(wasm.runtime).toBe('wasm');
    expect(ort.runtime).toBe('onnxruntime');
    expect(wasm.sha256).toBe(ort.sha256);
    expect(wasm.valueSize).toBe(values);
    const bytes = new Uint8Array(readFileSync(file));
    zeroSubnormalWeights(bytes);
    const plan = readMlp(bytes)!;
    expect(plan.outputs).toHaveLength(values ? 2 : 1);
    const xs = observations(wasm.inputSize);
    expect(xs.length).toBeGreaterThan(150);
    let gapOrt = 0;
    let gap64 = 0;
    for (const x of xs) {
      const logits = Float32Array.from(wasm.logits(x));
      const vs = Float32Array.from(wasm.values(x));
      gapOrt = Math.max(gapOrt, largestGap(logits, ort.logits(x)), largestGap(vs, ort.values(x)));
      const [l64, v64] = reference(plan, x, 'float64');
      gap64 = Math.max(gap64, largestGap(logits, l64), values ? largestGap(vs, v64) : 0);
    }
    // Float32 sums of a few hundred terms in another order: about 1e-6 of the larger of 1 and the value.
    expect(gapOrt).toBeLessThan(1e-5);
    expect(gap64).toBeLessThan(1e-5);
  });

  it('sums as documented: its bits are a float32 sum, bias first, then the inputs that are not zero in order', () => {
    env('MODELS_DIR', MODELS);
    const network = loadNetwork('strong/gen-3.onnx');
    const bytes = new Uint8Array(readFileSync(`${PUBLISHED_MODELS}/strong/gen-3.onnx`));
    zeroSubnormalWeights(bytes);
    const plan = readMlp(bytes)!;
    // A third of the positions: enough to meet sums whose order shows in their last bit.
    const xs = observations(network.inputSize).filter((_, k) => k % 3 === 0);
    expect(xs.length).toBeGreaterThan(50);
    for (const x of xs) {
      const [logits, values] = reference(plan, x, 'float32');
      expect(Float32Array.from(network.logits(x))).toEqual(logits);
      expect(Float32Array.from(network.values(x))).toEqual(values);
    }
  });

  it('gives deferred logits, read action by action in any order, the same bits as the whole call', () => {
    env('MODELS_DIR', MODELS);
    const network = loadNetwork('strong/gen-3.onnx');
    expect(network.runtime).toBe('wasm');
    const xs = observations(network.inputSize).filter((_, k) => k % 3 === 1);
    expect(xs.length).toBeGreaterThan(50);
    const order = Array.from({ length: 390 }, (_, a) => (a * 157) % 390);
    for (const x of xs) {
      const deferred = network.deferredLogits!(x)!;
      const whole = Float32Array.from(network.logits(x));
      // Read after another call has overwritten the kernel's buffers, each action twice.
      network.values(xs[0]);
      expect(Float32Array.from(order, (a) => deferred.at(a))).toEqual(Float32Array.from(order, (a) => whole[a]));
      expect(Float32Array.from(order, (a) => deferred.at(a))).toEqual(Float32Array.from(order, (a) => whole[a]));
    }
  });

  it('gives the same bits every call, values alone or logits alone, and a batch is its rows one by one', () => {
    env('MODELS_DIR', MODELS);
    const network = loadNetwork('strong/gen-3.onnx');
    const xs = observations(network.inputSize).slice(0, 9);
    const rows = new Float32Array(xs.length * network.inputSize);
    xs.forEach((x, r) => rows.set(x, r * network.inputSize));
    const both = network.batch(rows, xs.length, true, true);
    const onlyValues = network.batch(rows, xs.length, false, true);
    expect(onlyValues.logits).toHaveLength(0);
    expect(onlyValues.values).toEqual(both.values);
    xs.forEach((x, r) => {
      expect(Float32Array.from(network.logits(x))).toEqual(both.logits.subarray(r * 390, (r + 1) * 390));
      expect(Float32Array.from(network.values(x))).toEqual(both.values.subarray(r * 3, (r + 1) * 3));
    });
  });

  it('reads a scaled observation by the copy its layers read, refuses layers that read two copies, and refuses a short input', () => {
    // Small models written with onnx's helper (the Python environment the suite sets up): a
    // network whose layer reads obs / 4 beside an unused (obs / 4) · 1.00003, and two whose two
    // first layers read obs / 4 both, or obs / 4 and obs itself.
    const dir = mkdtempSync(join(tmpdir(), 'wl-mlp-'));
    const script = `
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T
r = np.random.default_rng(5)
def init(name, a): return onnx.numpy_helper.from_array(np.asarray(a, dtype=np.float32), name)
def save(file, nodes, inits, values=False):
    outs = [h.make_tensor_value_info('logits', T.FLOAT, ['b', 390])] + ([h.make_tensor_value_info('values', T.FLOAT, ['b', 3])] if values else [])
    g = h.make_graph(nodes, 'g', [h.make_tensor_value_info('obs', T.FLOAT, ['b', 675])], outs, inits)
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid('', 13)], ir_version=8), sys.argv[1] + '/' + file)
w1, b1, wl = r.normal(size=(20, 675)) * 0.1, r.normal(size=20), r.normal(size=(390, 20))
layers = [h.make_node('Relu', ['h'], ['r']), h.make_node('Gemm', ['r', 'WL'], ['logits'], transB=1)]
common = [init('c', 4.0), init('k', 1.00003), init('W1', w1), init('b1', b1), init('WL', wl)]
save('unused-scale.onnx', [h.make_node('Div', ['obs', 'c'], ['s']), h.make_node('Mul', ['s', 'k'], ['s2']), h.make_node('Gemm', ['s', 'W1', 'b1'], ['h'], transB=1)] + layers, common)
wv = r.normal(size=(3, 675))
save('one-copy.onnx', [h.make_node('Div', ['obs', 'c'], ['s']), h.make_node('Gemm', ['s', 'W1', 'b1'], ['h'], transB=1), h.make_node('Gemm', ['s', 'WV'], ['values'], transB=1)] + layers, common + [init('WV', wv)], values=True)
save('two-copies.onnx', [h.make_node('Div', ['obs', 'c'], ['s']), h.make_node('Gemm', ['s', 'W1', 'b1'], ['h'], transB=1), h.make_node('Gemm', ['obs', 'WV'], ['values'], transB=1)] + layers, common + [init('WV', wv)], values=True)
`;
    try {
      const made = spawnSync(PYTHON, ['-c', script, dir], { encoding: 'utf8' });
      expect(made.status, made.stderr).toBe(0);
      const plan = readMlp(new Uint8Array(readFileSync(join(dir, 'unused-scale.onnx'))))!;
      expect(plan.scale).toEqual([{ op: 'div', by: 4 }]);
      expect(plan.outputs).toEqual([1]);
      // Two layers reading the same scaled copy are one plan; reading obs / 4 and obs, none.
      expect(readMlp(new Uint8Array(readFileSync(join(dir, 'one-copy.onnx'))))?.scale).toEqual([{ op: 'div', by: 4 }]);
      expect(readMlp(new Uint8Array(readFileSync(join(dir, 'two-copies.onnx'))))).toBeUndefined();
      env('MODELS_DIR', dir);
      const wasm = loadNetwork('unused-scale.onnx');
      const ort = loadNetwork('unused-scale.onnx', { runtime: 'onnxruntime' });
      expect(wasm.runtime).toBe('wasm');
      for (const x of observations(675).slice(0, 40)) expect(largestGap(Float32Array.from(wasm.logits(x)), ort.logits(x))).toBeLessThan(1e-5);
      expect(() => wasm.logits(new Float32Array(600))).toThrow(RangeError);
      expect(() => wasm.batch(new Float32Array(675 * 2), 3, true, false)).toThrow(RangeError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not used for a model that is not an MLP (the 2021 DQN’s layer norms), nor when NETWORK_RUNTIME says onnxruntime', () => {
    env('MODELS_DIR', MODELS);
    expect(readMlp(new Uint8Array(readFileSync(`${REPRODUCTION}/dqn-2021/3p-random-random.onnx`)))).toBeUndefined();
    expect(loadNetwork('dqn-2021/3p-random-random.onnx').runtime).toBe('onnxruntime');
    expect(readMlp(Uint8Array.from([1, 2, 3]))).toBeUndefined();
    env('NETWORK_RUNTIME', 'onnxruntime');
    expect(loadNetwork('net-3p.onnx').runtime).toBe('onnxruntime');
    env('NETWORK_RUNTIME', 'gpu');
    expect(() => loadNetwork('net-3p.onnx')).toThrow(ModelError);
    expect(() => loadNetwork('net-3p.onnx')).toThrow(/NETWORK_RUNTIME='gpu': expected wasm or onnxruntime/);
  });
});
