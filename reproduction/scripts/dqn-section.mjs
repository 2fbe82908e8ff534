// REPRODUCTION.md's section on Dawieang (2021): our reading of its DQN as trained by dqn_2021.py,
// several training runs per setup (reproduction/dqn-2021/training.json for run 0,
// seed-S/training.json for run S, the learning curves), and as evaluated on the lab by
// dqn-2021-evaluate.mjs (reproduction/dqn-2021/evaluation.json). Nothing here is typed in: the
// figures are read from those files, and a part not made yet says so.
import { existsSync, readFileSync } from 'node:fs';
import { trainingRuns } from './dqn-2021-evaluate.mjs';
import { shortCommit } from './provenance.mjs';
import { duration } from './tables.mjs';

const folder = new URL('../dqn-2021/', import.meta.url);
const read = (name) => (existsSync(new URL(name, folder)) ? JSON.parse(readFileSync(new URL(name, folder), 'utf8')) : null);
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const range = (i) => `${(100 * i.low).toFixed(1)}–${(100 * i.high).toFixed(1)} %`;
const signed = (x) => (x >= 0 ? `+${x.toFixed(2)}` : `−${(-x).toFixed(2)}`);
const withInterval = (i) => `${pct(i.value)} (${range(i)})`;

const seedRange = (s) => `${s.trainingSeeds[0]}–${s.trainingSeeds[1]}`;

