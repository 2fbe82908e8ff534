/**
 * Policy benchmark (part of `npm run bench`): decisions per second of the `policy` agent with a
 * 2-layer 256-unit network (675 → 256 → 256 → 390, python/tools/make_test_policy.py) at batch size
 * 1 on one thread, over positions of real 3-player games; and, beside it, the network's inference
 * alone, and a trained network's (strong/gen-3.onnx, in learning/). Needs the Python environment (.venv, python/setup.sh) to write the network; says so and
 * skips otherwise.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PolicyAgent, decisionContext, loadNetwork, observationSize } from '../src/agents/index.js';
import { writeObservation } from '../src/agents/encoding.js';
import { Rng, legalMoves } from '../src/engine/index.js';
import { measure } from './harness.js';
import { decisionPositions } from './positions.js';
import { processorLine } from '../src/lab/results/provenance.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const PYTHON = join(ROOT, '.venv', 'bin', 'python');

function main(): void {
  console.log(processorLine());
  if (!existsSync(PYTHON)) {
    console.log('policy bench: skipped (no .venv: run bash python/setup.sh)');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'wonderlab-policy-bench-'));
  try {
    const made = spawnSync(PYTHON, [join(ROOT, 'python', 'tools', 'make_test_policy.py'), '--hidden', '256', '--layers', '2', '--out', join(dir, 'mlp-2x256.onnx')], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`make_test_policy.py failed: ${made.stderr}`);
    process.env.MODELS_DIR = dir;
    const network = loadNetwork('mlp-2x256.onnx');
    const agent = new PolicyAgent(network, 0);
    const states = decisionPositions(200, 11);
    const legal = states.map((s) => legalMoves(s, 0));
    const rng = new Rng(3);
    let i = 0;
    measure('policy_2x256_decisions', 'decisions/s', () => {
      const k = i++ % states.length;
      agent.decide(decisionContext(states[k], 0, legal[k], rng, false));
    }, 1);
    const input = new Float32Array(observationSize(3)).fill(1);
    measure('policy_2x256_inference', 'runs/s', () => void network.logits(input), 1);
    // A trained network of that size (learning run strong's gen-3): training leaves weights a
    // random network lacks, such as subnormal ones, which made each call 4-10x slower on Intel
    // cores before the loader zeroed them (agents/onnx-subnormals.ts).
    process.env.MODELS_DIR = join(ROOT, 'learning');
    const trained = loadNetwork('strong/gen-3.onnx');
    const observations = states.map((s) => {
      const bytes = new Uint8Array(trained.inputSize);
      writeObservation(s, 0, bytes);
      return Float32Array.from(bytes);
    });
    let j = 0;
    measure('policy_trained_gen3_inference', 'runs/s', () => void trained.logits(observations[j++ % observations.length]), 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
