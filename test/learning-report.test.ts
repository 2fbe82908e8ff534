/**
 * The learning runs as kept (learning/<run>/): LEARNING.md is what learning/report.mjs writes from
 * them; each generation's network is the file its manifest hashes and the one the lab recorded
 * for the sweeps it played in; every result was played from clean code; the target evaluations'
 * seeds are disjoint from the run's, and they are at least 1,000 games.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const root = new URL('../', import.meta.url);
const { lineage, report, runs } = await import(new URL('learning/report.mjs', root).href);
const all: { folder: string; state: any }[] = runs();
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const sha = (path: string) => createHash('sha256').update(readFileSync(new URL(path, root))).digest('hex');

describe('the learning runs as kept', () => {
  test('LEARNING.md is what report.mjs writes from them now', () => {
    expect(read('LEARNING.md')).toBe(report());
  });

  test("a run's lineage counts its own self-play and its start model's, up to that generation", () => {
    const gen = (g: number, games?: number) => ({ gen: g, selfPlay: games === undefined ? {} : { games } });
    const made = [
      { folder: 'a', state: { config: {}, generations: [gen(1, 100), gen(2, 200), gen(3, 400)] } },
      { folder: 'b', state: { config: { startModel: 'a/gen-2.onnx' }, generations: [gen(1, 10), gen(2, 20), gen(3)] } },
      { folder: 'c', state: { config: { startModel: 'b/gen-1.onnx' }, generations: [gen(1, 1)] } },
    ];
    // a's gen 3 came after the network b started from; b's gen 3 has not played yet.
    expect(lineage(made, 'b')).toEqual({ games: 330, steps: [{ folder: 'a', games: 300, last: 2 }, { folder: 'b', games: 30, last: 2 }] });
    expect(lineage(made, 'c').games).toBe(1 + 10 + 300);
    expect(lineage(made, 'a').games).toBe(700);
    // A chain that leads back into itself ends instead of looping.
    const loop = [{ folder: 'x', state: { config: { startModel: 'y/gen-1.onnx' }, generations: [gen(1, 5)] } }, { folder: 'y', state: { config: { startModel: 'x/gen-1.onnx' }, generations: [gen(1, 7)] } }];
    expect(lineage(loop, 'x').games).toBe(12);
  });

  test.each(all.map((r) => [r.folder, r] as const))('%s: each network is the file its manifest hashes, trained on its own self-play', (folder, { state }) => {
    for (const g of state.generations.filter((x: any) => x.model)) {
      // The network is the file its name says under learning/ (a folder of MODELS_DIR by default), its manifest beside it.
      expect(g.model.name).toBe(`${folder}/gen-${g.gen}.onnx`);
      expect(g.model.manifest).toBe(`gen-${g.gen}.json`);
      const manifest = JSON.parse(read(`learning/${folder}/${g.model.manifest}`));
      expect(manifest.sha256).toBe(g.model.sha256);
      expect(sha(`learning/${g.model.name}`)).toBe(g.model.sha256);
      // Its own generation's self-play, or the replay of the same games it was trained on.
      expect(manifest.data.sweeps.map((s: any) => s.sweep)).toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`^(${[g.selfPlay.sweep, g.replay?.sweep].filter(Boolean).join('|')})$`))]));
      for (const s of manifest.data.sweeps) expect(s.code?.dirty, `sweep ${s.sweep}`).toBe(false);
    }
  });

  test.each(all.map((r) => [r.folder, r] as const))('%s: every sweep of the run played from clean code, the evaluations within their intervals', (folder, { state }) => {
    for (const g of state.generations) {
      if (g.selfPlay?.games !== undefined) expect(g.selfPlay.code?.dirty, `gen ${g.gen} self-play`).toBe(false);
      for (const e of g.evaluations.filter((x: any) => x.decision)) {
        expect(e.code?.dirty, `gen ${g.gen} against ${e.opponent}`).toBe(false);
        expect(e.low).toBeLessThanOrEqual(e.score);
        expect(e.score).toBeLessThanOrEqual(e.high);
      }
    }
  });

  test.each(all.filter((r) => existsSync(new URL(`learning/${r.folder}/targets.json`, root))).map((r) => [r.folder, r] as const))('%s: target evaluations of at least 1,000 games, clean code, seeds the run never used, the networks it trained', (folder, { state }) => {
    const { sweeps } = JSON.parse(read(`learning/${folder}/targets.json`));
    const c = state.config;
    // The run's seeds: generation g from firstSeed + 100000·g, self-play and evaluations within it.
    const runFirst = c.firstSeed + 100_000;
    const runLast = c.firstSeed + 100_000 * (state.generations.length + 1) - 1;
    for (const t of sweeps) {
      expect(t.games, t.name).toBeGreaterThanOrEqual(1000);
      expect(t.code.dirty, t.name).toBe(false);
      expect(t.firstSeed > runLast || t.firstSeed + t.games < runFirst, t.name).toBe(true);
      for (const [model, hash] of Object.entries(t.models)) {
        const g = state.generations.find((x: any) => x.model?.name === model);
        expect(g?.model.sha256, `${t.name}: ${model}`).toBe(hash);
      }
    }
  });
});
