// REPRODUCTION.md's section on Dawieang (2021): its DQN as trained by dqn_2021.py
// (reproduction/dqn-2021/training.json, the learning curves) and as evaluated on the lab by
// dqn-2021-evaluate.mjs (reproduction/dqn-2021/evaluation.json). Nothing here is typed in: the
// figures are read from those two files, and a part not made yet says so.
import { existsSync, readFileSync } from 'node:fs';
import { shortCommit } from './provenance.mjs';
import { duration } from './tables.mjs';

const folder = new URL('../dqn-2021/', import.meta.url);
const read = (name) => (existsSync(new URL(name, folder)) ? JSON.parse(readFileSync(new URL(name, folder), 'utf8')) : null);
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const range = (i) => `${(100 * i.low).toFixed(1)}–${(100 * i.high).toFixed(1)} %`;
const signed = (x) => (x >= 0 ? `+${x.toFixed(2)}` : `−${(-x).toFixed(2)}`);

/** The section's lines. */
export function dqnSection() {
  const training = read('training.json');
  const evaluation = read('evaluation.json');
  const lines = ['## Dawieang (2021): the DQN', ''];
  lines.push(
    "The paper trains a Deep Q-network for 2600 games in five setups and reports, from its learning curves, that it does better than random players and worse than its rule-based player. We train it as the paper describes, on this lab's Python environment (`wonderlab.dqn`; where the paper is silent or garbled, our reading is in [docs/deviations.md](docs/deviations.md#dawieang-2021-the-dqn)), then play each trained network on the lab, seats rotated, on deals no training game saw. The paper's finding, per setup: the network's head-to-head score (1 when it ends with more VP than that opponent, ½ on a tie) against the random players with its 95 % interval above ½, against the rule-based player below ½.",
    '',
  );
  if (!training) return [...lines, '**Pending**: not trained yet (`.venv/bin/python reproduction/scripts/dqn_2021.py`).', ''];
  lines.push('| setup | episodes | training seeds | training time | last 100 episodes\' mean reward | learning curve |', '| --- | --- | --- | --- | --- | --- |');
  for (const [name, s] of Object.entries(training.setups)) {
    lines.push(`| DQN + ${s.opponents.join(' + ')} | ${s.config.episodes} | ${s.trainingSeeds[0]}–${s.trainingSeeds[1]} | ${duration(s.seconds)} | ${signed(s.lastMovingAverage)} | [${name}](reproduction/dqn-2021/${name}-curve.svg) |`);
  }
  const commits = [...new Set(Object.values(training.setups).map((s) => `${s.code.commit.slice(0, 7)}${s.code.dirty ? ' (uncommitted changes)' : ''}`))];
  lines.push('', `Trained at commit ${commits.join(', ')}, torch ${Object.values(training.setups)[0].torch}, one thread each (\`reproduction/dqn-2021/training.json\`: configuration, seeds, models' sha256).`, '');
  if (!evaluation) return [...lines, '**Evaluation pending**: not played on the lab yet (`node reproduction/scripts/dqn-2021-evaluate.mjs submit`, then `collect`).', ''];
  lines.push(
    '| setup | games | win rate | mean rank reward | vs random | vs rule-based | better than random | worse than rule-based |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const [name, e] of Object.entries(evaluation.setups)) {
    const h2h = (prefix) => {
      const hit = Object.entries(e.headToHead).find(([c]) => c.startsWith(prefix));
      return hit ? `${pct(hit[1].score)} (${range(hit[1].interval)})` : '—';
    };
    const r = e.rankReward;
    lines.push(
      `| DQN + ${e.opponents.join(' + ')} | ${e.games} | ${pct(e.winRate)} (${range(e.wilson)}) | ${signed(r.mean)} (${signed(r.low)} to ${signed(r.high)}) | ${h2h('random')} | ${h2h('rulebased')} | ${e.finding.betterThanRandom ?? '—'} | ${e.finding.worseThanRuleBased ?? '—'} |`,
    );
    void name;
  }
  const count = (key, word) => Object.values(evaluation.setups).filter((e) => e.finding[key] === word).length;
  const asked = (key) => Object.values(evaluation.setups).filter((e) => e.finding[key] !== null).length;
  lines.push(
    '',
    `The paper's finding: better than random in ${count('betterThanRandom', 'confirmed')} of ${asked('betterThanRandom')} setups (refuted in ${count('betterThanRandom', 'refuted')}), worse than the rule-based player in ${count('worseThanRuleBased', 'confirmed')} of ${asked('worseThanRuleBased')} (refuted in ${count('worseThanRuleBased', 'refuted')}).`,
  );
  const p = Object.values(evaluation.setups)[0].provenance;
  const games = Object.values(evaluation.setups).reduce((t, e) => t + e.games, 0);
  lines.push(
    '',
    `Played on the lab at commit ${shortCommit(p)}${p.dirty === false ? '' : ' — **not known to be clean**'}, ${games} games in all, deals from first seed ${evaluation.firstSeed}, each network greedy (\`policy(model=dqn-2021/<setup>.onnx)\`; the collector checks that the sha256 the lab recorded for each is training.json's) (\`reproduction/dqn-2021/evaluation.json\`). Training times are wall times with up to three setups training at once on two cores.`,
    '',
  );
  return lines;
}
