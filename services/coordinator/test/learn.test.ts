/**
 * `wonderlab learn` end to end on a real lab (Redis, HTTP, game threads) and the real trainer
 * (PyTorch in the repository's .venv), at toy sizes: two generations of self-play → rows →
 * network → evaluation, every step in learn.json; the second generation's self-play is guided by
 * the first's network; run again, it resumes and submits nothing twice.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, startLab, type TestLab } from './harness.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/wonderlab.mjs');
const PYTHON = join(ROOT, '.venv/bin/python');
const work = mkdtempSync(join(tmpdir(), 'wl-learn-'));
const models = join(work, 'models');
let lab: TestLab;
let before: string | undefined;

beforeAll(async () => {
  before = process.env.MODELS_DIR;
  // The game threads read the generations' networks from here, as the learn command writes them.
  process.env.MODELS_DIR = models;
  lab = await startLab();
});
afterAll(async () => {
  await lab?.close();
  if (before === undefined) delete process.env.MODELS_DIR;
  else process.env.MODELS_DIR = before;
  rmSync(work, { recursive: true, force: true });
});

function learn(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return learnRun('toy', ...args);
}

function learnRun(name: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, 'learn', '--url', lab.url, '--name', name, '--dir', join(work, name === 'toy' ? 'run' : name), '--models-dir', models, '--python', PYTHON, ...args], { env: { ...process.env, WONDERLAB_URL: '', WONDERLAB_TOKEN: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const TOY = ['--base', 'mcts(it=8,time=0)', '--self-play', '4', '--eval-games', '6', '--epochs', '2', '--hidden', '16', '--third', 'random', '--elo1', '400'];

describe('wonderlab learn', () => {
  test('bad options are usage errors before anything is submitted', async () => {
    const listed = (await api(lab.url, '/api/sweeps')).body.length;
    // A new run named as a published one (learning/strong/) would hide its networks.
    const published = await learnRun('strong', '--generations', '1', '--models-dir', `${models}:${join(ROOT, 'learning')}`);
    expect(published.code).toBe(2);
    expect(published.stderr).toMatch(/--name: .*learning\/strong already holds networks named strong\/…; choose another name/);
    const bad = await learn('--generations', '1', '--base', 'mcts(it=nope)');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--base: agent 'mcts\(it=nope\)': it: expected an integer/);
    const guide = await learn('--generations', '1', '--guide', 'eval=sometimes');
    expect(guide.code).toBe(2);
    expect(guide.stderr).toMatch(/--guide: .*eval: expected one of playout \| net \| mix/);
    const explore = await learn('--generations', '1', '--explore', 'noise=2');
    expect(explore.code).toBe(2);
    expect(explore.stderr).toMatch(/--explore: .*noise: expected a number from 0 to 1/);
    const trainer = await learn('--generations', '1', '--train', 'policy-temperature=0.5,seed=3');
    expect(trainer.code).toBe(2);
    expect(trainer.stderr).toMatch(/--train: seed is not an option --train passes/);
    // argparse would take a prefix of the run's own options (ep: --epochs): only whole known keys pass.
    const prefix = await learn('--generations', '1', '--train', 'ep=5');
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toMatch(/--train: ep is not an option --train passes \(known: batch-size, /);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed);
  });

  test('two generations: self-play, rows, a network each, evaluations; a second run resumes', async () => {
    expect(existsSync(PYTHON), 'the Python environment (bash python/setup.sh --train) trains the networks').toBe(true);
    const first = await learn('--generations', '2', ...TOY);
    expect(first.code, first.stderr.slice(-3000)).toBe(0);
    const state = JSON.parse(readFileSync(join(work, 'run', 'learn.json'), 'utf8'));
    expect(state.generations.map((g: any) => g.gen)).toEqual([1, 2]);
    const [g1, g2] = state.generations;
    expect(g1.player).toBe('mcts(it=8,time=0,model=toy/gen-1.onnx,eval=mix,prior=net)');
    for (const g of [g1, g2]) {
      expect(g.selfPlay.games).toBe(4);
      expect(g.selfPlay.code).toHaveProperty('version');
      expect(g.rows.files.length).toBe(1);
      const file = join(models, g.model.name);
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(g.model.sha256);
      // Kept with the run too, beside its manifest: a run's folder is a folder of models by their names (learning/<run>/gen-<g>.onnx).
      expect(createHash('sha256').update(readFileSync(join(work, 'run', `gen-${g.gen}.onnx`))).digest('hex')).toBe(g.model.sha256);
      // Paths relative to the run's folder: the run moves with it.
      expect(g.model.manifest).toBe(`gen-${g.gen}.json`);
      expect(g.rows.dir).toBe(join(`gen-${g.gen}`, 'rows'));
      expect(JSON.parse(readFileSync(join(work, 'run', g.model.manifest), 'utf8')).data.sweeps.map((s: any) => s.sweep)).toContain(g.selfPlay.sweep);
      for (const e of g.evaluations) {
        expect(['H0', 'H1', 'max']).toContain(e.decision);
        expect(e.games).toBeGreaterThan(0);
        expect(e.code).toHaveProperty('version');
        expect(e.low).toBeLessThanOrEqual(e.score);
        expect(e.score).toBeLessThanOrEqual(e.high);
      }
      expect(g).toHaveProperty('rating');
    }
    // Generation 1's opponent is the base agent, which is also the reference: one evaluation.
    expect(g1.evaluations.map((e: any) => e.opponent)).toEqual(['mcts(it=8,time=0)']);
    expect(g2.evaluations.map((e: any) => e.opponent)).toEqual([g1.player, 'mcts(it=8,time=0)']);
    // Generation 2 trained on both generations' rows (window 2), and its self-play was played by
    // generation 1's network: the lab recorded that model for the sweep.
    expect(JSON.parse(readFileSync(join(work, 'run', g2.model.manifest), 'utf8')).data.sweeps.length).toBe(2);
    const selfPlay2 = (await api(lab.url, `/api/sweeps/${g2.selfPlay.sweep}`)).body;
    expect(selfPlay2.spec.seats).toEqual([g1.player, g1.player, g1.player]);
    expect(selfPlay2.provenance.models).toEqual({ 'toy/gen-1.onnx': g1.model.sha256 });

    const sweeps = (await api(lab.url, '/api/sweeps')).body.length;
    // On another machine the lab's MODELS_DIR lacks the networks: the run puts its kept copies back.
    rmSync(join(models, 'toy'), { recursive: true, force: true });
    const again = await learn('--generations', '2', ...TOY);
    expect(again.code, again.stderr.slice(-3000)).toBe(0);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(sweeps);
    const resumed = JSON.parse(readFileSync(join(work, 'run', 'learn.json'), 'utf8'));
    expect(resumed.generations.map((g: any) => [g.selfPlay.sweep, g.model.sha256, g.evaluations.map((e: any) => e.sweep)])).toEqual(state.generations.map((g: any) => [g.selfPlay.sweep, g.model.sha256, g.evaluations.map((e: any) => e.sweep)]));
    expect(existsSync(join(models, g1.model.name))).toBe(true);
    // A rating is kept as it was when its generation was done.
    expect(resumed.generations.map((g: any) => g.rating)).toEqual(state.generations.map((g: any) => g.rating));
    expect(again.stdout).not.toMatch(/training on/);

    // On another clone the rows are gone (they stay out of git), and so is generation 2's network
    // here: retrained on the last two generations' rows, exported again from the lab's self-plays,
    // it is the same network (training is deterministic), and nothing is played again.
    rmSync(join(work, 'run', 'gen-1', 'rows'), { recursive: true, force: true });
    rmSync(join(work, 'run', 'gen-2', 'rows'), { recursive: true, force: true });
    rmSync(join(models, g2.model.name));
    rmSync(join(work, 'run', `gen-2.onnx`));
    const clone = await learn('--generations', '2', ...TOY);
    expect(clone.code, clone.stderr.slice(-3000)).toBe(0);
    expect(clone.stdout).toMatch(/generation 2: training on 2 generation\(s\) of rows/);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(sweeps);
    const retrained = JSON.parse(readFileSync(join(work, 'run', 'learn.json'), 'utf8'));
    expect(retrained.generations[1].model.sha256).toBe(g2.model.sha256);
    for (const g of [1, 2]) expect(existsSync(join(work, 'run', `gen-${g}`, 'rows', retrained.generations[g - 1].rows.files[0]))).toBe(true);

    // --until-plateau: with both generations not shown stronger than the one before (H0, as the
    // state is edited to say), a third is not made and nothing is submitted.
    const file = join(work, 'run', 'learn.json');
    const kept = readFileSync(file, 'utf8');
    const flat = JSON.parse(kept);
    for (const g of flat.generations) g.evaluations[0].decision = 'H0';
    writeFileSync(file, JSON.stringify(flat));
    const stopped = await learn('--generations', '3', '--until-plateau', ...TOY);
    expect(stopped.code, stopped.stderr.slice(-3000)).toBe(0);
    expect(stopped.stdout).toMatch(/plateau: generations 1 and 2 were not shown stronger than the one before each \(SPRT H0\); no generation 3 \(--until-plateau\)/);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(sweeps);
    expect(JSON.parse(readFileSync(file, 'utf8')).generations).toHaveLength(2);
    writeFileSync(file, kept);
  }, 600_000);

  test('a run that starts from another run\'s network: generation 0 is the base guided by it', async () => {
    const start = 'toy/gen-2.onnx';
    expect(existsSync(join(models, start)), 'the previous test trained it').toBe(true);
    const listed = (await api(lab.url, '/api/sweeps')).body.length;
    const missing = await learnRun('warm', '--generations', '1', ...TOY, '--start-model', 'toy/gen-9.onnx');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--start-model: no file toy\/gen-9\.onnx under the models directories /);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed);

    const run = await learnRun('warm', '--generations', '1', ...TOY, '--start-model', start);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const state = JSON.parse(readFileSync(join(work, 'warm', 'learn.json'), 'utf8'));
    expect(state.config.startModel).toBe(start);
    const [g1] = state.generations;
    const generation0 = 'mcts(it=8,time=0,model=toy/gen-2.onnx,eval=mix,prior=net)';
    const selfPlay = (await api(lab.url, `/api/sweeps/${g1.selfPlay.sweep}`)).body;
    expect(selfPlay.spec.seats).toEqual([generation0, generation0, generation0]);
    expect(selfPlay.provenance.models).toEqual({ [start]: createHash('sha256').update(readFileSync(join(models, start))).digest('hex') });
    expect(g1.player).toBe('mcts(it=8,time=0,model=warm/gen-1.onnx,eval=mix,prior=net)');
    // Its first opponent is the guided generation 0; the reference stays the bare base.
    expect(g1.evaluations.map((e: any) => e.opponent)).toEqual([generation0, 'mcts(it=8,time=0)']);
  }, 600_000);

  test('--explore reaches the self-play player only, --train the trainer', async () => {
    const run = await learnRun('explore', '--generations', '1', ...TOY, '--start-model', 'toy/gen-2.onnx', '--explore', 'noise=0.5,alpha=0.3', '--train', 'policy-temperature=0.5');
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const state = JSON.parse(readFileSync(join(work, 'explore', 'learn.json'), 'utf8'));
    expect(state.config).toMatchObject({ explore: 'noise=0.5,alpha=0.3', train: 'policy-temperature=0.5' });
    const [g1] = state.generations;
    const explorer = 'mcts(it=8,time=0,model=toy/gen-2.onnx,eval=mix,prior=net,noise=0.5,alpha=0.3)';
    expect((await api(lab.url, `/api/sweeps/${g1.selfPlay.sweep}`)).body.spec.seats).toEqual([explorer, explorer, explorer]);
    // Evaluations play the generations as they are, without the noise.
    expect(g1.player).toBe('mcts(it=8,time=0,model=explore/gen-1.onnx,eval=mix,prior=net)');
    expect(g1.evaluations.map((e: any) => e.opponent)).toEqual(['mcts(it=8,time=0,model=toy/gen-2.onnx,eval=mix,prior=net)', 'mcts(it=8,time=0)']);
    const manifest = JSON.parse(readFileSync(join(work, 'explore', g1.model.manifest), 'utf8'));
    expect(manifest.config.policy_temperature).toBe(0.5);
  }, 600_000);

  test('--players 4: four seats of self-play, evaluations with two third seats, a network of 4-player observations', async () => {
    const run = await learnRun('four', '--generations', '1', ...TOY, '--players', '4');
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const state = JSON.parse(readFileSync(join(work, 'four', 'learn.json'), 'utf8'));
    expect(state.config.players).toBe(4);
    const [g1] = state.generations;
    const selfPlay = (await api(lab.url, `/api/sweeps/${g1.selfPlay.sweep}`)).body.spec;
    expect(selfPlay.players).toBe(4);
    expect(selfPlay.seats).toEqual(Array(4).fill('mcts(it=8,time=0)'));
    const evaluation = (await api(lab.url, `/api/sweeps/${g1.evaluations[0].sweep}`)).body.spec;
    expect(evaluation.seats).toEqual(['mcts(it=8,time=0,model=four/gen-1.onnx,eval=mix,prior=net)', 'mcts(it=8,time=0)', 'random', 'random']);
    const manifest = JSON.parse(readFileSync(join(work, 'four', g1.model.manifest), 'utf8'));
    expect(manifest.players).toBe(4);
  }, 600_000);

  test('resumed on another lab, a run plays again the steps that lab does not have and it still needs, and only those', async () => {
    const file = join(work, 'warm', 'learn.json');
    const warm = (...args: string[]) => learnRun('warm', '--generations', '1', ...TOY, '--start-model', 'toy/gen-2.onnx', ...args);
    const state = JSON.parse(readFileSync(file, 'utf8'));
    const [g1] = state.generations;
    const [decided, reference] = g1.evaluations;
    // As the run's state reads on a new lab: the reference evaluation submitted to the old one, not decided.
    g1.evaluations[1] = { opponent: reference.opponent, sweep: 'mzzzzzzzzzzz' };
    delete g1.rating;
    writeFileSync(file, JSON.stringify(state));
    let listed = (await api(lab.url, '/api/sweeps')).body.length;
    const first = await warm();
    expect(first.code, first.stderr.slice(-3000)).toBe(0);
    expect(first.stdout).toMatch(/generation 1: the lab does not have evaluation mzzzzzzzzzzz \(another lab\?\): it is played again/);
    let resumed = JSON.parse(readFileSync(file, 'utf8')).generations[0];
    // The self-play, its rows, the network and the decided evaluation are kept: one sweep more, the lost one's.
    expect(resumed.selfPlay).toEqual(g1.selfPlay);
    expect(resumed.model).toEqual(g1.model);
    expect(resumed.evaluations[0]).toEqual(decided);
    expect(resumed.evaluations[1].sweep).not.toBe('mzzzzzzzzzzz');
    expect(['H0', 'H1', 'max']).toContain(resumed.evaluations[1].decision);
    expect(resumed.rating).not.toBeUndefined();
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed + 1);

    // A self-play the lab does not have, its rows never exported: played again (the same games),
    // and the network kept with the run is not trained again.
    const again = JSON.parse(readFileSync(file, 'utf8'));
    again.generations[0].selfPlay = { sweep: 'myyyyyyyyyyy' };
    delete again.generations[0].rows;
    writeFileSync(file, JSON.stringify(again));
    listed = (await api(lab.url, '/api/sweeps')).body.length;
    const second = await warm();
    expect(second.code, second.stderr.slice(-3000)).toBe(0);
    expect(second.stdout).toMatch(/the lab does not have self-play myyyyyyyyyyy/);
    expect(second.stdout).not.toMatch(/training on/);
    resumed = JSON.parse(readFileSync(file, 'utf8')).generations[0];
    expect(resumed.selfPlay.games).toBe(4);
    expect(resumed.rows.files.length).toBe(1);
    expect(resumed.model).toEqual(g1.model);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed + 1);
    const [replayed, original] = await Promise.all([resumed.selfPlay.sweep, g1.selfPlay.sweep].map(async (id) => (await fetch(`${lab.url}/api/sweeps/${id}/export?format=jsonl`)).text()));
    const games = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l).players.map((p: any) => [p.built, p.score.total]));
    expect(games(replayed)).toEqual(games(original));

    // A finished self-play the lab does not have (its record kept, its rows gone): the same games
    // again as the generation's replay, for their rows; the record its network names stays.
    const third = JSON.parse(readFileSync(file, 'utf8'));
    const record = { ...third.generations[0].selfPlay, sweep: 'mxxxxxxxxxxx' };
    third.generations[0].selfPlay = record;
    delete third.generations[0].rows;
    writeFileSync(file, JSON.stringify(third));
    listed = (await api(lab.url, '/api/sweeps')).body.length;
    const again3 = await warm();
    expect(again3.code, again3.stderr.slice(-3000)).toBe(0);
    expect(again3.stdout).toMatch(/the lab does not have self-play mxxxxxxxxxxx .*played again/);
    expect(again3.stdout).toMatch(/the same games again for their rows/);
    expect(again3.stdout).not.toMatch(/training on/);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed + 1);
    resumed = JSON.parse(readFileSync(file, 'utf8')).generations[0];
    expect(resumed.selfPlay).toEqual(record);
    expect(resumed.replay.games).toBe(4);
    expect(resumed.rows.files.length).toBe(1);
    expect(resumed.model).toEqual(g1.model);
    const replay = await (await fetch(`${lab.url}/api/sweeps/${resumed.replay.sweep}/export?format=jsonl`)).text();
    expect(games(replay)).toEqual(games(original));

    // Its rows gone again while the lab still has the replay: that replay is exported, nothing is played.
    const fourth = JSON.parse(readFileSync(file, 'utf8'));
    delete fourth.generations[0].rows;
    writeFileSync(file, JSON.stringify(fourth));
    listed = (await api(lab.url, '/api/sweeps')).body.length;
    const again4 = await warm();
    expect(again4.code, again4.stderr.slice(-3000)).toBe(0);
    expect(again4.stdout).not.toMatch(/played again|submitted/);
    expect(JSON.parse(readFileSync(file, 'utf8')).generations[0].replay).toEqual(resumed.replay);
    expect((await api(lab.url, '/api/sweeps')).body.length).toBe(listed);
  }, 600_000);
});
