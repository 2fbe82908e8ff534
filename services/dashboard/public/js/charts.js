// Chart configurations built from a sweep's statistics as the API shapes them (SweepDetail: cells,
// pooled agents, parameter curves, matrices). Pure functions of the data, so the same code draws the
// live dashboard and the report's figures. No statistic is computed here: every rate, interval and
// pooled mean comes from the server (shared/src/lab).

/**
 * A chart's configuration as this module builds it for Chart.js: its datasets carry fields of
 * their own besides Chart.js's (errorBars, intervals, noGames…, read by the plugins and tooltips
 * here), which Chart.js's types do not know.
 * @typedef {{ type: import('chart.js').ChartType, data: { labels?: unknown[], datasets: { data: unknown[], [field: string]: any }[] }, options: Record<string, any> }} ChartConfig
 */

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
export const CATEGORY_COLORS = { military: '#C0392B', treasury: '#B8860B', wonder: '#6D4C41', civilian: '#1F5FA8', commercial: '#E69F00', guilds: '#7B3F9E', science: '#1B7F3B' };
/**
 * The colour of a dataset's interval bars: a line's own colour, so that on a chart of several
 * lines (Compare) each bar says whose it is; on a bar chart a dark grey, as a bar in the series'
 * colour would vanish into the bar it spans.
 */
export function errorBarColour(chart, dataset) {
  const line = (dataset.type ?? chart.config.type) === 'line';
  return line && typeof dataset.borderColor === 'string' ? dataset.borderColor : '#222';
}

/**
 * Runs draw(dataset, meta, scale) for each visible dataset that has a `key` field, between a save
 * and a restore of the canvas state: what the plugins below share.
 */
function eachDatasetWith(chart, key, draw) {
  chart.data.datasets.forEach((dataset, i) => {
    if (!dataset[key] || !chart.isDatasetVisible(i)) return;
    const meta = chart.getDatasetMeta(i);
    chart.ctx.save();
    draw(dataset, meta, chart.scales[meta.yAxisID]);
    chart.ctx.restore();
  });
}

/** Draws vertical interval bars from each dataset's `errorBars` ([low, high] in data units). */
export const errorBarsPlugin = {
  id: 'errorBars',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    eachDatasetWith(chart, 'errorBars', (dataset, meta, scale) => {
      ctx.strokeStyle = errorBarColour(chart, dataset);
      ctx.lineWidth = 1.2;
      meta.data.forEach((point, j) => {
        const bar = dataset.errorBars[j];
        if (!bar || !Number.isFinite(bar[0]) || !Number.isFinite(bar[1])) return;
        const x = point.x;
        const top = scale.getPixelForValue(bar[1]);
        const bottom = scale.getPixelForValue(bar[0]);
        ctx.beginPath();
        ctx.moveTo(x, top);
        ctx.lineTo(x, bottom);
        ctx.moveTo(x - 4, top);
        ctx.lineTo(x + 4, top);
        ctx.moveTo(x - 4, bottom);
        ctx.lineTo(x + 4, bottom);
        ctx.stroke();
      });
    });
  },
};

/** What noGamesPlugin writes at the place of a bar with no games behind it. */
export const NO_GAMES = 'no games';

/**
 * Writes NO_GAMES, upright from the axis, where a bar chart's dataset has `noGames[j]`: a bar of
 * no games and a bar of 0 % both drew nothing, so "never had this wonder" read as "never won".
 */
export const noGamesPlugin = {
  id: 'noGames',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    eachDatasetWith(chart, 'noGames', (dataset, meta, scale) => {
      const base = scale.getPixelForValue(0);
      ctx.fillStyle = '#767676';
      ctx.font = '9px sans-serif';
      ctx.textBaseline = 'middle';
      meta.data.forEach((bar, j) => {
        if (!dataset.noGames[j] || !Number.isFinite(bar.x)) return;
        ctx.save();
        ctx.translate(bar.x, base - 3);
        ctx.rotate(-Math.PI / 2);
        ctx.fillText(NO_GAMES, 0, 0);
        ctx.restore();
      });
    });
  },
};

const percent = (x) => (Number.isFinite(x) ? 100 * x : null);

/**
 * A short name for a cell: its swept values (a matchup's pair as `A vs B`, not two
 * `matchup.<seat>=spec` entries that made a 12-cell matchup's labels too long to read), or its agents.
 */
