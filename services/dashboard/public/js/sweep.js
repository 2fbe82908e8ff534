// One sweep, live: status and progress, a chart per swept parameter, the matchup matrix, VP box
// plots, score breakdown, per-wonder results, cards in winning builds, progression, every number,
// and the games. Updated from the coordinator's Server-Sent Events.
import { agentName as shownAgent, bindToken, duration, el, fillTable, getJSON, num, pct, postJSON } from './api.js';
import { breakdownChart, cardsChart, cellName, chartCsv, errorBarsPlugin, inSweepOrder, noGamesPlugin, parameterChart, parameterVpChart, progressionChart, raceChart, ratingsLadder, searchChart, rowsHeight, scopedLabels, stoppingChart, sweepColours, vpBoxplot, wonderStagesChart, wonderWinChart } from './charts.js';

const Chart = window.Chart;
Chart.register(errorBarsPlugin, noGamesPlugin);
if (window.ChartBoxPlot) Chart.register(window.ChartBoxPlot.BoxPlotController, window.ChartBoxPlot.BoxAndWiskers);

const id = decodeURIComponent(location.pathname.split('/')[2]);
const $ = (sel) => document.querySelector(sel);
const token = bindToken($('#token'));
const scopeSelect = $('#scope');
let detail;

$('#export-csv').href = `/api/sweeps/${id}/export?format=csv`;
$('#export-jsonl').href = `/api/sweeps/${id}/export?format=jsonl`;
$('#summary-csv').href = `/api/sweeps/${id}/summary?format=csv`;
$('#paper-csv').href = `/api/sweeps/${id}/paper?format=csv`;
$('#summary-json').href = `/api/sweeps/${id}/summary?format=json`;
$('#compare-link').href = `/compare?ids=${encodeURIComponent(id)}`;

/** Save links under a chart: the picture as PNG, its data (with intervals) as CSV. */
function addExports(canvas) {
  const box = canvas.closest('.chart-box');
  const png = el('a', { href: '#', class: 'button secondary small', download: `${id}-${canvas.id}.png`, 'data-export': 'png' }, 'PNG');
  const csv = el('a', { href: '#', class: 'button secondary small', download: `${id}-${canvas.id}.csv`, 'data-export': 'csv' }, 'CSV');
  // The files are made when asked for, from the chart as it is then.
  png.addEventListener('click', () => (png.href = Chart.getChart(canvas).toBase64Image('image/png', 1)));
  csv.addEventListener('click', () => (csv.href = `data:text/csv;charset=utf-8,${encodeURIComponent(chartCsv(Chart.getChart(canvas)))}`));
  box.after(el('div', { class: 'chart-exports', 'aria-label': `Save ${canvas.getAttribute('aria-label') ?? 'the chart'}` }, png, csv));
}

/** A chart with a row per category grows its box to give every row its line (the box's height is the least). */
function fitRows(canvas, config) {
  const height = rowsHeight(config);
  if (height !== null) canvas.closest('.chart-box').style.minHeight = `${height}px`;
}

/**
 * Creates the chart on first use, then swaps its data and options in place (no re-creation, no
 * animation): the options follow the data (a mean-VP axis's range holds the newest intervals).
 */
function draw(canvasId, config) {
  const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById(canvasId));
  fitRows(canvas, config);
  const existing = Chart.getChart(canvas);
  if (!existing) {
    const chart = new Chart(canvas, config);
    addExports(canvas);
    return chart;
  }
  existing.data.labels = config.data.labels;
  existing.data.datasets = config.data.datasets;
  existing.options = config.options;
  existing.update('none');
  return existing;
}

/** An agent spec's one display name (its canonical form, as on the ladder), from the sweep's `names`. */
const nameOf = (label) => detail?.names?.[label] ?? label;

/** An agent spec of the sweep by its display name, the spec as submitted beside it where that differs. */
const agentName = (label) => shownAgent(nameOf(label), label);

/** A matrix heading's hover text: the spec as submitted, where the heading shows another form. */
const submittedTitle = (label) => (nameOf(label) === label ? undefined : `as submitted: ${label}`);

/** Each agent's win rate with its interval, games and mean VP: the answer, before anything else. */
function renderHeadline(d, colour) {
  const rows = inSweepOrder(d, d.pooled ?? []).map((l) => {
    const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
    swatch.style.background = colour(l.config ?? l.label);
    return [
      el('td', {}, swatch, agentName(l.label)),
      `${pct(l.winRate)} %`,
      l.games ? `${pct(l.wilson.low)}–${pct(l.wilson.high)} %` : '–',
      l.games,
      l.games ? `${num(l.vp.mean)} ± ${num(l.vpMeanHalfWidth)}` : '–',
    ];
  });
  fillTable($('#headline-agents'), ['agent (all cells)', { text: 'win %', num: true }, { text: 'Wilson 95 %', num: true }, { text: 'seat-games', num: true }, { text: 'mean VP ± 95 %', num: true }], rows);
  renderPaper(d.paper);
}

