#!/usr/bin/env node
// The trained DQNs of Dawieang (2021) (reproduction/dqn-2021/, made by dqn_2021.py) played on a
// running lab, each in its training setup, seats rotated (the network sits in every seat equally),
// at least 1,000 games per setup on deals no training episode saw:
//
//   node reproduction/scripts/dqn-2021-evaluate.mjs submit  [--url U] [--token T]
//   node reproduction/scripts/dqn-2021-evaluate.mjs collect [--url U] [--token T]
//
// The lab must read its models from reproduction/ (MODELS_DIR=reproduction): the agents are
// `policy(model=dqn-2021/<setup>.onnx)`, greedy (temp 0: the trained DQN's own greedy action).
// collect writes reproduction/dqn-2021/evaluation.json: per setup the lab's figures for the
// network (games, win rate with its Wilson interval, rank counts, mean VP) and its head-to-head
// score against each opponent kind (1 when it finishes with more VP, ½ on a tie, with the lab's
// interval), the sweep's provenance (the code version the lab reported, the models' sha256), and
// the paper's finding checked per setup.
import { readFileSync, writeFileSync } from 'node:fs';
import { labApi, options } from './lab-client.mjs';
import { sweepProvenance } from './provenance.mjs';
/** @typedef {import('@wonderlab/coordinator').SweepDetail} SweepDetail */
/** @typedef {import('@wonderlab/coordinator').SweepOverview} SweepOverview */

const here = new URL('../dqn-2021/', import.meta.url);
const args = process.argv.slice(3);
const opt = options(args);
const api = labApi(opt('url', process.env.LAB_URL ?? 'http://127.0.0.1:8080'), opt('token', process.env.API_TOKEN));

/** Far from every training seed (2,000,000 + 10,000·k + episode) and from the papers' runs. */
export const EVALUATION_FIRST_SEED = 3_000_000;
const MIN_GAMES = 1000;
/** The paper's rank rewards (its measure of a game), first place first. */
const RANK_REWARDS = { 3: [2, 1, -1], 4: [2, 1, -1, -2] };

const training = () => JSON.parse(readFileSync(new URL('training.json', here), 'utf8'));

function specOf(name, setup) {
  const players = setup.opponents.length + 1;
  return {
    name: `dqn-2021/${name}/s${EVALUATION_FIRST_SEED}`,
    players,
    seats: [`policy(model=dqn-2021/${setup.model})`, ...setup.opponents],
    seating: 'rotate',
    deals: { count: Math.ceil(MIN_GAMES / players), firstSeed: EVALUATION_FIRST_SEED },
  };
}

async function submit() {
  const existing = new Set((/** @type {SweepOverview[]} */ (await api('/api/sweeps'))).filter((s) => s.status !== 'cancelled').map((s) => s.name));
  for (const [name, setup] of Object.entries(training().setups)) {
    const spec = specOf(name, setup);
    if (existing.has(spec.name)) continue;
    const { id, games } = await api('/api/sweeps', spec);
    console.log(`${spec.name}\t${id}\t${games} games`);
  }
}

/** Mean and 95 % interval (normal) of the paper's rank reward over the network's games. */
function rankReward(ranks, players) {
  const table = RANK_REWARDS[players];
  const n = ranks.reduce((a, b) => a + b, 0);
  const mean = ranks.reduce((s, k, i) => s + k * table[i], 0) / n;
  const variance = ranks.reduce((s, k, i) => s + k * (table[i] - mean) ** 2, 0) / (n - 1);
  const half = 1.96 * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half };
}

async function collect() {
  const sweeps = /** @type {SweepOverview[]} */ (await api('/api/sweeps'));
  const out = { about: 'dqn-2021-evaluate.mjs collect: the trained DQNs on the lab, per setup', firstSeed: EVALUATION_FIRST_SEED, setups: {} };
  for (const [name, setup] of Object.entries(training().setups)) {
    const spec = specOf(name, setup);
    const listed = sweeps.find((s) => s.name === spec.name && s.status === 'done');
    if (!listed) throw new Error(`${spec.name}: not finished on this lab`);
    const detail = /** @type {SweepDetail} */ (await api(`/api/sweeps/${listed.id}`));
    const provenance = sweepProvenance(detail);
    // The network the lab played is the one trained: the file's hash, as the lab recorded it at submit.
    const played = detail.provenance.models?.[`dqn-2021/${setup.model}`];
    if (played !== setup.sha256) throw new Error(`${spec.name}: the lab played a model of sha256 ${played}, training.json has ${setup.sha256}`);
    const network = detail.pooled.find((p) => p.label.startsWith('policy('));
    const h2h = detail.headToHead;
    const me = h2h.configs.findIndex((c) => c.startsWith('policy('));
    const against = Object.fromEntries(
      h2h.configs.flatMap((c, j) => (j === me ? [] : [[c, { games: h2h.rows[me][j].games, score: h2h.rows[me][j].score, interval: h2h.rows[me][j].interval }]])),
    );
    const players = spec.players;
    const reward = rankReward(network.ranks, players);
    const rule = Object.entries(against).find(([c]) => c.startsWith('rulebased'));
    const random = against.random;
    out.setups[name] = {
      opponents: setup.opponents,
      sweep: listed.id,
      provenance,
      models: detail.provenance.models ?? null,
      games: network.games,
      winRate: network.winRate,
      wilson: network.wilson,
      ranks: network.ranks,
      meanVp: network.vp.mean,
      rankReward: reward,
      headToHead: against,
      // The paper: "better than random", "worse than rule-based" — each as the 95 % interval of
      // the network's head-to-head score against that opponent, above or below ½.
      finding: {
        betterThanRandom: random ? verdict(random.interval, 'above') : null,
        worseThanRuleBased: rule ? verdict(rule[1].interval, 'below') : null,
      },
    };
  }
  writeFileSync(new URL('evaluation.json', here), `${JSON.stringify(out, null, 1)}\n`);
  console.log(`wrote reproduction/dqn-2021/evaluation.json (${Object.keys(out.setups).length} setups)`);
}

/** 'confirmed' when the interval lies wholly on the paper's side of ½, 'refuted' on the other, else 'inconclusive'. */
function verdict(interval, side) {
  if (side === 'above' ? interval.low > 0.5 : interval.high < 0.5) return 'confirmed';
  if (side === 'above' ? interval.high < 0.5 : interval.low > 0.5) return 'refuted';
  return 'inconclusive';
}

const command = process.argv[2];
if (command === 'submit') await submit();
else if (command === 'collect') await collect();
else {
  console.error('usage: node reproduction/scripts/dqn-2021-evaluate.mjs submit|collect [--url U] [--token T]');
  process.exit(2);
}
