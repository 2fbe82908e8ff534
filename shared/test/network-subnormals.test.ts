/**
 * Subnormal weights zeroed as a network is loaded (agents/onnx-subnormals.ts): run `strong`'s gen-3
 * network, kept in the repository, has a third of its weights subnormal. Loaded, it gives the
 * outputs onnxruntime gives for the file as it is (to 1e-36: only outputs that are themselves that
 * small differ), and its hash is the file's; a network without subnormals is left byte for byte as
 * it was.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { FIXTURE_MODELS, PUBLISHED_MODELS, useModelsDir } from './fixture-models.js';
import { loadNetwork } from '../src/agents/index.js';
import { writeObservation } from '../src/agents/encoding.js';
import { zeroSubnormalWeights } from '../src/agents/onnx-subnormals.js';
import { visitRandomGame } from './random-positions.js';

const GEN3 = `${PUBLISHED_MODELS}/strong/gen-3.onnx`;

useModelsDir(PUBLISHED_MODELS);

describe('subnormal weights', () => {
  it('are zeroed in gen-3: all of them, and nothing else changes', () => {
    const bytes = readFileSync(GEN3);
    const original = Uint8Array.from(bytes);
    const zeroed = zeroSubnormalWeights(bytes);
    expect(zeroed).toBeGreaterThan(100_000);
    expect(zeroSubnormalWeights(bytes)).toBe(0);
    // Each changed byte lies in a 4-byte value that was subnormal and is now zero.
    const subnormal = (b: Uint8Array, at: number) => {
      const bits = new DataView(b.buffer, b.byteOffset).getUint32(at, true);
      return (bits & 0x7f800000) === 0 && (bits & 0x007fffff) !== 0;
    };
    const starts = new Set<number>();
    for (let at = 0; at < bytes.length; at++) {
      if (bytes[at] === original[at]) continue;
      const start = [0, 1, 2, 3].map((k) => at - k).find((x) => x >= 0 && x + 4 <= bytes.length && subnormal(original, x) && bytes.subarray(x, x + 4).every((v) => v === 0));
      expect(start, `byte ${at} changed outside a subnormal value`).toBeDefined();
      starts.add(start!);
    }
    expect(starts.size).toBeGreaterThan(0);
  });

  it('leave a network without them byte for byte as it was', () => {
    const bytes = readFileSync(`${FIXTURE_MODELS}/net-3p.onnx`);
    const original = Uint8Array.from(bytes);
    expect(zeroSubnormalWeights(bytes)).toBe(0);
    expect(Buffer.compare(bytes, original)).toBe(0);
  });

  it('change no output: the loaded gen-3 computes what onnxruntime computes from the file, and keeps its hash', async () => {
    const network = loadNetwork('strong/gen-3.onnx', { runtime: 'onnxruntime' });
    expect(network.sha256).toBe(createHash('sha256').update(readFileSync(GEN3)).digest('hex'));
    const ort = createRequire(import.meta.url)('onnxruntime-node') as typeof import('onnxruntime-node');
    const plain = await ort.InferenceSession.create(GEN3, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
    // Every seat's observation in the positions of two random games.
    const observations: Float32Array[] = [];
    for (const seed of [21, 22]) {
      visitRandomGame(3, seed, 1, (position, p) => {
        const bytes = new Uint8Array(network.inputSize);
        writeObservation(position, p, bytes);
        observations.push(Float32Array.from(bytes));
      });
    }
    let compared = 0;
    let largest = 0;
    const maxDifference = (a: Float32Array, b: Float32Array) => {
      expect(a.length).toBe(b.length);
      for (let i = 0; i < a.length; i++) largest = Math.max(largest, Math.abs(a[i] - b[i]));
    };
    for (const observation of observations) {
      const out = await plain.run({ [plain.inputNames[0]]: new ort.Tensor('float32', observation, [1, observation.length]) });
      // Equal up to what the zeroed weights were worth: an output that is itself below 1e-37.
      maxDifference(network.logits(observation), out.logits.data as Float32Array);
      maxDifference(network.values(observation), out.value.data as Float32Array);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
    expect(largest).toBeLessThan(1e-36);
  });
});