/** A row's verdict with ours − paper; a row that differs says which way, and carries REPRODUCTION.md's reason for it on hover. */
function verdictCell(r, rule) {
  if (!r.difference) return el('td', { class: 'muted' }, r.verdict === 'too few games' ? `too few games: ${r.ours.games} of the ${rule.minGames} a verdict needs` : r.verdict);
  const d = r.difference;
  const interval = `${signed(100 * d.estimate)} (${signed(100 * d.low)} to ${signed(100 * d.high)}) points, p ${d.pHolm < 0.001 ? '< 0.001' : `= ${d.pHolm.toFixed(Math.abs(d.pHolm - rule.alpha) < 0.0005 ? 5 : 3)}`} (Holm)`;
  // The reason's markdown emphasis (*tested*, *not tested*) read as plain words in a tooltip.
  const title = r.verdict === 'differs' && r.reason ? `The reason REPRODUCTION.md gives for this row: ${r.reason.replaceAll('*', '')}` : '';
  return el('td', { class: `verdict-${r.verdict}`, title }, `${r.verdict}${r.direction ? `, ${r.direction}` : ''}: ${interval}`);
}

const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(1)}`;

/** The published table beside ours, each row with REPRODUCTION.md's verdict (shared/src/lab/paper-comparison.ts). */
function renderPaper(paper) {
  $('#paper-box').hidden = !paper;
  if (!paper) return;
  const played = paper.agrees + paper.inconclusive + paper.differs;
  const tooFew = paper.tooFew ? `; ${paper.tooFew} with fewer than ${paper.rule.minGames} games, too few for a verdict` : '';
  $('#paper-verdict').textContent = `${paper.title}: of ${played} row${played === 1 ? '' : 's'} with a verdict, ${paper.agrees} agree with the paper (within ± ${pct(paper.rule.margin)} points), ${paper.inconclusive} inconclusive, ${paper.differs} differ${tooFew}${paper.notRun ? `; ${paper.notRun} not in these games` : ''}.`;
  const rows = paper.rows.map((r) => [
    r.label,
    `${pct(r.paper.winRate)} ± ${pct(r.paper.halfWidth)}`,
    r.ours ? `${pct(r.ours.winRate)} (${pct(r.ours.wilson.low)}–${pct(r.ours.wilson.high)})` : '–',
    r.ours ? r.ours.games : 0,
    r.paper.vp === null ? '–' : num(r.paper.vp),
    r.ours?.vp === null || !r.ours ? '–' : num(r.ours.vp),
    verdictCell(r, paper.rule),
  ]);
  fillTable($('#paper-rows'), ['row', { text: 'paper win %', num: true }, { text: 'ours (Wilson 95 %)', num: true }, { text: 'games', num: true }, { text: 'paper VP', num: true }, { text: 'ours VP', num: true }, 'verdict'], rows);
}

function renderHeader(d) {
  document.title = `${d.name} · Wonderlab`;
  $('#title').textContent = d.name;
  const status = $('#status');
  status.textContent = d.status;
  status.className = `status status-${d.status}`;
  const c = d.counts;
  $('#counts').textContent = `${c.done} of ${c.total} games done${c.failed ? `, ${c.failed} failed` : ''} · ${c.queued} in the queue · ${c.pending} waiting · ${d.cellCount} cell${d.cellCount === 1 ? '' : 's'} of ${d.gamesPerCell} games${d.cells.length < d.cellCount ? ` (the first ${d.cells.length} shown)` : ''}`;
  const progress = $('#progress');
  progress.value = d.progress;
  progress.setAttribute('aria-valuetext', `${pct(d.progress)} % done`);
  // The rate is measured on running time only (the server's active clock): a pause does not slow it.
  const rate = d.gamesPerSecond ? d.gamesPerSecond.toFixed(2) : '–';
  const running = d.activeSeconds === undefined ? '' : ` · ${duration(d.activeSeconds)} running`;
  $('#rate').textContent =
    d.status === 'running'
      ? `${rate} games/s (last 5 min of running time) · ETA ${duration(d.etaSeconds)}${running}`
      : d.status === 'paused'
        ? `paused · ${rate} games/s while running · no ETA while paused${running}`
        : `${rate} games/s over its running time${running}`;
  renderCellProgress(d);
  renderProvenance(d);
  $('#pause').disabled = d.status !== 'running';
  $('#resume').disabled = d.status !== 'paused';
  $('#cancel').disabled = d.status === 'done' || d.status === 'cancelled';
  $('#retry-failed').disabled = !c.failed;
  // Redis full (or its data lost): the lab says why the sweep does not advance.
  $('#degraded').hidden = !d.degraded;
  $('#degraded').textContent = d.degraded ? `Degraded: ${d.degraded}` : '';
  $('#suspended').hidden = !d.suspended;
  $('#suspended').textContent = d.suspended ? `Suspended by the lab: ${d.suspended}. Resume to try again.` : '';
  // The statistics are computed apart from the counts: say when they are of fewer games.
  const asOf = d.statisticsAsOf;
  $('#stats-note').textContent = asOf && !asOf.current ? `Charts and tables as of ${asOf.version} games finished (newer ones are being computed).` : '';
}

const when = (iso) => (iso ? new Date(iso).toLocaleString() : '–');

function renderProvenance(d) {
  const p = d.provenance;
  if (!p) return;
  const code = p.code ? `${p.code.package} ${p.code.version}${p.code.commit ? `, commit ${p.code.commit.slice(0, 12)}${p.code.dirty ? ' (with uncommitted changes)' : ''}` : ', commit unknown'}, Node ${p.code.node}` : 'not recorded (a sweep stored before this was kept)';
  const rows = [
    ['code that created it', code],
    ['created', when(p.created)],
    ['started (first games queued)', when(p.startedAt)],
    ['finished', when(p.finishedAt)],
    ['wall time', duration(p.wallSeconds)],
    ['running time (pauses not counted)', duration(p.activeSeconds)],
    ['CPU time of its games', p.cpuSeconds === null ? '–' : `${num(p.cpuSeconds, 1)} s`],
    ...p.workers.map((w, i) => [i === 0 ? 'workers (games stored)' : '', `${w.host} pid ${w.pid}, ${w.version}${w.commit ? ` ${w.commit.slice(0, 12)}${w.dirty ? '+' : ''}` : ''}: ${w.games} games`]),
  ];
  fillTable($('#provenance'), ['', ''], rows);
}

function renderCellProgress(d) {
  const names = new Map(d.cells.map((c) => [c.index, cellName(c)]));
  const rows = (d.cellProgress ?? []).map((c) => {
    const bar = el('progress', { max: 1, value: c.total ? c.done / c.total : 0, 'aria-label': `cell ${c.index}: ${pct(c.total ? c.done / c.total : NaN)} % done` });
    return [`${c.index}: ${names.get(c.index) ?? ''}`, el('td', {}, bar), `${c.done} / ${c.total}`, pct(c.total ? c.done / c.total : NaN), c.failed, c.queued];
  });
  fillTable($('#cell-progress'), ['cell', 'progress', { text: 'done / total', num: true }, { text: '% done', num: true }, { text: 'failed', num: true }, { text: 'in the queue', num: true }], rows);
}

function renderScopes(d) {
  if (scopeSelect.options.length === d.cells.length + 1) return;
  for (const cell of d.cells) scopeSelect.append(el('option', { value: cell.index }, `Cell ${cell.index}: ${cellName(cell)}`));
  if (d.cells.length === 1) scopeSelect.value = '0';
}

function renderParameters(d) {
  const section = $('#params');
  for (const series of d.parameters ?? []) {
    const slug = series.key.replace(/[^A-Za-z0-9]+/g, '-');
    const winId = `param-${slug}`;
    const vpId = `param-vp-${slug}`;
    if (!document.getElementById(winId)) {
      const who = `seat ${series.seat}'s agent`;
      const grid = series.lines ? `, one line per ${series.lines[0].label.replace(/ = .*$/, '')}` : '';
      section.append(
        el('div', { class: 'card' }, el('h2', {}, `Win rate by ${series.name} (${who})`), el('p', { class: 'muted' }, `${series.key}: ${series.meaning}`), el('div', { class: 'chart-box' }, el('canvas', { id: winId, role: 'img', 'aria-label': `Win rate with Wilson 95 % intervals for each value of ${series.name}${grid}` }))),
        el('div', { class: 'card' }, el('h2', {}, `Mean VP by ${series.name} (${who})`), el('p', { class: 'muted' }, `${series.key}: ${series.meaning}`), el('div', { class: 'chart-box' }, el('canvas', { id: vpId, role: 'img', 'aria-label': `Mean VP with 95 % intervals for each value of ${series.name}${grid}` }))),
      );
    }
    draw(winId, parameterChart(series, d.paper));
    draw(vpId, parameterVpChart(series, d.paper));
  }
}