export function cellName(cell) {
  // Each agent by its display name (its canonical spec), as everywhere else.
  const shown = (a) => cell.labels?.find((l) => l.label === a)?.config ?? a;
  const swept = Object.entries(cell.swept ?? {});
  if (!swept.length) return cell.agents.map(shown).join(' / ');
  const pair = swept.filter(([k]) => k.startsWith('matchup.')).map(([, v]) => shown(v));
  const values = swept.filter(([k]) => !k.startsWith('matchup.')).map(([k, v]) => `${k.replace(/^seats\.(\d+)\./, 's$1 ')}=${v}`);
  return [...values, ...(pair.length ? [pair.join(' vs ')] : [])].join(', ');
}

/** The agents of a scope: one cell's labels, or ('all') every agent pooled over the cells by the server. */
export function scopedLabels(detail, scope) {
  if (scope === 'all') return (detail.pooled ?? []).map((l) => ({ ...l, name: l.config ?? l.label }));
  return detail.cells.filter((c) => String(c.index) === String(scope)).flatMap((c) => c.labels.map((l) => ({ ...l, name: l.config ?? l.label })));
}

/**
 * The agents a sweep's parameters change, by label: each one's seat and its values of them (in
 * the order of detail.parameters), from the agent at a swept seat of each cell shown.
 */
function sweptValues(detail) {
  const params = detail.parameters ?? [];
  const values = new Map();
  for (const cell of detail.cells ?? []) {
    for (const seat of new Set(params.map((p) => p.seat))) {
      const label = cell.agents?.[seat];
      if (label !== undefined && !values.has(label)) values.set(label, { seat, values: params.filter((p) => p.seat === seat).map((p) => cell.swept?.[p.key]) });
    }
  }
  return values;
}

/** Two agents' swept values, parameter by parameter; an agent no parameter changes comes after. */
function byValues(a, b) {
  if (!a || !b) return (a ? 0 : 1) - (b ? 0 : 1);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const order = byValue(a[i], b[i]);
    if (order) return order;
  }
  return 0;
}

/**
 * A sweep's agents (rows with a `label`) in reading order: those a swept parameter changes by its
 * values (numbers by size, not as they first appear), then the others in the order given.
 */
export function inSweepOrder(detail, labels) {
  const values = sweptValues(detail);
  return labels
    .map((l, i) => ({ l, i, v: values.get(l.label)?.values }))
    .sort((a, b) => byValues(a.v, b.v) || a.i - b.i)
    .map((x) => x.l);
}

/** What every chart shares: it fills its box, draws at once, its legend below; `extra.plugins` adds to the legend rather than replacing it. */
function baseOptions(extra = {}) {
  return { responsive: true, maintainAspectRatio: false, animation: false, ...extra, plugins: { legend: { position: 'bottom' }, ...extra.plugins } };
}

const rateTooltip = {
  callbacks: {
    label(ctx) {
      const ds = ctx.dataset;
      const extra = ds.intervals?.[ctx.dataIndex];
      const vp = ds.vpIntervals?.[ctx.dataIndex];
      const value = ctx.parsed.y;
      const published = ds.published?.[ctx.dataIndex];
      if (published && ds.errorBars) return `${published.label} (published): ${(100 * published.paper.winRate).toFixed(1)} % ± ${(100 * published.paper.halfWidth).toFixed(1)} — ours: ${published.verdict}`;
      if (published) return `${published.label} (published): ${published.paper.vp} VP`;
      if (vp) return `${ds.label}: ${value === null ? '–' : value.toFixed(1)} ± ${Number.isFinite(vp.meanVpHalfWidth) ? vp.meanVpHalfWidth.toFixed(1) : '–'} (n = ${vp.games})`;
      if (!extra) return `${ds.label}: ${value === null ? '–' : value.toFixed(1)}`;
      return `${ds.label}: ${value.toFixed(1)} % ± ${(100 * extra.halfWidth).toFixed(1)} (Wilson ${(100 * extra.wilson.low).toFixed(1)}–${(100 * extra.wilson.high).toFixed(1)}, n = ${extra.games})`;
    },
  },
};

/**
 * One colour per agent configuration (its canonical spec), the same in every chart, page and
 * sweep: the two baselines fixed, every other configuration a hue and lightness from a hash of its
 * spec (about 50 distinguishable bins).
 */
const FIXED_COLOURS = { random: '#8c8c8c', rulebased: '#1a1a1a', 'rulebased-robilliard': '#5c5c5c' };
export function configColour(config) {
  if (FIXED_COLOURS[config]) return FIXED_COLOURS[config];
  let h = 2166136261;
  for (let i = 0; i < config.length; i++) h = Math.imul(h ^ config.charCodeAt(i), 16777619) >>> 0;
  return `hsl(${h % 360}, 72%, ${[34, 44, 54][(h >>> 12) % 3]}%)`;
}

