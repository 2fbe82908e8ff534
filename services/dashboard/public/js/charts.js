// Chart configurations built from a sweep's aggregates (the API's SweepDetail). Pure functions of
// the data, so the same code draws the live dashboard and the report's figures.

/** Okabe–Ito: distinguishable with the common colour-vision deficiencies. */
export const COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
export const CATEGORY_COLORS = { military: '#C0392B', treasury: '#B8860B', wonder: '#6D4C41', civilian: '#1F5FA8', commercial: '#E69F00', guilds: '#7B3F9E', science: '#1B7F3B' };
const Z95 = 1.959963984540054;

export function wilson(k, n, z = Z95) {
  if (!n) return { low: NaN, high: NaN };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export function rate(wins, games) {
  const p = games ? wins / games : NaN;
  return { games, wins, winRate: p, halfWidth: games ? Z95 * Math.sqrt((p * (1 - p)) / games) : NaN, wilson: wilson(wins, games) };
}

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

/**
 * The agents of a scope: one cell's labels, or ('all') every label pooled over the cells by its
 * spec (counts summed, means weighted by games).
 */
export function scopedLabels(detail, scope) {
  const cells = scope === 'all' ? detail.cells : detail.cells.filter((c) => String(c.index) === String(scope));
  if (scope !== 'all') return cells.flatMap((c) => c.labels.map((l) => ({ ...l, name: l.label })));
  const pooled = new Map();
  for (const cell of cells) {
    for (const l of cell.labels) {
      let p = pooled.get(l.label);
      if (!p) {
        p = { name: l.label, label: l.label, games: 0, wins: 0, ties: 0, coinWins: 0, vpSum: 0, vpSq: 0, stagesSum: 0, score: {}, wonders: new Map(), cards: new Map(), msSum: 0, itSum: 0 };
        pooled.set(l.label, p);
      }
      const g = l.games;
      if (!g) continue;
      p.games += g;
      p.wins += l.wins;
      p.ties += l.ties;
      p.coinWins += l.coinWins;
      p.vpSum += l.vp.mean * g;
      p.vpSq += (l.vp.sd ** 2) * (g - 1) + g * l.vp.mean ** 2;
      p.stagesSum += l.meanStages * g;
      p.msSum += l.decisionMs * g;
      p.itSum += l.iterationsPerSecond * g;
      for (const [cat, v] of Object.entries(l.score)) p.score[cat] = (p.score[cat] ?? 0) + v * g;
      for (const w of l.wonders) {
        const key = `${w.wonder}:${w.side}`;
        const acc = p.wonders.get(key) ?? { wonder: w.wonder, side: w.side, games: 0, wins: 0, stages: 0, vp: 0 };
        acc.games += w.games;
        acc.wins += w.wins;
        acc.stages += w.meanStages * w.games;
        acc.vp += w.meanVp * w.games;
        p.wonders.set(key, acc);
      }
      for (const c of l.cards) p.cards.set(c.card, (p.cards.get(c.card) ?? 0) + c.count);
    }
  }
  return [...pooled.values()].map((p) => {
    const mean = p.games ? p.vpSum / p.games : NaN;
    return {
      name: p.name,
      label: p.label,
      ...rate(p.wins, p.games),
      ties: p.ties,
      coinWins: p.coinWins,
      vp: { n: p.games, mean, sd: p.games > 1 ? Math.sqrt(Math.max(0, (p.vpSq - p.games * mean * mean) / (p.games - 1))) : 0 },
      meanStages: p.games ? p.stagesSum / p.games : NaN,
      score: Object.fromEntries(Object.entries(p.score).map(([k, v]) => [k, v / p.games])),
      decisionMs: p.games ? p.msSum / p.games : 0,
      iterationsPerSecond: p.games ? p.itSum / p.games : 0,
      wonders: [...p.wonders.values()].map((w) => ({ wonder: w.wonder, side: w.side, ...rate(w.wins, w.games), meanStages: w.games ? w.stages / w.games : NaN, meanVp: w.games ? w.vp / w.games : NaN })),
      cards: [...p.cards].map(([card, count]) => ({ card, count, frequency: p.wins ? count / p.wins : 0 })).sort((a, b) => b.count - a.count),
      progression: [],
    };
  });
}

function baseOptions(extra = {}) {
  return { responsive: true, maintainAspectRatio: false, animation: false, plugins: { legend: { position: 'bottom' } }, ...extra };
}

const rateTooltip = {
  callbacks: {
    label(ctx) {
      const ds = ctx.dataset;
      const extra = ds.intervals?.[ctx.dataIndex];
      const value = ctx.parsed.y;
      if (!extra) return `${ds.label}: ${value === null ? '–' : value.toFixed(1)}`;
      return `${ds.label}: ${value.toFixed(1)} % ± ${(100 * extra.halfWidth).toFixed(1)} (Wilson ${(100 * extra.wilson.low).toFixed(1)}–${(100 * extra.wilson.high).toFixed(1)}, n = ${extra.games})`;
    },
  },
};

/** The swept parameters (other than matchup seats) with more than one value. */
export function sweptKeys(detail) {
  const values = new Map();
  for (const cell of detail.cells) {
    for (const [k, v] of Object.entries(cell.swept ?? {})) {
      if (k.startsWith('matchup.')) continue;
      if (!values.has(k)) values.set(k, new Set());
      values.get(k).add(v);
    }
  }
  return [...values].filter(([, vs]) => vs.size > 1).map(([k]) => k);
}

/** Win rate (with 95 % bars) and mean VP against one swept parameter's values. */
export function parameterChart(detail, key) {
  const seat = Number(/^seats\.(\d+)\./.exec(key)?.[1] ?? 0);
  const byValue = new Map();
  for (const cell of detail.cells) {
    if (!(key in (cell.swept ?? {}))) continue;
    const value = cell.swept[key];
    const label = cell.labels.find((l) => l.label === cell.agents[seat]);
    if (!label) continue;
    const acc = byValue.get(value) ?? { wins: 0, games: 0, vp: 0 };
    acc.wins += label.wins;
    acc.games += label.games;
    acc.vp += label.games ? label.vp.mean * label.games : 0;
    byValue.set(value, acc);
  }
  const values = [...byValue.keys()].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b))));
  const rates = values.map((v) => rate(byValue.get(v).wins, byValue.get(v).games));
  return {
    type: 'line',
    data: {
      labels: values.map(String),
      datasets: [
        {
          label: `win % (seat ${seat})`,
          data: rates.map((r) => percent(r.winRate)),
          errorBars: rates.map((r) => [percent(r.winRate - r.halfWidth), percent(r.winRate + r.halfWidth)]),
          intervals: rates,
          borderColor: COLORS[0],
          backgroundColor: COLORS[0],
          yAxisID: 'y',
        },
        {
          label: 'mean VP',
          data: values.map((v) => (byValue.get(v).games ? byValue.get(v).vp / byValue.get(v).games : null)),
          borderColor: COLORS[1],
          backgroundColor: COLORS[1],
          borderDash: [6, 4],
          yAxisID: 'y1',
        },
      ],
    },
    options: baseOptions({
      scales: {
        x: { title: { display: true, text: key } },
        y: { title: { display: true, text: 'win %' }, min: 0, max: 100 },
        y1: { position: 'right', title: { display: true, text: 'mean VP' }, grid: { drawOnChartArea: false } },
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
          errorBars: rates.map((w) => (w ? [percent(w.winRate - w.halfWidth), percent(w.winRate + w.halfWidth)] : null)),
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

/** The matchup matrix: the row spec's win rate against each column spec, or null. */
export function matchupMatrix(detail) {
  const m = detail.spec?.matchup;
  if (!m) return null;
  const [a, b] = m.seats;
  const rows = m.specs.map((x) =>
    m.specs.map((y) => {
      if (x === y) return null;
      let wins = 0;
      let games = 0;
      for (const cell of detail.cells) {
        if (cell.agents[a] !== x || cell.agents[b] !== y) continue;
        // The agent of seat a itself, not every seat that happens to share its spec.
        const role = cell.roles[a];
        wins += role.wins;
        games += role.games;
      }
      return rate(wins, games);
    }),
  );
  return { specs: m.specs, seats: m.seats, rows };
}