/** Sequential (a win rate, 0 to 1): white to dark blue. Returns the fill and a text colour that reads on it. */
function heatColour(p) {
  if (!Number.isFinite(p)) return { fill: '#eeeeee', text: '#1a1a1a' };
  const light = Math.round(97 - 62 * p);
  return { fill: `hsl(207, 70%, ${light}%)`, text: light < 58 ? '#fff' : '#1a1a1a' };
}

/** Diverging around 50 % (a head-to-head score): vermillion below, white at even, blue above (Okabe–Ito hues). */
function divergingColour(p) {
  if (!Number.isFinite(p)) return { fill: '#eeeeee', text: '#1a1a1a' };
  const d = Math.min(1, Math.abs(p - 0.5) * 2);
  const light = Math.round(97 - 57 * d);
  return { fill: p >= 0.5 ? `hsl(207, 70%, ${light}%)` : `hsl(24, 85%, ${light}%)`, text: light < 58 ? '#fff' : '#1a1a1a' };
}

/** A colour key: swatches from 0 to 100 %, the ends and the middle labelled. */
function colourKey(box, colour, caption) {
  box.setAttribute('aria-label', caption);
  box.replaceChildren(
    ...Array.from({ length: 11 }, (_, i) => {
      const c = colour(i / 10);
      const span = el('span', {}, i % 5 === 0 ? `${i * 10} %` : '');
      span.style.background = c.fill;
      span.style.color = c.text;
      return span;
    }),
  );
}