/** Hues of the ramps of swept agents: one per combination of the other swept values (or seats). */
const RAMP_HUES = [207, 24, 160, 290];
/** Agents no parameter changes, in order of first appearance: Okabe–Ito, apart from the ramps' first hue. */
const OTHER_COLOURS = ['#009E73', '#CC79A7', '#E69F00', '#D55E00', '#56B4E9', '#F0E442'];

/**
 * One colour per configuration on a sweep's page. A hash of the name gave near-identical colours
 * to neighbouring values (mcts(it=250) and (it=500) two purples), so here the agents a swept
 * parameter changes take a ramp of one hue, light to dark in the order of its values (a grid's
 * other values, or another swept seat, a ramp of another hue); the baselines keep their greys
 * everywhere; every other agent takes the next of OTHER_COLOURS. Returns config → colour
 * (configColour's for a configuration the sweep does not have).
 */
export function sweepColours(detail) {
  const values = sweptValues(detail);
  const agents = inSweepOrder(detail, detail.pooled ?? []);
  const ramps = new Map();
  const colours = new Map();
  let other = 0;
  for (const l of agents) {
    const config = l.config ?? l.label;
    const swept = values.get(l.label);
    if (FIXED_COLOURS[config] || colours.has(config)) continue;
    if (!swept) colours.set(config, OTHER_COLOURS[other++] ?? configColour(config));
    else {
      // The agents come in value order: a ramp's members arrive lightest first.
      const group = JSON.stringify([swept.seat, swept.values.slice(1)]);
      if (!ramps.has(group)) ramps.set(group, []);
      ramps.get(group).push(config);
    }
  }
  [...ramps.values()].forEach((configs, r) => {
    const hue = RAMP_HUES[r % RAMP_HUES.length];
    configs.forEach((config, k) => colours.set(config, `hsl(${hue}, 70%, ${configs.length === 1 ? 45 : Math.round(75 - (47 * k) / (configs.length - 1))}%)`));
  });
  return (config) => colours.get(config) ?? configColour(config);
}

/**
 * A numeric axis spanning a decade or more is drawn logarithmic, its ticks at the swept values:
 * Chart.js's own log ticks (0.11, 0.12, 0.13…) named values nobody swept and not the ones swept.
 */
function valueAxis(series, title) {
  const values = series.points.map((p) => p.value);
  if (!series.numeric) return { type: 'category', labels: values.map(String), title: { display: true, text: title } };
  const min = Math.min(...values);
  const max = Math.max(...values);
  const log = min > 0 && max / min >= 10;
  if (!log) return { type: 'linear', title: { display: true, text: title }, grace: '5%' };
  const ticks = [...new Set(values)].sort((a, b) => a - b);
  // A margin of 4 % of the span (in log terms) at each end, as grace gives a linear axis: the first
  // and last points are drawn whole, not cut in half by the plot's edge.
  const pad = (max / min) ** 0.04;
  return {
    type: 'logarithmic',
    min: min / pad,
    max: max * pad,
    title: { display: true, text: `${title} (log scale)` },
    afterBuildTicks: (scale) => (scale.ticks = ticks.map((value) => ({ value }))),
    ticks: { autoSkip: false, callback: (value) => String(value) },
  };
}

/**
 * A y axis of percentages: from -5 to 105, so that a point at 100 % (or 0 %) is drawn whole
 * rather than cut in half by the plot's edge, its ticks still 0 to 100 only. A fresh object per
 * chart: Chart.js keeps what it is given.
 */
const percentAxis = (text) => ({
  min: -5,
  max: 105,
  afterBuildTicks: (scale) => (scale.ticks = [0, 20, 40, 60, 80, 100].map((value) => ({ value }))),
  title: { display: true, text },
});

/** The y axis of a win-rate curve. */
const winRateAxis = () => percentAxis('win % (Wilson 95 % bars)');

const xOf = (series, value) => (series.numeric ? value : String(value));

/** The published rows at this parameter's values (a row at another parameter's value is left out). */
function paperPoints(series, paper) {
  return (paper?.rows ?? []).filter((r) => r.at?.key === series.key && r.seat === series.seat);
}

