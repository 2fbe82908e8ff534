#!/usr/bin/env node
// The trained DQNs of Dawieang (2021) (reproduction/dqn-2021/, made by dqn_2021.py: training run
// 0 in the folder itself, run S ≥ 1 in seed-S/) played on a running lab, each network in its
// training setup, seats rotated (the network sits in every seat equally), at least 1,000 games per
// network, every network on the same deals, which no training episode saw:
//
//   node reproduction/scripts/dqn-2021-evaluate.mjs submit  [--url U] [--token T]
//   node reproduction/scripts/dqn-2021-evaluate.mjs collect [--url U] [--token T]
//
// The lab must read its models from reproduction/ (MODELS_DIR=reproduction, one of its default
// folders): the agents are `policy(model=dqn-2021/[seed-S/]<setup>.onnx)`, greedy (temp 0: the
// trained DQN's own greedy action). collect writes reproduction/dqn-2021/evaluation.json: per
// training run and setup the network's games, win rate, rank reward and head-to-head score
// against each opponent kind (1 when it finishes with more VP than that seat, ½ on a tie), each
// with a 95 % interval clustered by deal (dqn-statistics.mjs: the games of one deal are not
// independent), the per-deal sums those come from, the sweep's provenance (the code version the
// lab reported, the models' sha256) and the paper's finding; per setup, the finding over runs
// (how many agree, the spread of the scores) and pooled over runs (the same deals, clustered).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { clusteredRatio, overRuns, verdict } from './dqn-statistics.mjs';
import { labApi, options } from './lab-client.mjs';
import { sweepProvenance } from './provenance.mjs';
/** @typedef {import('@wonderlab/coordinator').SweepDetail} SweepDetail */
/** @typedef {import('@wonderlab/coordinator').SweepOverview} SweepOverview */

const here = new URL('../dqn-2021/', import.meta.url);

/** Far from every training seed (2,000,000 + 100,000·S + 10,000·k + episode, S ≤ 9) and from the papers' runs. */
export const EVALUATION_FIRST_SEED = 3_000_000;
/** Games per network (seats rotated: a whole number of deals, each played once per seat). */
export const MIN_GAMES = 1000;
/** The paper's rank rewards (its measure of a game), first place first. */
const RANK_REWARDS = { 3: [2, 1, -1], 4: [2, 1, -1, -2] };

/** Every stored training run: index, folder under dqn-2021/ ('' or 'seed-S/'), training.json. */
export function trainingRuns() {
  const runs = [{ seedIndex: 0, folder: '' }];
  for (const f of readdirSync(here).filter((f) => /^seed-\d+$/.test(f)).sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))) {
    if (existsSync(new URL(`${f}/training.json`, here))) runs.push({ seedIndex: Number(f.slice(5)), folder: `${f}/` });
  }
  return runs.map((r) => ({ ...r, training: JSON.parse(readFileSync(new URL(`${r.folder}training.json`, here), 'utf8')) }));
}

const modelName = (run, setup) => `dqn-2021/${run.folder}${setup.model}`;

function specOf(run, name, setup) {
  const players = setup.opponents.length + 1;
  return {
    name: `dqn-2021/seed-${run.seedIndex}/${name}/s${EVALUATION_FIRST_SEED}`,
    players,
    seats: [`policy(model=${modelName(run, setup)})`, ...setup.opponents],
    seating: 'rotate',
    deals: { count: Math.ceil(MIN_GAMES / players), firstSeed: EVALUATION_FIRST_SEED },
  };
}

async function submit(api) {
  const existing = new Set((await api('/api/sweeps')).filter((s) => s.status !== 'cancelled').map((s) => s.name));
  for (const run of trainingRuns()) {
    for (const [name, setup] of Object.entries(run.training.setups)) {
      const spec = specOf(run, name, setup);
      if (existing.has(spec.name)) continue;
      const { id, games } = await api('/api/sweeps', spec);
      console.log(`${spec.name}\t${id}\t${games} games`);
    }
  }
}

/** The opponent kind of an agent: 'random' or 'rulebased' (the paper's two), null for the network. */
const kindOf = (agent) => (agent.startsWith('policy(') ? null : agent.startsWith('rulebased') ? 'rulebased' : agent === 'random' ? 'random' : agent);

/**
 * Per deal, from the sweep's games (the lab's JSONL export): the network's games, wins, rank
 * reward and, per opponent kind, head-to-head points (1 more VP than that seat, ½ a tie) and
 * comparisons (one per opponent seat of that kind per game).
 */
export function perDeal(games, players, deals) {
  const table = RANK_REWARDS[players];
  const zeros = () => Array(deals).fill(0);
  const out = { games: zeros(), wins: zeros(), rankReward: zeros(), headToHead: {} };
  for (const g of games) {
    const me = g.players.find((p) => p.agent.startsWith('policy('));
    const d = g.deal;
    out.games[d] += 1;
    out.wins[d] += me.winner ? 1 : 0;
    out.rankReward[d] += table[me.rank - 1];
    for (const p of g.players) {
      const kind = kindOf(p.agent);
      if (kind === null) continue;
      const h = (out.headToHead[kind] ??= { points: zeros(), pairs: zeros() });
      h.points[d] += me.score.total > p.score.total ? 1 : me.score.total === p.score.total ? 0.5 : 0;
      h.pairs[d] += 1;
    }
  }
  return out;
}