function heatCell(value, colour, attrs, text) {
  const td = el('td', { class: 'heat-cell', ...attrs }, text);
  const c = colour(value);
  td.style.background = c.fill;
  td.style.color = c.text;
  return td;
}

/** A tune's confirmation as a line: its sweep, state and the recommendation's score, or why there is none yet. */
function confirmationLine(tune, pending) {
  const c = tune.confirmation;
  return c
    ? el('span', {}, 'Confirmation on held-out deals: ', el('a', { href: `/sweeps/${c.sweep}` }, c.sweep), ` (${c.status}, ${c.games} games): SPRT ${c.decision ?? 'undecided'}${c.score ? `; the recommendation's score against the reference ${pct(c.score.mean)} % ± ${pct(c.score.halfWidth)}` : ''}.`)
    : (tune.note ?? pending);
}

/** An SPSA or NTBEA tune: its steps, the search (SPSA's trajectory, NTBEA's estimates), the recommendation and its confirmation. */
function renderSearch(d) {
  const tune = d.tune;
  const searching = tune?.method === 'spsa' || tune?.method === 'ntbea';
  $('#search').hidden = !searching;
  document.querySelector('main')?.classList.toggle('stepped-tune', searching);
  if (!searching) return;
  /** @type {HTMLAnchorElement} */ ($('#search-first-step')).href = `/sweeps/${d.id}s0`;
  const rule = d.spec.tune;
  const spsa = tune.method === 'spsa';
  $('#search-title').textContent = spsa ? 'Tune: SPSA over the options' : 'Tune: NTBEA over the options';
  const partner = rule.against ?? (rule.seat + 1) % d.spec.players;
  const what = spsa ? `θ + c_k·δ in seat ${rule.seat} against θ − c_k·δ in seat ${partner}, a deal a step, seats swapped` : `each point in seat ${rule.seat} against seat ${partner}'s agent on ${rule.dealsPerStep} deals a step, seats swapped`;
  $('#search-summary').textContent = `${tune.options.join(', ')} searched: ${what}; ${tune.applied} of ${tune.steps} steps applied, ${tune.inFlight.length} playing.`;
  $('#search-spec').textContent = tune.recommendation;
  $('#search-recommendation').firstChild.textContent = tune.final ? 'Recommendation, to paste into a sweep: ' : 'Where the search stands (not final): ';
  $('#search-confirmation').replaceChildren(confirmationLine(tune, tune.final ? 'The confirmation is being made.' : 'The confirmation follows the last step.'));
  if (spsa) {
    const last = tune.trajectory[tune.trajectory.length - 1];
    const rows = tune.space.map((s, i) => [s.key, s.scale, `${num(s.min, 3)} to ${num(s.max, 3)}`, last ? num(last.values[i], 3) : '–']);
    fillTable($('#search-table'), ['option', 'scale', 'range', { text: 'θ now', num: true }], rows);
    $('#search-note').textContent = "SPSA (fishtest's): each step perturbs every option at once by ±c_k and moves θ by θ+'s wins minus losses against θ−; c_k and the step size shrink to c_end and r_end at the last step (docs/tuning.md).";
  } else {
    const rows = tune.estimates.flatMap((e) => e.values.map((v) => [`${e.key} = ${v.value}`, v.n, v.mean === null ? '–' : `${pct(v.mean)} %`, v.halfWidth === null ? '–' : `± ${pct(v.halfWidth)}`]));
    fillTable($('#search-table'), ['option value', { text: 'evaluations', num: true }, { text: 'mean score', num: true }, { text: '95 %', num: true }], rows);
    $('#search-note').textContent = "NTBEA (TAG's): each step evaluates the current point, then moves to the neighbour of highest UCB under the model of every option and every pair; the recommendation is the evaluated point of best estimate (docs/tuning.md).";
  }
  draw('chart-search', searchChart(tune));
}

/** A racing tune: its arms, the race over the looks, the recommendation and its confirmation. */
function renderTune(d) {
  const tune = d.tune?.method === 'racing' ? d.tune : undefined;
  $('#tune').hidden = !tune;
  renderSearch(d);
  if (!tune) return;
  const race = tune.race;
  const rule = d.spec.tune;
  const objective = rule.against !== undefined ? `scores more VP than seat ${rule.against}'s agent` : 'wins at its table';
  const state = !race ? 'no look yet' : race.decided ? `decided at look ${race.looks} (${{ elimination: 'every other arm left', epsilon: `the leader is within ε = ${rule.epsilon} of the best`, budget: 'the deals ran out first: undecided, the leader returned' }[race.decided.by]})` : `${race.looks} look${race.looks === 1 ? '' : 's'}, radius ${num(race.radius, 3)}`;
  $('#tune-summary').textContent = `${d.cellCount} arms in seat ${rule.seat}, the objective: ${objective}; δ = ${rule.delta}, ε = ${rule.epsilon}, a look every ${rule.roundDeals} deals: ${state}.`;
  $('#tune-recommendation').hidden = !tune.recommendation;
  $('#tune-spec').textContent = tune.recommendation ?? '';
  $('#tune-confirmation').replaceChildren(confirmationLine(tune, race?.decided ? 'The confirmation is being made.' : 'The confirmation follows the race.'));
  const arms = (race?.arms ?? []).map((a) => [a.agent, a.deals, `${pct(a.mean)} %`, a.alive ? (race.decided?.cell === a.cell ? 'returned' : 'racing') : `left at look ${a.eliminatedAt}`]);
  fillTable($('#tune-arms'), ['arm', { text: 'deals at the last look', num: true }, { text: 'mean score', num: true }, 'state'], arms);
  draw('chart-race', raceChart(tune));
}

/** A stopping sweep: each cell's decision, the games it took against the fixed design's, and the test's trace. */
function renderStopping(d) {
  const rule = d.spec?.stop;
  $('#stopping').hidden = !rule;
  if (!rule) return;
  const DECISIONS = { H1: 'H1 accepted', H0: 'H0 accepted', interval: 'interval reached', max: 'every game played, undecided' };
  const rows = d.cells.map((c) => {
    const st = c.stopped;
    const saved = st?.decision && st.decision !== 'max' ? 1 - c.games / d.gamesPerCell : 0;
    return [`${c.index}: ${cellName(c)}`, st ? (st.decision ? DECISIONS[st.decision] : 'undecided') : 'no game yet', st?.games ?? 0, c.games, d.gamesPerCell, st ? num(st.value, 3) : '–', `${pct(saved)} %`];
  });
  fillTable($('#stopping-table'), ['cell', 'decision', { text: 'games to decide', num: true }, { text: 'games played', num: true }, { text: 'fixed design', num: true }, { text: rule.sprt ? 'LLR' : 'half-width', num: true }, { text: 'games saved', num: true }], rows);
  const played = d.cells.reduce((s, c) => s + c.games, 0);
  const fixed = d.gamesPerCell * d.cellCount;
  $('#stopping-note').textContent = rule.sprt
    ? `SPRT of seat ${rule.sprt.seats[0]}'s agent against seat ${rule.sprt.seats[1]}'s, head to head (more VP: 1, a tie: ½): H0 ${rule.sprt.elo0} Elo, H1 ${rule.sprt.elo1} Elo, α ${rule.sprt.alpha}, β ${rule.sprt.beta}. ${played} games played of the fixed design's ${fixed} (${pct(1 - played / fixed)} % saved).`
    : `Seat ${rule.seat}'s win rate until its Wilson 95 % interval is ±${pct(rule.ciHalfWidth)} points. ${played} games played of the fixed design's ${fixed} (${pct(1 - played / fixed)} % saved).`;
  draw('chart-stopping', stoppingChart(d));
}

/**
 * A configuration's name with places to break after '(' and ',': a heading as narrow as its
 * parts where the page is short of width, so that a matrix of many configurations fits it.
 */
const breakable = (name) => name.split(/(?<=[(,])/).flatMap((part, i) => (i ? [el('wbr'), part] : [part]));

/**
 * A square matrix of labels against labels: the corner heading, a column per label, a row per
 * label, each entry drawn by `cell(entry, rowLabel, colLabel)` or a muted dash where it is empty.
 */
function heatMatrix(table, corner, labels, rows, cell) {
  table.replaceChildren(
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, corner), ...labels.map((s) => el('th', { scope: 'col', title: submittedTitle(s) }, ...breakable(nameOf(s)))))),
    el(
      'tbody',
      {},
      ...rows.map((row, i) =>
        el('tr', {}, el('th', { scope: 'row', title: submittedTitle(labels[i]) }, ...breakable(nameOf(labels[i]))), ...row.map((x, j) => (x ? cell(x, labels[i], labels[j]) : el('td', { class: 'heat-cell muted' }, '—')))),
      ),
    ),
  );
}