/** The paper's values as a dataset: black dashed triangles, the published interval as bars where given. */
function publishedDataset(label, series, rows, y, bars) {
  return {
    label,
    data: rows.map((r) => ({ x: xOf(series, r.at.value), y: y(r) })),
    ...(bars ? { errorBars: rows.map(bars) } : {}),
    published: rows,
    borderColor: '#000',
    backgroundColor: '#fff',
    borderDash: [4, 4],
    pointStyle: 'triangle',
    pointRadius: 6,
  };
}

/**
 * Win rate against one swept parameter: a line per combination of the other swept parameters (a
 * grid is never averaged), Wilson 95 % bars, and the published values with their intervals when
 * the sweep reproduces a paper's table.
 * @returns {ChartConfig}
 */
export function parameterChart(series, paper) {
  const lines = series.lines ?? [{ label: `win % (seat ${series.seat})`, points: series.points }];
  const datasets = lines.map((line, i) => ({
    label: series.lines ? `win %, ${line.label}` : line.label,
    data: line.points.map((p) => ({ x: xOf(series, p.value), y: percent(p.winRate) })),
    errorBars: line.points.map((p) => [percent(p.wilson.low), percent(p.wilson.high)]),
    intervals: line.points,
    borderColor: COLORS[i % COLORS.length],
    backgroundColor: COLORS[i % COLORS.length],
  }));
  const published = paperPoints(series, paper);
  if (published.length) {
    datasets.push(publishedDataset(`published (${paper.id}), 95 % interval`, series, published, (r) => 100 * r.paper.winRate, (r) => [100 * r.paper.low, 100 * r.paper.high]));
  }
  return {
    type: 'line',
    data: { datasets },
    options: baseOptions({
      parsing: true,
      scales: { x: valueAxis(series, series.name), y: winRateAxis() },
      plugins: { tooltip: rateTooltip },
    }),
  };
}

/** A value's place on a shared axis: numbers by size, then texts. */
const byValue = (a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : typeof a === 'number' ? -1 : typeof b === 'number' ? 1 : String(a).localeCompare(String(b)));

/**
 * Win rate against one parameter in several sweeps (the compare page): a line per sweep that
 * swept it, each point at its value on the sweep page's axis (numeric where every value is a
 * number, so that a curve's shape does not depend on which other sweeps are ticked), with Wilson
 * 95 % bars. `sweeps`: [{ id, detail }] with the API's sweep detail.
 * @returns {ChartConfig}
 */
export function comparisonChart(sweeps, key, axisTitle) {
  const swept = sweeps.map((s, i) => ({ s, i, series: s.detail.parameters.find((p) => p.key === key) })).filter((x) => x.series);
  // The axis of all their values together: numeric only if each sweep's values are.
  const values = [...new Set(swept.flatMap((x) => x.series.points.map((p) => p.value)))].sort(byValue);
  const union = { numeric: swept.every((x) => x.series.numeric), points: values.map((value) => ({ value })) };
  const datasets = swept.map(({ s, i, series }) => {
    const points = [...series.points].sort((a, b) => byValue(a.value, b.value));
    return {
      label: `${s.detail.name} (${s.id})`,
      data: points.map((p) => ({ x: xOf(union, p.value), y: percent(p.winRate) })),
      errorBars: points.map((p) => [percent(p.wilson.low), percent(p.wilson.high)]),
      intervals: points,
      borderColor: COLORS[i % COLORS.length],
      backgroundColor: COLORS[i % COLORS.length],
    };
  });
  return {
    type: 'line',
    data: { datasets },
    options: baseOptions({ parsing: true, scales: { x: valueAxis(union, axisTitle), y: winRateAxis() }, plugins: { tooltip: rateTooltip } }),
  };
}

/**
 * A y axis that holds every interval bar, not only the points: Chart.js fits its range to the
 * data alone, so a bar beyond it was clipped at the axis or ran into the tick labels. A margin of
 * 5 % of the span on each side keeps the bars' caps off the plot's edge.
 */
function intervalAxis(datasets, axis) {
  const ends = datasets.flatMap((ds) => [...ds.data.map((p) => p?.y), ...(ds.errorBars ?? []).flat()]).filter(Number.isFinite);
  if (!ends.length) return axis;
  const low = Math.min(...ends);
  const high = Math.max(...ends);
  const margin = 0.05 * (high - low || 1);
  return { ...axis, suggestedMin: low - margin, suggestedMax: high + margin };
}

/**
 * Mean VP against one swept parameter, ± its 95 % interval, a line per combination of the others; the paper's mean VP where printed.
 * @returns {ChartConfig}
 */
