// LEARNING.md from the learning runs kept in learning/<run>/ (learn.json as `wonderlab learn`
// writes it, each generation's network gen-<g>.onnx with its manifest gen-<g>.json): per generation the self-play games
// and CPU time, the network's data and losses, the evaluations with their intervals and SPRT
// decisions, the ladder's rating, and a chart of the ratings over generations. Nothing is typed
// in: every figure is read from those files. Run: node learning/report.mjs > LEARNING.md
// (which also writes the charts).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { TARGET_ALPHA, judgeTarget } from '../shared/dist/src/index.js';

const root = new URL('./', import.meta.url);
const pct = (x) => `${(100 * x).toFixed(1)} %`;
const hours = (s) => (s === null || s === undefined ? '–' : `${(s / 3600).toFixed(2)} h`);
const short = (code) => (code ? `${code.commit ? code.commit.slice(0, 7) : code.version}${code.dirty ? ' (uncommitted changes)' : ''}` : 'not recorded');

/** The runs: folders of learning/ with a learn.json. */
export function runs() {
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/learn.json`, root)))
    .map((d) => ({ folder: d.name, state: JSON.parse(readFileSync(new URL(`${d.name}/learn.json`, root), 'utf8')) }));
}

/** A generation's manifest, where learn.json says it is (relative to the run's folder). */
function manifestOf(folder, g) {
  if (!g.model) return null;
  const file = new URL(`${folder}/${g.model.manifest}`, root);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

/** A line chart of the generations' ladder ratings with their intervals, as SVG. */
export function ratingChart(gens) {
  const rated = gens.filter((g) => g.rating);
  const w = 480;
  const h = 240;
  const pad = 40;
  if (rated.length === 0) return null;
  const lo = Math.min(0, ...rated.map((g) => g.rating.low));
  const hi = Math.max(0, ...rated.map((g) => g.rating.high));
  const x = (i) => pad + (rated.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (rated.length - 1));
  const y = (v) => h - pad - ((v - lo) / (hi - lo || 1)) * (h - 2 * pad);
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11">`];
  parts.push(`<line x1="${pad}" y1="${y(0)}" x2="${w - pad}" y2="${y(0)}" stroke="#999" stroke-dasharray="4 3"/><text x="${w - pad}" y="${y(0) - 4}" text-anchor="end" fill="#666">anchor (0 Elo)</text>`);
  rated.forEach((g, i) => parts.push(`<line x1="${x(i)}" y1="${y(g.rating.low)}" x2="${x(i)}" y2="${y(g.rating.high)}" stroke="#4a78c2"/><text x="${x(i)}" y="${h - pad + 16}" text-anchor="middle">gen ${g.gen}</text>`));
  parts.push(`<polyline fill="none" stroke="#1d4f9a" stroke-width="2" points="${rated.map((g, i) => `${x(i)},${y(g.rating.elo)}`).join(' ')}"/>`);
  rated.forEach((g, i) => parts.push(`<circle cx="${x(i)}" cy="${y(g.rating.elo)}" r="3" fill="#1d4f9a"/><text x="${x(i) + 5}" y="${y(g.rating.elo) - 5}">${g.rating.elo.toFixed(0)}</text>`));
  parts.push(`<text x="${pad}" y="14">ladder rating (Elo, 95 % interval) by generation</text></svg>`);
  return parts.join('\n') + '\n';
}

/**
 * Issue 45's and issue 64's targets, each read from the target evaluations whose sweep name ends in
 * its suffix, or (issue 64's, named by their evidence folder) begins with its prefix (every such
 * evaluation is a try at it): the figure is the first seat's agent's — scores more VP
 * than the second seat's agent, or wins. A target is met only where a try's lower bound clears the
 * threshold, each try held to a one-sided test at 5 % over the number of tries (judgeTarget,
 * lab/stats/target-claims.ts); the rate is a mean over deals where the games were kept by deal.
 */