function renderMatchup(d) {
  const matrix = d.matchup;
  $('#matchup').hidden = !matrix;
  if (!matrix) return;
  heatMatrix($('#matchup-matrix'), `seat ${matrix.seats[0]} \\ seat ${matrix.seats[1]}`, matrix.specs, matrix.rows, (r, row, col) =>
    heatCell(
      r.winRate,
      heatColour,
      { 'data-row': row, 'data-col': col, title: r.games ? `${nameOf(row)} against ${nameOf(col)}: ${pct(r.winRate)} % ± ${pct(r.halfWidth)} (Wilson ${pct(r.wilson.low)}–${pct(r.wilson.high)}), ${r.games} games` : 'no games yet' },
      r.games ? `${pct(r.winRate)} %` : '–',
    ),
  );
  colourKey($('#matchup-key'), heatColour, 'Colour key: the row agent\'s win rate, white at 0 %, dark blue at 100 %');
}

/** The configurations against each other: the ratings ladder and the head-to-head matrix. */
function renderVersus(d) {
  $('#versus').hidden = !d.ratings;
  if (!d.ratings) return;
  const r = d.ratings;
  draw('chart-ratings', ratingsLadder({ ...r, anchor: nameOf(r.anchor), ratings: r.ratings.map((x) => ({ ...x, config: nameOf(x.config) })) }));
  fillTable(
    $('#ratings-table'),
    ['configuration', { text: 'Elo', num: true }, { text: '95 % interval', num: true }, { text: 'games', num: true }, { text: 'pairs compared', num: true }],
    r.ratings.map((x) => [agentName(x.config), Number.isFinite(x.elo) ? x.elo.toFixed(0) : '–', Number.isFinite(x.low) ? `[${x.low.toFixed(0)}, ${x.high.toFixed(0)}]` : '–', x.games, x.comparisons]),
  );
  $('#ratings-note').textContent = `0 Elo: ${nameOf(r.anchor)}. ${r.games} games. ${r.components > 1 ? `${r.components} groups of configurations never met: ratings compare only within a group. ` : ''}${r.method}.`;
  const m = d.headToHead;
  $('#h2h-note').textContent = d.headToHeadNote ?? '';
  $('#h2h-matrix').hidden = !m;
  if (!m) {
    $('#h2h-matrix').replaceChildren();
    $('#h2h-key').replaceChildren();
    return;
  }
  heatMatrix($('#h2h-matrix'), 'row \\ column', m.configs, m.rows, (c, row, col) => {
    const title = c.games
      ? `${nameOf(row)} scored more VP than ${nameOf(col)} in ${pct(c.score)} % of ${c.games} games (${c.more} more, ${c.ties} ties counted half), Wilson 95 % ${pct(c.interval.low)}–${pct(c.interval.high)}`
      : 'they never met';
    return heatCell(c.score, divergingColour, { 'data-row': row, 'data-col': col, title }, c.games ? `${pct(c.score)} %` : '–');
  });
  colourKey($('#h2h-key'), divergingColour, 'Colour key: vermillion below 50 % (the row is weaker), white at 50 %, blue above (the row is stronger)');
  // Beside the ratings while it fits half the page; across the whole width when it does not.
  const card = $('#h2h-card');
  card.classList.remove('wide');
  const wrap = $('#h2h-matrix').parentElement;
  card.classList.toggle('wide', wrap.scrollWidth > wrap.clientWidth);
}

