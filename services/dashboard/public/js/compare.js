// Two or more sweeps side by side: each swept parameter's win-rate curve, one line per sweep (with
// its Wilson 95 % bars), every agent pooled over each sweep's cells, their summary rows and how
// each was made. Everything drawn is the API's (detail, /summary); nothing is computed here.
import { duration, el, fillTable, getJSON, num, pct } from './api.js';
import { comparisonChart, errorBarsPlugin } from './charts.js';

const Chart = window.Chart;
Chart.register(errorBarsPlugin);
const $ = (sel) => document.querySelector(sel);
const ids = (new URL(location.href).searchParams.get('ids') ?? '').split(',').map((s) => s.trim()).filter(Boolean);

/** The sweeps list with a box per sweep, ticked for those compared. */
async function renderPicker() {
  const sweeps = await getJSON('/api/sweeps?limit=100');
  $('#pick-list').replaceChildren(
    ...sweeps.map((s) => {
      const box = el('input', { type: 'checkbox', value: s.id, id: `pick-${s.id}` });
      box.checked = ids.includes(s.id);
      return el('label', { class: 'inline', for: `pick-${s.id}` }, box, ` ${s.name} (${s.status}, ${s.counts.done} / ${s.counts.total} games)`);
    }),
  );
}

$('#pick-apply').addEventListener('click', () => {
  const picked = [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('#pick-list input:checked'))].map((b) => b.value);
  location.href = `/compare?ids=${picked.map(encodeURIComponent).join(',')}`;
});

const canvasIdOf = (key) => `compare-${key.replace(/[^A-Za-z0-9]+/g, '-')}`;

function renderCharts(sweeps) {
  const keys = [...new Set(sweeps.flatMap((s) => s.detail.parameters.map((p) => p.key)))];
  // Axis titles in the parameter table's words (sweeps stored before series carried them: the key).
  const nameOf = (key) => sweeps.map((s) => s.detail.parameters.find((p) => p.key === key)?.name).find(Boolean) ?? key;
  $('#compare-charts').replaceChildren(
    ...keys.map((key) =>
      el('div', { class: 'card' }, el('h2', {}, `Win rate by ${nameOf(key)} (${key})`), el('div', { class: 'chart-box' }, el('canvas', { id: canvasIdOf(key), role: 'img', 'aria-label': `Win rate by ${nameOf(key)}, one line per sweep, with Wilson 95 % intervals` }))),
    ),
  );
  for (const key of keys) new Chart(/** @type {HTMLCanvasElement} */ (document.getElementById(canvasIdOf(key))), comparisonChart(sweeps, key, nameOf(key)));
}

function renderTables(sweeps) {
  fillTable(
    $('#compare-pooled'),
    ['sweep', 'agent', { text: 'cells', num: true }, { text: 'games', num: true }, { text: 'wins', num: true }, { text: 'win %', num: true }, { text: 'Wilson 95 %', num: true }, { text: 'mean VP ± 95 %', num: true }],
    sweeps.flatMap((s) => s.detail.pooled.map((p) => [s.detail.name, p.label, p.cells, p.games, p.wins, pct(p.winRate), `[${pct(p.wilson.low)}, ${pct(p.wilson.high)}]`, `${num(p.vp.mean)} ± ${num(p.vpMeanHalfWidth)}`])),
  );
  const swept = [...new Set(sweeps.flatMap((s) => s.rows.flatMap((r) => Object.keys(r).filter((k) => k.startsWith('seats.') || k.startsWith('matchup.')))))];
  fillTable(
    $('#compare-rows'),
    ['sweep', { text: 'cell', num: true }, ...swept, 'agent', { text: 'games', num: true }, { text: 'wins', num: true }, { text: 'win %', num: true }, { text: 'Wilson 95 %', num: true }, { text: 'mean VP (sd)', num: true }],
    sweeps.flatMap((s) => s.rows.map((r) => [s.detail.name, r.cell, ...swept.map((k) => r[k] ?? ''), r.agent, r.games, r.wins, pct(r.win_rate ?? NaN), `[${pct(r.ci_low ?? NaN)}, ${pct(r.ci_high ?? NaN)}]`, `${num(r.vp_mean ?? NaN)} (${num(r.vp_sd ?? NaN)})`])),
  );
  fillTable(
    $('#compare-provenance'),
    ['sweep', 'code', 'created', 'wall time', 'running time', { text: 'CPU s', num: true }, 'workers'],
    sweeps.map((s) => {
      const p = s.detail.provenance;
      const code = p.code ? `${p.code.version}${p.code.commit ? ` ${p.code.commit.slice(0, 12)}${p.code.dirty ? '+' : ''}` : ''}` : 'not recorded';
      return [el('td', {}, el('a', { href: `/sweeps/${s.id}` }, s.detail.name)), code, new Date(p.created).toLocaleString(), duration(p.wallSeconds), duration(p.activeSeconds), p.cpuSeconds === null ? '–' : num(p.cpuSeconds, 1), p.workers.map((w) => `${w.host}:${w.pid} (${w.games})`).join(', ')];
    }),
  );
}

await renderPicker().catch((err) => ($('#compare-note').textContent = `Cannot list the sweeps: ${err.message}`));
if (ids.length) {
  try {
    const sweeps = await Promise.all(
      ids.map(async (id) => ({ id, detail: await getJSON(`/api/sweeps/${encodeURIComponent(id)}?cellLimit=1`), rows: await getJSON(`/api/sweeps/${encodeURIComponent(id)}/summary`) })),
    );
    $('#compare-note').textContent = `${sweeps.length} sweep${sweeps.length === 1 ? '' : 's'}: ${sweeps.map((s) => s.detail.name).join(' · ')}`;
    renderCharts(sweeps);
    renderTables(sweeps);
  } catch (err) {
    $('#compare-note').textContent = `Cannot load the sweeps: ${err.message}`;
  }
}
document.body.dataset.ready = 'true';
