// Chart configurations built from a sweep's statistics as the API shapes them (SweepDetail: cells,
// pooled agents, parameter curves, matrices). Pure functions of the data, so the same code draws the
// live dashboard and the report's figures. No statistic is computed here: every rate, interval and
// pooled mean comes from the server (shared/src/lab).

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
export const CATEGORY_COLORS = { military: '#C0392B', treasury: '#B8860B', wonder: '#6D4C41', civilian: '#1F5FA8', commercial: '#E69F00', guilds: '#7B3F9E', science: '#1B7F3B' };
/** Draws vertical interval bars from each dataset's `errorBars` ([low, high] in data units). */
export const errorBarsPlugin = {
  id: 'errorBars',
  afterDatasetsDraw(chart) {
    const { ctx } = chart;
    chart.data.datasets.forEach((dataset, i) => {
      if (!dataset.errorBars || !chart.isDatasetVisible(i)) return;
      const meta = chart.getDatasetMeta(i);
      const scale = chart.scales[meta.yAxisID];
      ctx.save();
      ctx.strokeStyle = '#222';
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
      ctx.restore();
    });
  },
};

const percent = (x) => (Number.isFinite(x) ? 100 * x : null);

/** A short name for a cell: its swept values, or its agents. */
export function cellName(cell) {
  const swept = Object.entries(cell.swept ?? {});
  if (swept.length) return swept.map(([k, v]) => `${k.replace(/^seats\.(\d+)\./, 's$1 ')}=${v}`).join(', ');
  return cell.agents.join(' / ');
}

/** The agents of a scope: one cell's labels, or ('all') every agent pooled over the cells by the server. */
export function scopedLabels(detail, scope) {
  if (scope === 'all') return (detail.pooled ?? []).map((l) => ({ ...l, name: l.label }));
  return detail.cells.filter((c) => String(c.index) === String(scope)).flatMap((c) => c.labels.map((l) => ({ ...l, name: l.label })));
}

function baseOptions(extra = {}) {
  return { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'bottom' } }, ...extra };
}

const rateTooltip = {
  callbacks: {
    label(ctx) {
      const ds = ctx.dataset;
      const extra = ds.intervals?.[ctx.dataIndex];
      const vp = ds.vpIntervals?.[ctx.dataIndex];
      const value = ctx.parsed.y;
      if (vp) return `${ds.label}: ${value === null ? '–' : value.toFixed(1)} ± ${Number.isFinite(vp.meanVpHalfWidth) ? vp.meanVpHalfWidth.toFixed(1) : '–'} (n = ${vp.games})`;
      if (!extra) return `${ds.label}: ${value === null ? '–' : value.toFixed(1)}`;
      return `${ds.label}: ${value.toFixed(1)} % ± ${(100 * extra.halfWidth).toFixed(1)} (Wilson ${(100 * extra.wilson.low).toFixed(1)}–${(100 * extra.wilson.high).toFixed(1)}, n = ${extra.games})`;
    },
  },
};

/** Win rate (with its Wilson 95 % interval) and mean VP (± its 95 % half-width) against one swept parameter's values. */
export function parameterChart(series) {
  const points = series.points;
  return {
    type: 'line',
    data: {
      labels: points.map((p) => String(p.value)),
      datasets: [
        {
          label: `win % (seat ${series.seat})`,
          data: points.map((p) => percent(p.winRate)),
          errorBars: points.map((p) => [percent(p.wilson.low), percent(p.wilson.high)]),
          intervals: points,
          borderColor: COLORS[0],
          backgroundColor: COLORS[0],
          yAxisID: 'y',
        },
        {
          label: 'mean VP',
          data: points.map((p) => (Number.isFinite(p.meanVp) ? p.meanVp : null)),
          errorBars: points.map((p) => [p.meanVpInterval.low, p.meanVpInterval.high]),
          vpIntervals: points,
          borderColor: COLORS[1],
          backgroundColor: COLORS[1],
          borderDash: [6, 4],
          yAxisID: 'y1',
        },
      ],
    },
    options: baseOptions({
      scales: {
        x: { title: { display: true, text: series.key } },
        y: { title: { display: true, text: 'win % (Wilson 95 % bars)' }, min: 0, max: 100 },
        y1: { position: 'right', title: { display: true, text: 'mean VP (± 95 %)' }, grid: { drawOnChartArea: false } },
      },
      plugins: { legend: { position: 'bottom' }, tooltip: rateTooltip },
    }),
  };
}