function renderNumbers(d) {
  const header = ['cell', 'agent', { text: 'games', num: true }, { text: 'wins', num: true }, { text: 'ties', num: true }, { text: 'coin wins', num: true }, { text: 'win % ± 95 %', num: true }, { text: 'Wilson 95 %', num: true }, { text: 'paired win % ± 95 %', num: true }, { text: 'mean VP (sd)', num: true }, { text: 'median [q1, q3]', num: true }, { text: 'stages', num: true }, { text: 'ms/decision', num: true }, { text: 'iter/s', num: true }];
  const rows = [];
  for (const cell of d.cells) {
    for (const l of cell.labels) {
      rows.push([
        `${cell.index}: ${cellName(cell)}`,
        el('td', {}, agentName(l.label)),
        l.games,
        l.wins,
        l.ties,
        l.coinWins,
        `${pct(l.winRate)} ± ${pct(l.halfWidth)}`,
        `[${pct(l.wilson.low)}, ${pct(l.wilson.high)}]`,
        l.paired ? `${pct(l.paired.mean)} ± ${pct(l.paired.halfWidth)} (${l.paired.groups} deals)` : '–',
        `${num(l.vp.mean)} (${num(l.vp.sd)})`,
        `${num(l.vp.median)} [${num(l.vp.q1)}, ${num(l.vp.q3)}]`,
        num(l.meanStages, 2),
        num(l.decisionMs, 2),
        l.iterationsPerSecond ? Math.round(l.iterationsPerSecond) : '–',
      ]);
    }
    // Where a spec sits in several seats, or a matchup follows seats, each seat's agent on its own.
    if (cell.roles && (cell.labels.length < cell.agents.length || d.spec?.matchup)) {
      for (const r of cell.roles) {
        rows.push([
          `${cell.index}: ${cellName(cell)}`,
          `${nameOf(r.agent)} (the spec's seat ${r.seat} alone)`,
          r.games,
          r.wins,
          '',
          '',
          `${pct(r.winRate)} ± ${pct(r.halfWidth)}`,
          `[${pct(r.wilson.low)}, ${pct(r.wilson.high)}]`,
          r.paired ? `${pct(r.paired.mean)} ± ${pct(r.paired.halfWidth)} (${r.paired.groups} deals)` : '–',
          num(r.meanVp),
          '',
          '',
          '',
          '',
        ]);
      }
    }
    if (cell.pairedDifference) {
      const p = cell.pairedDifference;
      rows.push([`${cell.index}: ${cellName(cell)}`, `${nameOf(p.labels[0])} (seat ${p.seats[0]}) − ${nameOf(p.labels[1])} (seat ${p.seats[1]}), paired`, '', '', '', '', `${pct(p.mean)} ± ${pct(p.halfWidth)}`, '', `${p.groups} deals`, '', '', '', '', '']);
    }
  }
  fillTable($('#numbers'), header, rows);
}