export function parameterVpChart(series, paper) {
  const lines = series.lines ?? [{ label: `mean VP (seat ${series.seat})`, points: series.points }];
  const datasets = lines.map((line, i) => ({
    label: series.lines ? `mean VP, ${line.label}` : line.label,
    data: line.points.map((p) => ({ x: xOf(series, p.value), y: Number.isFinite(p.meanVp) ? p.meanVp : null })),
    errorBars: line.points.map((p) => [p.meanVpInterval.low, p.meanVpInterval.high]),
    vpIntervals: line.points,
    borderColor: COLORS[i % COLORS.length],
    backgroundColor: COLORS[i % COLORS.length],
  }));
  const published = paperPoints(series, paper).filter((r) => r.paper.vp !== null);
  if (published.length) datasets.push(publishedDataset(`published (${paper.id})`, series, published, (r) => r.paper.vp));
  return {
    type: 'line',
    data: { datasets },
    options: baseOptions({
      parsing: true,
      scales: { x: valueAxis(series, series.name), y: intervalAxis(datasets, { title: { display: true, text: 'mean VP (± 95 %)' } }) },
      plugins: { tooltip: rateTooltip },
    }),
  };
}

/** A chart's data as CSV: one row per point of every dataset, with its interval where it has one. */
export function chartCsv(chart) {
  const quote = (v) => (v === null || v === undefined ? '' : /[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
  const labels = chart.data.labels ?? [];
  const rows = [['series', 'x', 'y', 'low', 'high', 'n']];
  for (const ds of chart.data.datasets) {
    ds.data.forEach((point, j) => {
      const isObject = point !== null && typeof point === 'object';
      const x = isObject && 'x' in point ? point.x : labels[j];
      const y = isObject && 'y' in point ? point.y : isObject ? JSON.stringify(point) : point;
      const bar = ds.errorBars?.[j];
      const n = ds.intervals?.[j]?.games ?? ds.vpIntervals?.[j]?.games ?? ds.cards?.[j]?.wins ?? '';
      rows.push([ds.label, x, y, bar?.[0], bar?.[1], n]);
    });
  }
  return rows.map((r) => r.map(quote).join(',')).join('\n') + '\n';
}

/**
 * VP box plots per (cell, agent) of the scope (per cell quantiles are exact; pools are not); `colour`: config → colour.
 * @returns {ChartConfig}
 */
export function vpBoxplot(detail, scope, colour = configColour) {
  const cells = scope === 'all' ? detail.cells : detail.cells.filter((c) => String(c.index) === String(scope));
  const many = cells.length > 1;
  const boxes = cells.flatMap((c) => c.labels.filter((l) => l.games > 0).map((l) => ({ name: many ? `${cellName(c)} · ${l.config ?? l.label}` : (l.config ?? l.label), config: l.config ?? l.label, vp: l.vp }))).slice(0, 30);
  return {
    type: 'boxplot',
    data: {
      labels: boxes.map((b) => b.name),
      datasets: [
        {
          label: 'victory points',
          data: boxes.map((b) => ({ min: b.vp.min, q1: b.vp.q1, median: b.vp.median, q3: b.vp.q3, max: b.vp.max, mean: b.vp.mean })),
          backgroundColor: boxes.map((b) => colour(b.config).replace(/^hsl\((.*)\)$/, 'hsla($1, 0.3)').replace(/^#([0-9a-f]{6})$/, '#$140')),
          borderColor: boxes.map((b) => colour(b.config)),
          borderWidth: 1.5,
        },
      ],
    },
    // A row per box, its label on lines of its own (the cell, then the agent): as columns, a
    // 12-cell matchup's 30 labels ran into one smear. rowsHeight gives the rows their lines.
    options: baseOptions({
      indexAxis: 'y',
      plugins: { legend: { display: false } },
      scales: {
        x: { title: { display: true, text: 'VP' } },
        y: rowAxis({
          ticks: {
            lines: many ? 2 : 1,
            callback(value) {
              return many ? this.getLabelForValue(value).split(' · ').map((part, i) => shorten(i ? `· ${part}` : part)) : shorten(this.getLabelForValue(value));
            },
          },
        }),
      },
    }),
  };
}

/** Characters of a row label's line: a longer one is cut in the middle (the full name is the tooltip's), so the axis leaves the plot its room. */
const ROW_LABEL_CHARS = 40;
const shorten = (text) => (text.length <= ROW_LABEL_CHARS ? text : `${text.slice(0, ROW_LABEL_CHARS / 2 - 1)}…${text.slice(-(ROW_LABEL_CHARS / 2))}`);

/** @returns {ChartConfig} */
export function breakdownChart(labels) {
  const cats = Object.keys(CATEGORY_COLORS);
  return {
    type: 'bar',
    data: {
      labels: labels.map((l) => l.name),
      datasets: cats.map((cat) => ({ label: cat, data: labels.map((l) => l.score?.[cat] ?? null), backgroundColor: CATEGORY_COLORS[cat] })),
    },
    options: baseOptions({ scales: { x: { stacked: true }, y: { stacked: true, title: { display: true, text: 'mean points' } } } }),
  };
}

function wonderKeys(labels) {
  const keys = new Set();
  for (const l of labels) for (const w of l.wonders) keys.add(`${w.wonder} ${w.side}`);
  return [...keys].sort();
}

/** A bar per agent in the agent's colour (`colour`: config → colour), its fields from `fields`. */
const agentBars = (l, fields, colour) => ({ label: l.name, ...fields, backgroundColor: colour(l.config ?? l.name) });

/**
 * Bars per wonder (city and side) that any agent played: for each agent, `fields` turns its row
 * per wonder (null where it never had that wonder) into the dataset's fields.
 * @returns {ChartConfig}
 */
function perWonderChart(labels, fields, options, colour) {
  const keys = wonderKeys(labels);
  const datasets = labels.map((l) => agentBars(l, fields(keys.map((k) => l.wonders.find((w) => `${w.wonder} ${w.side}` === k) ?? null)), colour));
  return { type: 'bar', data: { labels: keys, datasets }, options: baseOptions(options) };
}

/**
 * Win rate per wonder: a bar of 0 % is a sliver in the agent's colour (minBarLength), where the
 * agent never had the wonder noGamesPlugin writes "no games": the two no longer look alike.
 * @returns {ChartConfig}
 */
export function wonderWinChart(labels, colour = configColour) {
  return perWonderChart(
    labels,
    (rows) => ({
      data: rows.map((w) => (w && w.games > 0 ? percent(w.winRate) : null)),
      errorBars: rows.map((w) => (w && w.games > 0 ? [percent(w.wilson.low), percent(w.wilson.high)] : null)),
      intervals: rows,
      noGames: rows.map((w) => !w || !(w.games > 0)),
      minBarLength: 2,
    }),
    { scales: { y: percentAxis('win %') }, plugins: { tooltip: rateTooltip } },
    colour,
  );
}

/** @returns {ChartConfig} */
export function wonderStagesChart(labels, colour = configColour) {
  return perWonderChart(labels, (rows) => ({ data: rows.map((w) => w?.meanStages ?? null) }), { scales: { y: { min: 0, title: { display: true, text: 'stages per game' } } } }, colour);
}

/**
 * Cards in winning builds as lift over their base rate: (share of the agent's wins whose city built
 * the card) ÷ (share of all its games whose city did). 1 means no more common in wins than
 * anywhere; common cards no longer look decisive. The cards with the most wins behind them.
 * @returns {ChartConfig}
 */
export function cardsChart(labels, colour = configColour, top = 15, minWins = 5) {
  const totals = new Map();
  for (const l of labels) for (const c of l.cards) if (Number.isFinite(c.lift) && c.count >= minWins) totals.set(c.card, (totals.get(c.card) ?? 0) + c.count);
  const cards = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([c]) => c);
  return {
    type: 'bar',
    data: {
      labels: cards,
      datasets: labels.map((l) => {
        const rows = cards.map((c) => l.cards.find((x) => x.card === c) ?? null);
        return agentBars(l, { data: rows.map((r) => (r && Number.isFinite(r.lift) ? r.lift : null)), cards: rows.map((r) => (r ? { ...r, wins: l.wins } : null)) }, colour);
      }),
    },
    options: baseOptions({
      indexAxis: 'y',
      scales: { x: { min: 0, title: { display: true, text: 'lift: share of wins with the card ÷ share of all games with it (1: no difference)' } }, y: rowAxis() },
      plugins: {
        tooltip: {
          callbacks: {
            label(ctx) {
              const c = ctx.dataset.cards[ctx.dataIndex];
              if (!c) return `${ctx.dataset.label}: –`;
              return `${ctx.dataset.label}: lift ${c.lift.toFixed(2)} — in ${c.count} of ${c.wins} wins (${(100 * c.frequency).toFixed(0)} %), in ${c.games} games (${(100 * c.baseRate).toFixed(0)} % of all)`;
            },
          },
        },
      },
    }),
  };
}

/** @returns {ChartConfig} */
export function progressionChart(detail, scope, colour = configColour) {
  const cells = scope === 'all' ? detail.cells : detail.cells.filter((c) => String(c.index) === String(scope));
  const many = cells.length > 1;
  const lines = cells
    .flatMap((c, k) => c.labels.filter((l) => l.progression.length).map((l) => ({ name: many ? `${cellName(c)} · ${l.config ?? l.label}` : (l.config ?? l.label), config: l.config ?? l.label, cell: k, points: l.progression })))
    .slice(0, 12);
  // The agent's colour; cells told apart by the dash.
  const DASHES = [[], [6, 3], [2, 2], [8, 3, 2, 3]];
  return {
    type: 'line',
    data: {
      datasets: lines.map((line) => ({
        label: line.name,
        data: line.points.map((p) => ({ x: p.games, y: percent(p.winRate) })),
        borderColor: colour(line.config),
        backgroundColor: colour(line.config),
        borderDash: DASHES[line.cell % DASHES.length],
        pointRadius: 0,
      })),
    },
    options: baseOptions({ parsing: true, scales: { x: { type: 'linear', title: { display: true, text: 'seat-games played' } }, y: percentAxis('cumulative win %') } }),
  };
}

/**
 * The y axis of a chart with a row per category (bars along x): every row labelled. Chart.js
 * skips labels where they would crowd, which left half the configurations or cards unnamed;
 * rowsHeight gives each row the room instead.
 */
const rowAxis = (extra = {}) => ({ type: 'category', ...extra, ticks: { autoSkip: false, ...extra.ticks } });

/**
 * The height in pixels a chart with a row per category needs for every row's label to have its
 * lines (the y ticks' `lines`, one unless given; taller rows where each holds a bar per agent), with
 * its axis and legend; null for a chart of another kind, which keeps its box's height.
 */
export function rowsHeight(config) {
  if (config.options?.indexAxis !== 'y') return null;
  const bars = config.data.datasets.filter((ds) => (ds.type ?? config.type) === 'bar').length;
  const lines = config.options.scales?.y?.ticks?.lines ?? 1;
  const perRow = Math.max(20 * lines, 4 * bars + 8);
  // The x axis with its title, and the legend's lines (about four entries to a line).
  const frame = 60 + 22 * Math.ceil(config.data.datasets.length / 4);
  return config.data.labels.length * perRow + frame;
}

/**
 * The ratings as a ladder: each configuration's 95 % interval as a bar, its Elo as a point, best first.
 * @returns {ChartConfig}
 */
export function ratingsLadder(ratings) {
  const rows = ratings.ratings.filter((r) => Number.isFinite(r.elo));
  return {
    type: 'bar',
    data: {
      labels: rows.map((r) => r.config),
      datasets: [
        { type: 'bar', label: '95 % interval', data: rows.map((r) => [r.low, r.high]), intervals: rows, backgroundColor: 'rgba(0, 114, 178, 0.25)', borderColor: COLORS[0], borderWidth: 1, barPercentage: 0.5 },
        { type: 'scatter', label: 'Elo', data: rows.map((r) => ({ x: r.elo, y: r.config })), backgroundColor: COLORS[1], borderColor: COLORS[1], pointRadius: 5 },
      ],
    },
    options: baseOptions({
      indexAxis: 'y',
      scales: { x: { type: 'linear', title: { display: true, text: `Elo (0: ${ratings.anchor})` } }, y: rowAxis() },
      plugins: {
        tooltip: {
          callbacks: {
            label(ctx) {
              const r = rows[ctx.dataIndex];
              return `${r.config}: ${r.elo.toFixed(0)} Elo, 95 % [${r.low.toFixed(0)}, ${r.high.toFixed(0)}], ${r.games} games`;
            },
          },
        },
      },
    }),
  };
}

/**
 * Each cell's stopping test against its games: the SPRT's LLR with its two bounds as dashed lines, or the interval's half-width.
 * @returns {ChartConfig}
 */
export function stoppingChart(detail) {
  const cells = detail.cells.filter((c) => c.stopped);
  const sprt = cells.some((c) => c.stopped.rule === 'sprt');
  const bounds = cells.find((c) => c.stopped.bounds)?.stopped.bounds;
  const maxGames = Math.max(1, ...cells.map((c) => c.stopped.games));
  const datasets = cells.map((c, i) => ({
    label: `${cellName(c)}: ${c.stopped.decision ?? 'undecided'}`,
    data: c.stopped.trace.map((p) => ({ x: p.games, y: p.value })),
    borderColor: COLORS[i % COLORS.length],
    backgroundColor: COLORS[i % COLORS.length],
    pointRadius: 0,
  }));
  if (bounds) {
    for (const [name, y] of [['accept H0', bounds[0]], ['accept H1', bounds[1]]]) {
      datasets.push({ label: name, data: [{ x: 0, y }, { x: maxGames, y }], borderColor: '#555', backgroundColor: '#555', borderDash: [6, 4], pointRadius: 0 });
    }
  }
  return {
    type: 'line',
    data: { datasets },
    options: baseOptions({
      parsing: true,
      scales: {
        x: { type: 'linear', title: { display: true, text: "the cell's games, in play order" } },
        y: { title: { display: true, text: sprt ? 'log-likelihood ratio (H1 over H0)' : 'Wilson 95 % half-width' } },
      },
    }),
  };
}

/**
 * A race (a racing tune, spec.tune): each arm's mean deal score at every look, its bar ± the
 * look's confidence radius, x the deals each arm had then; an arm's line ends at the look it left.
 * @returns {ChartConfig}
 */
export function raceChart(tune) {
  const race = tune.race;
  const history = race?.history ?? [];
  const datasets = (race?.arms ?? []).map((arm, i) => {
    const looks = history.filter((h) => h.means[arm.cell] !== null);
    return {
      label: `${arm.agent}${arm.eliminatedAt !== undefined ? ` (left at look ${arm.eliminatedAt})` : race.decided?.cell === arm.cell ? ' (returned)' : ''}`,
      data: looks.map((h) => ({ x: h.deals, y: percent(h.means[arm.cell]) })),
      errorBars: looks.map((h) => [percent(Math.max(0, h.means[arm.cell] - h.radius)), percent(Math.min(1, h.means[arm.cell] + h.radius))]),
      borderColor: COLORS[i % COLORS.length],
      backgroundColor: COLORS[i % COLORS.length],
    };
  });
  return {
    type: 'line',
    data: { datasets },
    options: baseOptions({
      parsing: true,
      scales: { x: { type: 'linear', title: { display: true, text: 'deals each arm had played at the look' } }, y: percentAxis('mean deal score, % (± the radius)') },
    }),
  };
}

/**
 * An SPSA or NTBEA tune's search (spec.tune). SPSA: each option's θ after every step as a share of
 * its searched range (on its scale: a log option's share of its log range), with the band θ ± c_k
 * it was perturbed by as its bar; NTBEA: each option value's mean evaluation (the point's score
 * against the reference) ± its 95 % half-width, with its evaluations in the label.
 * @returns {ChartConfig}
 */
export function searchChart(tune) {
  if (tune.method === 'spsa') {
    const share = (s, v) => (s.scale === 'log' ? Math.log(v / s.min) / Math.log(s.max / s.min) : (v - s.min) / (s.max - s.min));
    const datasets = tune.space.map((s, i) => ({
      label: s.key,
      data: tune.trajectory.map((t) => ({ x: t.k + 1, y: 100 * share(s, t.values[i]) })),
      errorBars: tune.trajectory.map((t) => [100 * Math.max(0, share(s, t.low[i])), 100 * Math.min(1, share(s, t.high[i]))]),
      borderColor: COLORS[i % COLORS.length],
      backgroundColor: COLORS[i % COLORS.length],
    }));
    return {
      type: 'line',
      data: { datasets },
      options: baseOptions({ parsing: true, scales: { x: { type: 'linear', title: { display: true, text: 'steps applied' } }, y: percentAxis("θ, % of the option's searched range (± c_k)") } }),
    };
  }
  const rows = tune.estimates.flatMap((e, i) => e.values.map((v) => ({ label: `${e.key} = ${v.value} (${v.n})`, mean: v.mean, halfWidth: v.halfWidth, colour: COLORS[i % COLORS.length] })));
  return {
    type: 'bar',
    data: {
      labels: rows.map((r) => r.label),
      datasets: [
        {
          label: 'mean score against the reference',
          data: rows.map((r) => (r.mean === null ? null : percent(r.mean))),
          errorBars: rows.map((r) => (r.mean === null || r.halfWidth === null ? null : [percent(Math.max(0, r.mean - r.halfWidth)), percent(Math.min(1, r.mean + r.halfWidth))])),
          backgroundColor: rows.map((r) => r.colour),
        },
      ],
    },
    options: baseOptions({ scales: { y: percentAxis('mean score against the reference, % (± 95 %)') } }),
  };
}