const TARGETS = [
  { suffix: 'time-matched-vs-mcts-strong-100', what: 'at equal time per move, scores more VP than `mcts-strong(it=100)`', threshold: 0.6, figure: 'more' },
  { suffix: 'time-matched-vs-mcts-strong-500', what: 'at equal time per move, scores more VP than `mcts-strong(it=500)`', threshold: 0.55, figure: 'more' },
  { suffix: 'policy-alone-vs-2-rulebased', what: 'the network alone wins against two `rulebased`', threshold: 0.5, figure: 'wins' },
  { prefix: 'evidence/policy-alone/', what: 'the network alone (`policy`) scores more VP than `mcts-strong(it=100)`', threshold: 0.5, figure: 'more' },
  { prefix: 'evidence/equal-time-500/', what: 'at the same `time=` budget per decision as `mcts-strong(it=500)` takes, scores more VP than it (issue 64: rate ≥ 65 %)', threshold: 0.6, figure: 'more' },
];

/** The evaluations that are tries at `target`. */
const triesAt = (sweeps, target) => sweeps.filter((x) => (target.prefix ? x.name.startsWith(target.prefix) : x.name.endsWith(target.suffix)));

/** A stored evaluation as a try at a target: per-deal scores where kept, else its games as independent. */
function asTry(t, figure) {
  const [a] = t.agents;
  const perDeal = t.dealScores?.[figure];
  if (perDeal?.length) return { name: t.name, dealScores: perDeal, games: t.dealScores.games };
  const successes = figure === 'more' ? t.headToHead.rows[0][1].score * t.headToHead.rows[0][1].games : a.wins;
  const games = figure === 'more' ? t.headToHead.rows[0][1].games : a.seatGames;
  return { name: t.name, successes, games };
}

function targetSummary(sweeps) {
  const lines = [
    '### Targets',
    '',
    `A target is **met** only where a try's lower bound clears its threshold, every try counted: with k tries at a target, each is held to a one-sided test at ${pct(TARGET_ALPHA)} / k (Bonferroni). The rate is the mean over deals of the first agent's score with an interval from the spread between deals where the games were kept by deal (“by deal”), else a proportion over games taken as independent (Wilson; the tries stored before issue 59). Time per move is the first agent's wall time per decision over its opponent's, as the lab measured both in the same games; the tries named \`equal-time-budget\` gave both agents the same \`time=\` budget per decision (learning/strong/equal-time/plan.json).`,
    '',
    '| target | threshold | try | evaluation | games | rate (95 % interval) | lower bound (one-sided, Bonferroni) | time per move, ratio | processor | settings chosen on | met |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const target of TARGETS) {
    const tries = triesAt(sweeps, target);
    if (!tries.length) continue;
    const judged = judgeTarget(tries.map((t) => asTry(t, target.figure)), target.threshold);
    tries.forEach((t, k) => {
      const [a, b] = t.agents;
      const j = judged.tries[k];
      const ratio = target.figure === 'more' ? (a.decisionMs / b.decisionMs).toFixed(2) : '–';
      const how = j.deals ? `by deal, ${j.deals} deals` : 'games as independent';
      const cpus = [...new Set((t.workers ?? []).map((w) => w.cpu).filter(Boolean))].join(', ') || 'not recorded';
      lines.push(`| ${k === 0 ? target.what : ''} | ${k === 0 ? pct(target.threshold) : ''} | ${k + 1} of ${tries.length} | \`${a.agent}\` (${t.name}) | ${t.games} | ${pct(j.rate)} (${pct(j.low)}–${pct(j.high)}, ${how}) | ${pct(j.bonferroniLow)} | ${ratio} | ${cpus} | ${t.screens ?? 'not recorded'} | ${j.met ? 'yes' : 'no'} |`);
    });
  }
  return [...lines, '', ...targetVerdicts(sweeps).map((v) => v.line)];
}

/** Each target tried in `sweeps`, judged by the rule, as the line LEARNING.md prints (npm run audit recomputes them). */
export function targetVerdicts(sweeps) {
  const out = [];
  for (const target of TARGETS) {
    const tries = triesAt(sweeps, target);
    if (!tries.length) continue;
    const judged = judgeTarget(tries.map((t) => asTry(t, target.figure)), target.threshold);
    out.push({ met: judged.met, line: `- ${target.what}, ≥ ${pct(target.threshold)}: **${judged.met ? 'met' : 'not met'}** (${tries.length} tr${tries.length === 1 ? 'y' : 'ies'}, each at ${pct(judged.alphaPerTry)} one-sided).` });
  }
  return out;
}