let gamesOffset = 0;
const GAMES_PAGE = 20;
async function renderGames() {
  const page = await getJSON(`/api/sweeps/${id}/games?offset=${gamesOffset}&limit=${GAMES_PAGE}`);
  const rows = page.items.map((g) => {
    const link = g.state === 'done' ? el('a', { href: `/sweeps/${id}/games/${g.id}` }, g.id) : g.id;
    const s = g.summary;
    const winners = s ? s.players.filter((p) => p.winner).map((p) => `${p.canonical ?? nameOf(p.agent)} (${p.city})`).join(', ') || 'tie' : '';
    const scores = s ? s.players.map((p) => p.score.total).join(' / ') : g.error ?? '';
    return [g.index, link, g.cell, g.state, winners, scores];
  });
  fillTable($('#games'), [{ text: '#', num: true }, 'game', { text: 'cell', num: true }, 'state', 'winner', 'VP by seat'], rows);
  $('#games-page').textContent = `games ${page.offset + 1}–${Math.min(page.total, page.offset + page.limit)} of ${page.total}`;
  $('#games-prev').disabled = gamesOffset === 0;
  $('#games-next').disabled = gamesOffset + GAMES_PAGE >= page.total;
}
$('#games-prev').addEventListener('click', () => {
  gamesOffset = Math.max(0, gamesOffset - GAMES_PAGE);
  void renderGames();
});
$('#games-next').addEventListener('click', () => {
  gamesOffset += GAMES_PAGE;
  void renderGames();
});

