/**
 * The CPU estimate shown at submit against the CPU games really take (their thread's CPU time, as
 * the lab measures it), and the bound that MAX_GAME_SECONDS and a stopping worker's grace read.
 * The calibration itself (CPU_SHARE, measured on a quiet machine: lab/plan/cost.ts) is not checked
 * here: thread CPU time rises on a busy machine — up to 2.7× the quiet figure while the suite runs
 * its files in parallel on 2 cores — and a test must not depend on the load. What these bounds
 * catch is an agent without a cost model (an estimate of 0, as minimax had before it got one) or
 * one off by 4× or more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRONG_RUN, useModelsDir } from './fixture-models.js';
import { GamePool } from '@wonderlab/shared';
import { Tournament, expectedCpuSeconds, gameSeconds } from '../src/lab/index.js';

// A network of the trainer's default size (hidden 256,256), as the estimate assumes: learning run
// `strong`'s third generation, kept in the repository.
useModelsDir(STRONG_RUN);
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

describe('the CPU estimate', () => {
  it.each([[['mcts:100,10,100', 'rulebased', 'rulebased']], [['mcts-strong(it=100)', 'rulebased', 'random']], [['minimax', 'rulebased', 'rulebased']],
    // Network calls: per iteration (values, and priors at new parents), per decision (prior=root, policy).
    [['mcts-strong(it=30,model=gen-3/model.onnx,eval=mix,prior=net)', 'rulebased', 'rulebased']],
    [['mcts-strong(it=40,model=gen-3/model.onnx,eval=net)', 'rulebased', 'rulebased']],
    [['mcts-strong(it=1,model=gen-3/model.onnx,prior=root)', 'policy(model=gen-3/model.onnx)', 'rulebased']]])('of %j is near the CPU its games take; the bound is above it', async (agents) => {
    const deals = 4;
    const cpu = await measured(agents, deals);
    const shown = expectedCpuSeconds(agents) * deals;
    expect(shown / cpu).toBeGreaterThan(0.25);
    expect(shown / cpu).toBeLessThan(1.8);
    expect(gameSeconds(agents) * deals).toBeGreaterThan(0.5 * cpu);
  }, 60_000);
});
