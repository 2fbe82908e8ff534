/**
 * The CPU estimate shown at submit against the CPU games really take (their thread's CPU time, as
 * the lab measures it), and the bound that MAX_GAME_SECONDS and a stopping worker's grace read.
 * The calibration itself (CPU_SHARE, measured on a quiet machine: lab/plan/cost.ts) is not checked
 * here: thread CPU time rises on a busy machine — up to 2.7× the quiet figure while the suite runs
 * its files in parallel on 2 cores — and a test must not depend on the load, nor on the processor:
 * the constants are the dev machine's (an Intel Xeon), and a faster core takes less (an AMD EPYC,
 * quiet, 2026-12-07, with the network constants of that day: MCTS at 0.8–1.3 of the estimate,
 * minimax 1.1–1.5, guided searches 1.4–2.5, as a network call costs about 0.4 of the Xeon's).
 * What these bounds catch is an agent without a cost model (an estimate of 0, as minimax had
 * before it got one) or one off by 4× or more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLISHED_MODELS, useModelsDir } from './fixture-models.js';
import { GamePool } from '@wonderlab/shared';
import { Tournament, expectedCpuSeconds, gameSeconds } from '../src/lab/index.js';

// A network of the trainer's default size (hidden 256,256), as the estimate assumes: learning run
// `strong`'s third generation, kept in the repository.
useModelsDir(PUBLISHED_MODELS);
// Made after MODELS_DIR is set: a game thread takes the environment it starts with.
let pool: GamePool;
beforeAll(() => {
  pool = new GamePool(1);
});
afterAll(() => pool.close());

/** Thread CPU seconds of `deals` games of these agents (after a game that warms the thread's compiler up). */
async function measured(agents: string[], deals: number): Promise<number> {
  const t = new Tournament({ agents, setup: 'random', deals: deals + 1, seed: 43, seating: 'fixed', sides: 'random', open: false });
  await pool.playMeasured(t.game(0), false);
  let ms = 0;
  for (let k = 1; k <= deals; k++) ms += (await pool.playMeasured(t.game(k), false)).cpuMs;
  return ms / 1000;
}

/** Off by this factor or more, either way, an estimate is wrong on any machine. */
const OFF = 4;

describe('the CPU estimate', () => {
  it.each([[['mcts:100,10,100', 'rulebased', 'rulebased']], [['mcts-strong(it=100)', 'rulebased', 'random']], [['minimax', 'rulebased', 'rulebased']],
    // Network calls: per iteration (values, and priors at new parents), per decision (prior=root, policy).
    [['mcts-strong(it=30,model=strong/gen-3.onnx,eval=mix,prior=net)', 'rulebased', 'rulebased']],
    [['mcts-strong(it=40,model=strong/gen-3.onnx,eval=net)', 'rulebased', 'rulebased']],
    // With a search around them: a game of network calls alone takes a few tenths of a
    // millisecond, where the estimate's fixed parts (the game's own cost, calls at the Xeon's
    // price) dominate and are generous, 11 × its CPU on a quiet EPYC.
    [['mcts-strong(it=20,model=strong/gen-3.onnx,prior=root)', 'policy(model=strong/gen-3.onnx)', 'rulebased']]])('of %j is near the CPU its games take; the bound is above it', async (agents) => {
    const deals = 4;
    const cpu = await measured(agents, deals);
    const shown = expectedCpuSeconds(agents) * deals;
    expect(shown / cpu).toBeGreaterThan(1 / OFF);
    expect(shown / cpu).toBeLessThan(OFF);
    expect(gameSeconds(agents) * deals).toBeGreaterThan(0.5 * cpu);
  }, 60_000);
});