function renderCharts(d) {
  const scope = scopeSelect.value;
  const labels = inSweepOrder(d, scopedLabels(d, scope));
  // The colours of the whole sweep, whichever cell is shown: an agent keeps its colour.
  const colour = sweepColours(d);
  draw('chart-vp', vpBoxplot(d, scope, colour));
  draw('chart-breakdown', breakdownChart(labels));
  draw('chart-wonders', wonderWinChart(labels, colour));
  draw('chart-stages', wonderStagesChart(labels, colour));
  draw('chart-cards', cardsChart(labels, colour));
  draw('chart-progress', progressionChart(d, scope, colour));
}

let lastDone = -1;
function render(d) {
  detail = d;
  renderHeader(d);
  renderHeadline(d, sweepColours(d));
  renderScopes(d);
  renderParameters(d);
  renderStopping(d);
  renderTune(d);
  renderMatchup(d);
  renderVersus(d);
  renderCharts(d);
  renderNumbers(d);
  const done = d.counts.done + d.counts.failed;
  if (done !== lastDone) {
    lastDone = done;
    void renderGames();
  }
}

scopeSelect.addEventListener('change', () => detail && renderCharts(detail));

/**
 * Cancelling cannot be undone, so it asks first: a slip, or a click another page tricked out of
 * the user, must not end a sweep. Pause, resume and retry can each be reversed, so they do not ask.
 */
function confirmed(name) {
  if (name !== 'cancel') return true;
  return window.confirm(`Cancel the sweep '${detail?.name ?? id}'? Its queued games are dropped and it cannot be resumed: this cannot be undone.`);
}

async function act(name) {
  const message = $('#action-message');
  if (!confirmed(name)) {
    message.className = 'notice';
    message.textContent = `${name}: not done (you chose not to).`;
    return;
  }
  const { status, body } = await postJSON(`/api/sweeps/${id}/${name}`, undefined, token());
  if (status === 200) {
    message.className = 'notice';
    message.textContent = `${name}: the sweep is ${body.status}.`;
    render(await getJSON(`/api/sweeps/${id}`));
  } else {
    message.className = 'alert';
    message.textContent = status === 401 ? `${name}: this lab needs its API token (enter it above).` : `${name}: ${body.error ?? status}`;
  }
}
for (const name of ['pause', 'resume', 'cancel', 'retry-failed']) $(`#${name}`).addEventListener('click', () => void act(name));

// Live updates: each event is the sweep's overview (counts, status, rate) and its version; the
// detail is fetched again only when the version or the status moved, one fetch at a time, and no
// sooner than four times the last fetch took (a large sweep's detail is megabytes).
let shown = { version: -1, status: '' };
let fetching = false;
let wanted;
let lastFetchMs = 0;
let lastFetchAt = 0;
async function refresh(overview) {
  wanted = overview;
  if (fetching) return;
  fetching = true;
  try {
    while (wanted && (wanted.version !== shown.version || wanted.status !== shown.status)) {
      const target = wanted;
      const wait = lastFetchAt + 4 * lastFetchMs - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const started = Date.now();
      const d = await getJSON(`/api/sweeps/${id}`);
      lastFetchAt = Date.now();
      lastFetchMs = lastFetchAt - started;
      shown = { version: d.counts.done + d.counts.failed + d.counts.skipped, status: d.status };
      render(d);
      if (wanted === target) break;
    }
  } finally {
    fetching = false;
  }
}

try {
  const first = await getJSON(`/api/sweeps/${id}`);
  shown = { version: first.counts.done + first.counts.failed + first.counts.skipped, status: first.status };
  render(first);
  const events = new EventSource(`/api/sweeps/${id}/events`);
  events.addEventListener('sweep', (e) => {
    const overview = JSON.parse(e.data);
    // The header follows every event at once; the rest with the detail.
    if (detail) renderHeader({ ...detail, ...overview });
    void refresh(overview).catch((err) => ($('#live-note').textContent = `Cannot refresh the sweep: ${err.message}`));
  });
  events.addEventListener('error', () => ($('#live-note').textContent = 'Live updates interrupted; reconnecting…'));
  events.addEventListener('open', () => ($('#live-note').textContent = 'Charts update as games finish.'));
} catch (err) {
  $('#title').textContent = err.status === 404 ? `No sweep '${id}'` : `Cannot load the sweep: ${err.message}`;
}