/** The run's target evaluations (targets.json, from targets.mjs): fixed sizes, no stopping rule. */
function targetLines(folder) {
  const file = new URL(`${folder}/targets.json`, root);
  if (!existsSync(file)) return ['Target evaluations: **pending** (`node learning/targets.mjs`).'];
  const { sweeps } = JSON.parse(readFileSync(file, 'utf8'));
  const lines = [...targetSummary(sweeps), '', '### Target evaluations', ''];
  lines.push(
    'Fixed sizes, no stopping rule, seeds disjoint from the run\'s (self-play and evaluations). “Scores more VP” is the first seat\'s agent against the second\'s at the same table (ties half) with its Wilson 95 % interval; a win is strictly the most VP at the table.',
    '',
    '| evaluation | games | agent | ms per decision | wins (95 % interval) | mean VP | first against second: scores more VP | code |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const t of sweeps) {
    const h = t.headToHead;
    const first = h ? h.rows[0][1] : null;
    t.agents.forEach((a, k) => {
      lines.push(
        `| ${k === 0 ? `${t.name} (${t.seating}, first seed ${t.firstSeed})` : ''} | ${k === 0 ? t.games : ''} | \`${a.agent}\` | ${a.decisionMs.toFixed(2)} | ${pct(a.winRate)} (${pct(a.wilson.low)}–${pct(a.wilson.high)}) | ${a.vpMean.toFixed(1)} | ${k === 0 && first ? `${pct(first.score)} (${pct(first.interval.low)}–${pct(first.interval.high)}) against \`${h.configs[1]}\`` : ''} | ${k === 0 ? short(t.code) : ''} |`,
      );
    });
  }
  return lines;
}

const gamesOf = (g) => g.selfPlay?.games ?? 0;

/** A run's self-play games and their game CPU seconds, its generations' records summed. */
const selfPlayTotals = (generations) => ({ games: generations.reduce((a, g) => a + gamesOf(g), 0), cpu: generations.reduce((a, g) => a + (g.selfPlay?.cpuSeconds ?? 0), 0) });

/**
 * The self-play games behind run `folder`'s networks up to generation `upTo`: its own
 * generations' and, where generation 0 was guided by another run's network (startModel
 * RUN/gen-K.onnx), those behind that network, and so on. Returns the games and the chain's steps.
 */
export function lineage(all, folder, upTo = Infinity, seen = new Set()) {
  const run = all.find((r) => r.folder === folder);
  // A start model outside the kept runs, or one leading back into the chain, ends it.
  if (!run || seen.has(folder)) return { games: 0, steps: [] };
  seen.add(folder);
  const played = run.state.generations.filter((g) => g.gen <= upTo && gamesOf(g) > 0);
  const own = played.reduce((a, g) => a + gamesOf(g), 0);
  const m = /^([^/]+)\/gen-(\d+)\.onnx$/.exec(run.state.config.startModel ?? '');
  const before = m ? lineage(all, m[1], Number(m[2]), seen) : { games: 0, steps: [] };
  return { games: own + before.games, steps: [...before.steps, { folder, games: own, last: played.at(-1)?.gen ?? 0 }] };
}

/** How many self-play games the runs kept, and how many lie behind each run's newest network. */
function selfPlaySummary(all) {
  const { games, cpu } = selfPlayTotals(all.flatMap((r) => r.state.generations));
  const lines = [`Self-play kept in all runs: ${games} games, ${hours(cpu)} of game CPU time. Behind each run's newest network, its own self-play and that of the runs its generation 0 was guided by:`, ''];
  for (const { folder } of all) {
    const l = lineage(all, folder);
    const chain = l.steps.map((x) => `\`${x.folder}\` ${x.last > 1 ? `gens 1–${x.last}` : `gen ${x.last}`}: ${x.games}`).join(' → ');
    lines.push(`- run \`${folder}\`: ${l.games} games (${chain})`);
  }
  return lines;
}

export function report() {
  const lines = ['# Learning: networks from the lab’s own games', ''];
  lines.push(
    'Generations of expert iteration on the lab (`wonderlab learn`, [docs/learning.md](docs/learning.md)): the current player plays itself with whole visit distributions kept, a policy-and-value network is trained on those games, and the search guided by it is played against the previous generation and a fixed reference, head to head with seats swapped and an SPRT stop. Every figure below is read from `learning/<run>/` (`node learning/report.mjs > LEARNING.md`).',
    '',
  );
  const all = runs();
  if (all.length === 0) return [...lines, '**Pending**: no run kept yet.', ''].join('\n');
  lines.push(...selfPlaySummary(all), '');
  for (const { folder, state } of all) {
    const c = state.config;
    lines.push(`## Run \`${state.name}\``, '');
    const start = c.startModel ? ` (generation 0 guided by \`${c.startModel}\`)` : '';
    const explore = c.explore ? ` (self-play adds \`${c.explore}\`)` : '';
    const train = c.train ? `, trainer options \`${c.train}\`` : '';
    const tables = c.players ? `${c.players}-player tables; base` : 'Base';
    lines.push(`${tables} agent \`${c.base}\`${start}, guided by its network with \`${c.guide}\`; ${c.selfPlay} self-play games per generation${explore}; evaluations of at most ${c.evalGames} games (seats swapped, ${c.players ? 'every other seat' : 'third seat'} \`${c.third}\`, SPRT elo0 = ${c.elo0}, elo1 = ${c.elo1}) against the previous generation and \`${c.reference}\`; networks trained on the last ${c.window} generations' rows, ${c.epochs} epochs, hidden ${c.hidden}${train}; seeds from ${c.firstSeed}.`, '');
    lines.push('| gen | player | self-play games | self-play CPU | rows (validation games) | validation loss (policy / value) | training | code |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const g of state.generations) {
      const m = manifestOf(folder, g);
      const codes = m ? [...new Set(m.data.sweeps.map((s) => short(s.code)))].join(', ') : '–';
      lines.push(
        `| ${g.gen} | \`${g.player}\` | ${g.selfPlay?.games ?? '–'} | ${hours(g.selfPlay?.cpuSeconds)} | ${m ? `${m.data.rows} (${m.data.validation_games})` : '–'} | ${m ? `${m.losses.validation_policy.toFixed(3)} / ${m.losses.validation_value.toFixed(4)}` : '–'} | ${m ? `${m.training_seconds} s` : '–'} | ${codes} |`,
      );
    }
    const { games, cpu } = selfPlayTotals(state.generations);
    lines.push('', `In all: ${games} self-play games, ${hours(cpu)} of game CPU time.`, '');
    // A generation's self-play played again for its rows on a later lab (learn.ts, `replay`).
    for (const g of state.generations.filter((x) => x.replay)) {
      lines.push(`Generation ${g.gen}'s self-play was played again for its rows on a lab that no longer had it: sweep ${g.replay.sweep}, ${g.replay.games ?? '…'} games, ${hours(g.replay.cpuSeconds)} of game CPU, code ${short(g.replay.code)} (not counted above).`, '');
    }
    lines.push(
      'Each evaluation: the generation\'s player against the opponent at the same table, seats swapped, until the SPRT decided (H1: stronger by elo1; H0: not stronger by elo0) or the cap. The ladder column is the lab\'s Plackett–Luce ladder over every sweep, anchored at `rulebased` = 0, as recorded when the generation was done.',
      '',
      '| gen | against | games | scores more VP (95 % interval) | SPRT | ladder (Elo, 95 %) |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const g of state.generations) {
      const rating = g.rating ? `${g.rating.elo.toFixed(0)} [${g.rating.low.toFixed(0)}, ${g.rating.high.toFixed(0)}] (${g.rating.games} games${g.rating.ratedAt ? `; ladder of ${g.rating.ladderGames} games, ${g.rating.ratedAt.slice(0, 16).replace('T', ' ')} UTC` : ''})` : '–';
      for (const [k, e] of g.evaluations.entries()) {
        lines.push(`| ${g.gen} | \`${e.opponent}\` | ${e.games ?? '…'} | ${e.score !== undefined ? `${pct(e.score)} (${pct(e.low)}–${pct(e.high)})` : '…'} | ${e.decision ?? '…'} | ${k === 0 ? rating : ''} |`);
      }
    }
    if (ratingChart(state.generations)) lines.push('', `![ratings over generations](learning/${folder}/ratings.svg)`);
    lines.push('', ...targetLines(folder));
    lines.push('');
  }
  return lines.join('\n');
}

/** Writes each run's ratings chart (learning/<run>/ratings.svg). */
export function writeCharts() {
  for (const { folder, state } of runs()) {
    const svg = ratingChart(state.generations);
    if (svg) writeFileSync(new URL(`${folder}/ratings.svg`, root), svg);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeCharts();
  process.stdout.write(report());
}
