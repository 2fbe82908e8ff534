// The lab's ladder (GET /api/ratings): every configuration of every sweep, rated by a batch
// Plackett–Luce fit with 95 % intervals; 0 is the anchor.
import { el, fillTable, getJSON } from './api.js';
import { configColour, errorBarsPlugin, ratingsLadder, rowsHeight } from './charts.js';

const Chart = window.Chart;
Chart.register(errorBarsPlugin);
const $ = (sel) => document.querySelector(sel);

try {
  const anchor = new URLSearchParams(location.search).get('anchor');
  const ladder = await getJSON(`/api/ratings${anchor ? `?anchor=${encodeURIComponent(anchor)}` : ''}`);
  // The batch fit runs apart as games come in: before the first of a large ladder is ready, there is none.
  if (!ladder.batch) throw new Error('the first fit of the ladder is being made; reload in a few seconds');
  const rated = ladder.batch.ratings.filter((r) => Number.isFinite(r.elo));
  const lag = ladder.batchFit.current ? '' : ` The fit is of ${ladder.batchFit.games} of them (a newer one is being made).`;
  $('#ladder-note').textContent = rated.length
    ? `${rated.length} configurations from ${ladder.games} games of every sweep;${lag} 0 Elo: ${ladder.anchor}. ${ladder.batch.method}.`
    : 'No games with two or more configurations yet.';
  const config = ratingsLadder(ladder.batch);
  // Every configuration's row labelled: the box grows with them.
  $('#chart-ladder').closest('.chart-box').style.minHeight = `${rowsHeight(config)}px`;
  new Chart($('#chart-ladder'), config);
  fillTable(
    $('#ladder-table'),
    ['configuration', { text: 'Elo', num: true }, { text: '95 % interval', num: true }, { text: 'games', num: true }],
    rated.map((r) => {
      const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      swatch.style.background = configColour(r.config);
      return [el('td', {}, swatch, r.config), r.elo.toFixed(0), `[${r.low.toFixed(0)}, ${r.high.toFixed(0)}]`, r.games];
    }),
  );
} catch (err) {
  $('#ladder-note').textContent = `Cannot load the ladder: ${err.message}`;
}