/** A network's figures from its per-deal sums, each with its deal-clustered 95 % interval. */
export function figures(deal) {
  const headToHead = Object.fromEntries(
    Object.entries(deal.headToHead).map(([kind, h]) => [kind, { pairs: h.pairs.reduce((a, b) => a + b, 0), ...clusteredRatio(h.points, h.pairs) }]),
  );
  return {
    games: deal.games.reduce((a, b) => a + b, 0),
    deals: deal.games.filter((n) => n > 0).length,
    winRate: clusteredRatio(deal.wins, deal.games),
    rankReward: clusteredRatio(deal.rankReward, deal.games, { bounded: false }),
    headToHead,
    // The paper: "better than random", "worse than rule-based" — each as the 95 % interval of the
    // network's head-to-head score against that opponent, above or below ½.
    finding: {
      betterThanRandom: headToHead.random ? verdict(headToHead.random, 'above') : null,
      worseThanRuleBased: headToHead.rulebased ? verdict(headToHead.rulebased, 'below') : null,
    },
  };
}

/** Per setup, over its runs: the per-run findings counted, the scores' spread, and the pooled estimate. */
export function study(runs) {
  const setups = {};
  for (const name of Object.keys(runs[0].setups)) {
    const each = runs.filter((r) => r.setups[name]).map((r) => r.setups[name]);
    const kinds = Object.keys(each[0].perDeal.headToHead);
    setups[name] = {
      runs: runs.filter((r) => r.setups[name]).map((r) => r.seedIndex),
      headToHead: Object.fromEntries(kinds.map((kind) => [kind, overRuns(each.map((e) => e.perDeal.headToHead[kind]), each.map((e) => e.headToHead[kind].value))])),
    };
    const h = setups[name].headToHead;
    const findings = (key) => {
      const counts = { confirmed: 0, refuted: 0, inconclusive: 0 };
      for (const e of each) counts[e.finding[key]] += 1;
      return counts;
    };
    // Over runs (the t interval of the runs' scores: the training as the unit) and pooled (these networks, deals as the unit).
    const over = (x, key, side) => ({ runs: findings(key), acrossRuns: x.acrossRuns ? verdict(x.acrossRuns, side) : null, pooled: verdict(x.pooled, side) });
    setups[name].finding = {
      betterThanRandom: h.random ? over(h.random, 'betterThanRandom', 'above') : null,
      worseThanRuleBased: h.rulebased ? over(h.rulebased, 'worseThanRuleBased', 'below') : null,
    };
  }
  return setups;
}

/** JSON with one line per number array (the per-deal sums), so that the file stays readable. */
const compactJson = (value) => JSON.stringify(value, null, 1).replace(/\[\n\s*(-?[\d.e+-]+(?:,\n\s*-?[\d.e+-]+)*)\n\s*\]/g, (_, body) => `[${body.replace(/,\n\s*/g, ',')}]`);

async function collect(api) {
  const sweeps = await api('/api/sweeps');
  const runs = [];
  for (const run of trainingRuns()) {
    const setups = {};
    for (const [name, setup] of Object.entries(run.training.setups)) {
      const spec = specOf(run, name, setup);
      const listed = sweeps.find((s) => s.name === spec.name && s.status === 'done');
      if (!listed) throw new Error(`${spec.name}: not finished on this lab`);
      const detail = await api(`/api/sweeps/${listed.id}`);
      const provenance = sweepProvenance(detail);
      // The network the lab played is the one trained: the file's hash, as the lab recorded it at submit.
      const played = detail.provenance.models?.[modelName(run, setup)];
      if (played !== setup.sha256) throw new Error(`${spec.name}: the lab played a model of sha256 ${played}, training.json has ${setup.sha256}`);
      const games = (await api(`/api/sweeps/${listed.id}/export?format=jsonl`)).split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const deal = perDeal(games, spec.players, spec.deals.count);
      const lab = detail.pooled.find((p) => p.label.startsWith('policy('));
      const mine = figures(deal);
      if (lab.games !== mine.games) throw new Error(`${spec.name}: the lab counts ${lab.games} games of the network, the export ${mine.games}`);
      setups[name] = {
        opponents: setup.opponents,
        model: modelName(run, setup),
        sweep: listed.id,
        provenance,
        models: detail.provenance.models ?? null,
        ...mine,
        // The lab's own per-game figures (intervals that take every game as independent), for comparison.
        lab: { winRate: lab.winRate, wilson: lab.wilson, ranks: lab.ranks, meanVp: lab.vp.mean },
        perDeal: deal,
      };
    }
    runs.push({ seedIndex: run.seedIndex, folder: `dqn-2021/${run.folder}`, setups });
  }
  const out = {
    about: 'dqn-2021-evaluate.mjs collect: every trained DQN (training run × setup) on the lab, on the same deals; intervals clustered by deal (dqn-statistics.mjs)',
    firstSeed: EVALUATION_FIRST_SEED,
    minGames: MIN_GAMES,
    interval: 'ratio over deals with the cluster-robust (deal) variance: 95 %, normal',
    study: study(runs),
    runs,
  };
  writeFileSync(new URL('evaluation.json', here), `${compactJson(out)}\n`);
  console.log(`wrote reproduction/dqn-2021/evaluation.json (${runs.length} runs × ${Object.keys(out.study).length} setups)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(3);
  const opt = options(args);
  const api = labApi(opt('url', process.env.LAB_URL ?? 'http://127.0.0.1:8080'), opt('token', process.env.API_TOKEN));
  const command = process.argv[2];
  if (command === 'submit') await submit(api);
  else if (command === 'collect') await collect(api);
  else {
    console.error('usage: node reproduction/scripts/dqn-2021-evaluate.mjs submit|collect [--url U] [--token T]');
    process.exit(2);
  }
}