/** VP box plots per (cell, agent) of the scope (per cell quantiles are exact; pools are not). */
export function vpBoxplot(detail, scope) {
  const cells = scope === 'all' ? detail.cells : detail.cells.filter((c) => String(c.index) === String(scope));
  const many = cells.length > 1;
  const boxes = cells.flatMap((c) => c.labels.filter((l) => l.games > 0).map((l) => ({ name: many ? `${cellName(c)} · ${l.label}` : l.label, vp: l.vp }))).slice(0, 30);
  return {
    type: 'boxplot',
    data: {
      labels: boxes.map((b) => b.name),
      datasets: [
        {
          label: 'victory points',
          data: boxes.map((b) => ({ min: b.vp.min, q1: b.vp.q1, median: b.vp.median, q3: b.vp.q3, max: b.vp.max, mean: b.vp.mean })),
          backgroundColor: 'rgba(0, 114, 178, 0.25)',
          borderColor: COLORS[0],
          borderWidth: 1.5,
        },
      ],
    },
    options: baseOptions({ plugins: { legend: { display: false } }, scales: { y: { title: { display: true, text: 'VP' } } } }),
  };
}

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

export function wonderWinChart(labels) {
  const keys = wonderKeys(labels);
  return {
    type: 'bar',
    data: {
      labels: keys,
      datasets: labels.map((l, i) => {
        const rates = keys.map((k) => l.wonders.find((w) => `${w.wonder} ${w.side}` === k));
        return {
          label: l.name,
          data: rates.map((w) => (w ? percent(w.winRate) : null)),
          errorBars: rates.map((w) => (w ? [percent(w.wilson.low), percent(w.wilson.high)] : null)),
          intervals: rates.map((w) => w ?? null),
          backgroundColor: COLORS[i % COLORS.length],
        };
      }),
    },
    options: baseOptions({ scales: { y: { min: 0, max: 100, title: { display: true, text: 'win %' } } }, plugins: { legend: { position: 'bottom' }, tooltip: rateTooltip } }),
  };
}

export function wonderStagesChart(labels) {
  const keys = wonderKeys(labels);
  return {
    type: 'bar',
    data: {
      labels: keys,
      datasets: labels.map((l, i) => ({
        label: l.name,
        data: keys.map((k) => l.wonders.find((w) => `${w.wonder} ${w.side}` === k)?.meanStages ?? null),
        backgroundColor: COLORS[i % COLORS.length],
      })),
    },
    options: baseOptions({ scales: { y: { min: 0, title: { display: true, text: 'stages per game' } } } }),
  };
}

export function cardsChart(labels, top = 15) {
  const totals = new Map();
  for (const l of labels) for (const c of l.cards) totals.set(c.card, (totals.get(c.card) ?? 0) + c.count);
  const cards = [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([c]) => c);
  return {
    type: 'bar',
    data: {
      labels: cards,
      datasets: labels.map((l, i) => ({
        label: l.name,
        data: cards.map((c) => percent(l.cards.find((x) => x.card === c)?.frequency ?? 0)),
        backgroundColor: COLORS[i % COLORS.length],
      })),
    },
    options: baseOptions({ indexAxis: 'y', scales: { x: { min: 0, max: 100, title: { display: true, text: '% of wins with the card' } } } }),
  };
}

export function progressionChart(detail, scope) {
  const cells = scope === 'all' ? detail.cells : detail.cells.filter((c) => String(c.index) === String(scope));
  const many = cells.length > 1;
  const lines = cells.flatMap((c) => c.labels.filter((l) => l.progression.length).map((l) => ({ name: many ? `${cellName(c)} · ${l.label}` : l.label, points: l.progression }))).slice(0, 12);
  return {
    type: 'line',
    data: {
      datasets: lines.map((line, i) => ({
        label: line.name,
        data: line.points.map((p) => ({ x: p.games, y: percent(p.winRate) })),
        borderColor: COLORS[i % COLORS.length],
        backgroundColor: COLORS[i % COLORS.length],
        pointRadius: 0,
      })),
    },
    options: baseOptions({ parsing: true, scales: { x: { type: 'linear', title: { display: true, text: 'seat-games played' } }, y: { min: 0, max: 100, title: { display: true, text: 'cumulative win %' } } } }),
  };
}

/** The ratings as a ladder: each configuration's 95 % interval as a bar, its Elo as a point, best first. */
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
      scales: { x: { type: 'linear', title: { display: true, text: `Elo (0: ${ratings.anchor})` } }, y: { type: 'category' } },
      plugins: {
        legend: { position: 'bottom' },
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