/** The section's lines. */
export function dqnSection() {
  const runs = existsSync(new URL('training.json', folder)) ? trainingRuns().map((r) => [r.seedIndex, r.folder, r.training]) : [];
  const evaluation = read('evaluation.json');
  const lines = ['## Dawieang (2021): our reading of the DQN', ''];
  lines.push(
    "The paper trains a Deep Q-network for 2600 games in five setups and reports, from its learning curves, that it does better than random players and worse than its rule-based player. We train our reading of it (`wonderlab.dqn`: where the paper is silent or garbled, including a reward that counts the game's outcome twice, our reading is in [docs/deviations.md](docs/deviations.md#dawieang-2021-the-dqn)) on this lab's Python environment, several times per setup from different seeds (a study, not a single run: one run's network can fail where another learns), then play every trained network on the lab, seats rotated, on the same deals, which no training game saw. The paper's finding, per network: its head-to-head score (1 when it ends with more VP than that opponent's seat, ½ on a tie) against the random players with its 95 % interval above ½, against the rule-based player below ½. The games of one deal are not independent, so every interval is clustered by deal: the score is a ratio over deals with the cluster-robust variance, given as Wilson's interval at the effective number of comparisons (the design effect of the deals, at least 1; `reproduction/scripts/dqn-statistics.mjs`).",
    '',
  );
  if (runs.length === 0) return [...lines, '**Pending**: not trained yet (`.venv/bin/python reproduction/scripts/dqn_2021.py --seed-index 0`).', ''];
  const names = Object.keys(runs[0][2].setups);
  lines.push(
    '| setup | training runs | episodes | training seeds (run: first–last) | training time | last 100 episodes\' mean reward, per run | learning curves |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const name of names) {
    const each = runs.filter(([, , t]) => t.setups[name]).map(([s, f, t]) => [s, f, t.setups[name]]);
    const times = each.map(([, , s]) => s.seconds);
    const [fastest, slowest] = [duration(Math.min(...times)), duration(Math.max(...times))];
    const time = fastest === slowest ? fastest : `${fastest} – ${slowest}`;
    lines.push(
      `| DQN + ${each[0][2].opponents.join(' + ')} | ${each.map(([s]) => s).join(', ')} | ${each[0][2].config.episodes} | ${each.map(([s, , x]) => `${s}: ${seedRange(x)}`).join('; ')} | ${time} | ${each.map(([, , x]) => signed(x.lastMovingAverage)).join(', ')} | ${each.map(([s, f]) => `[${s}](reproduction/dqn-2021/${f}${name}-curve.svg)`).join(' ')} |`,
    );
  }
  const all = runs.flatMap(([s, , t]) => Object.values(t.setups).map((x) => ({ s, x })));
  const commits = [...new Set(all.map(({ x }) => `${x.code.commit.slice(0, 7)}${x.code.dirty ? ' (uncommitted changes)' : ''}`))];
  const torch = [...new Set(all.map(({ x }) => x.torch))];
  lines.push(
    '',
    `Trained at commit ${commits.join(', ')}, torch ${torch.join(', ')}, one thread each (run 0: \`reproduction/dqn-2021/training.json\`, run S: \`reproduction/dqn-2021/seed-S/training.json\`: configuration, seeds, time, code version, models' sha256). Training episode e of setup k in run S is dealt from seed 2,000,000 + 100,000·S + 10,000·k + e (run 0: 2,000,000 + 10,000·k + e), torch seeded with k + 10·S. Training times are wall times, with up to three trainings at once (run 0) or two (the later runs) on two cores shared with other work.`,
    '',
  );
  if (!evaluation) return [...lines, '**Evaluation pending**: not played on the lab yet (`node reproduction/scripts/dqn-2021-evaluate.mjs submit`, then `collect`).', ''];
  lines.push(
    'Each network, deal-clustered 95 % intervals:',
    '',
    '| setup | run | games (deals) | win rate | mean rank reward | vs random | vs rule-based | better than random | worse than rule-based |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const name of names) {
    for (const run of evaluation.runs.filter((r) => r.setups[name])) {
      const e = run.setups[name];
      const h2h = (kind) => (e.headToHead[kind] ? withInterval(e.headToHead[kind]) : '—');
      const r = e.rankReward;
      lines.push(
        `| DQN + ${e.opponents.join(' + ')} | ${run.seedIndex} | ${e.games} (${e.deals}) | ${withInterval(e.winRate)} | ${signed(r.value)} (${signed(r.low)} to ${signed(r.high)}) | ${h2h('random')} | ${h2h('rulebased')} | ${e.finding.betterThanRandom ?? '—'} | ${e.finding.worseThanRuleBased ?? '—'} |`,
      );
    }
  }
  lines.push(
    '',
    "Over the training runs, per setup: how many runs' networks confirm, leave open or refute the finding; the spread of their scores (lowest–highest, and their mean with Student's t interval over runs, each run's network one draw of the training: the finding over runs is this interval's, a claim about what the training gives); and the score pooled over the runs (every run's games of a deal together, the interval clustered by deal: a claim about these networks only, narrow because it leaves out how much the runs differ) with its finding.",
  );
  const over = (kind, key, title) => {
    lines.push('', `| setup | runs | ${title}, runs: confirmed / inconclusive / refuted | runs' scores, lowest–highest | mean over runs (t) | finding over runs | pooled | pooled finding |`, '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const name of names) {
      const st = evaluation.study[name];
      const h = st.headToHead[kind];
      const f = st.finding[key];
      if (!h || !f) continue;
      const opponents = evaluation.runs.find((r) => r.setups[name]).setups[name].opponents;
      lines.push(
        `| DQN + ${opponents.join(' + ')} | ${st.runs.length} | ${f.runs.confirmed} / ${f.runs.inconclusive} / ${f.runs.refuted} | ${pct(h.lowest)} – ${pct(h.highest)} | ${h.acrossRuns ? withInterval(h.acrossRuns) : '—'} | ${f.acrossRuns ?? '—'} | ${withInterval(h.pooled)} | ${f.pooled} |`,
      );
    }
  };
  over('random', 'betterThanRandom', 'better than random');
  over('rulebased', 'worseThanRuleBased', 'worse than rule-based');
  const studies = Object.values(evaluation.study);
  const total = (key, word) => studies.reduce((t, s) => t + (s.finding[key]?.runs[word] ?? 0), 0);
  const networks = (key) => studies.reduce((t, s) => t + (s.finding[key] ? s.runs.length : 0), 0);
  const pooledCount = (key, word, how = 'pooled') => studies.filter((s) => s.finding[key]?.[how] === word).length;
  const asked = (key) => studies.filter((s) => s.finding[key]).length;
  lines.push(
    '',
    `The paper's finding, network by network: better than random for ${total('betterThanRandom', 'confirmed')} of ${networks('betterThanRandom')} networks (refuted for ${total('betterThanRandom', 'refuted')}), worse than the rule-based player for ${total('worseThanRuleBased', 'confirmed')} of ${networks('worseThanRuleBased')} (refuted for ${total('worseThanRuleBased', 'refuted')}); over runs (the t interval), better than random in ${pooledCount('betterThanRandom', 'confirmed', 'acrossRuns')} of ${asked('betterThanRandom')} setups (refuted in ${pooledCount('betterThanRandom', 'refuted', 'acrossRuns')}), worse than the rule-based player in ${pooledCount('worseThanRuleBased', 'confirmed', 'acrossRuns')} of ${asked('worseThanRuleBased')} (refuted in ${pooledCount('worseThanRuleBased', 'refuted', 'acrossRuns')}); pooled per setup, better than random in ${pooledCount('betterThanRandom', 'confirmed')} of ${asked('betterThanRandom')} setups (refuted in ${pooledCount('betterThanRandom', 'refuted')}), worse than the rule-based player in ${pooledCount('worseThanRuleBased', 'confirmed')} of ${asked('worseThanRuleBased')} (refuted in ${pooledCount('worseThanRuleBased', 'refuted')}).`,
  );
  const sweeps = evaluation.runs.flatMap((r) => Object.values(r.setups));
  const labCommits = [...new Set(sweeps.map((e) => `${shortCommit(e.provenance)}${e.provenance.dirty === false ? '' : ' — **not known to be clean**'}`))];
  const games = sweeps.reduce((t, e) => t + e.games, 0);
  lines.push(
    '',
    `Played on the lab at commit ${labCommits.join(', ')}, ${games} games in all (${sweeps.length} networks, at least ${evaluation.minGames} games each), every network on the same deals, from first seed ${evaluation.firstSeed}, each greedy (\`policy(model=dqn-2021/[seed-S/]<setup>.onnx)\`; the collector checks that the sha256 the lab recorded for each is its training.json's) (\`reproduction/dqn-2021/evaluation.json\`, with the per-deal sums every interval is computed from).`,
    '',
  );
  return lines;
}
