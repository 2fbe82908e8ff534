// The sweeps list: every sweep with its progress, refreshed every two seconds.
import { duration, el, getJSON } from './api.js';

const body = document.querySelector('#sweeps tbody');
const empty = document.getElementById('empty');
const compare = /** @type {HTMLButtonElement} */ (document.getElementById('compare'));
/** Sweeps ticked for comparison (kept across the refreshes that redraw the rows). */
const ticked = new Set();
compare.addEventListener('click', () => (location.href = `/compare?ids=${[...ticked].map(encodeURIComponent).join(',')}`));

async function refresh() {
  try {
    const sweeps = await getJSON('/api/sweeps');
    empty.hidden = sweeps.length > 0;
    body.replaceChildren(
      ...sweeps.map((s) => {
        const progress = el('progress', { max: 1, value: s.progress, 'aria-label': `${s.name}: ${(100 * s.progress).toFixed(1)} % done` });
        const box = el('input', { type: 'checkbox', 'aria-label': `compare ${s.name}`, 'data-compare': s.id });
        box.checked = ticked.has(s.id);
        box.addEventListener('change', () => {
          if (box.checked) ticked.add(s.id);
          else ticked.delete(s.id);
          compare.disabled = ticked.size < 2;
        });
        return el(
          'tr',
          { 'data-sweep': s.id },
          el('td', {}, box),
          el('td', {}, el('a', { href: `/sweeps/${s.id}` }, s.name)),
          el('td', { class: `status status-${s.status}` }, s.status),
          el('td', {}, progress),
          el('td', { class: 'num' }, `${s.counts.done} / ${s.counts.total}${s.counts.failed ? ` (${s.counts.failed} failed)` : ''}`),
          el('td', { class: 'num' }, s.gamesPerSecond ? s.gamesPerSecond.toFixed(1) : '–'),
          el('td', { class: 'num' }, duration(s.etaSeconds)),
          el('td', {}, new Date(s.created).toLocaleString()),
        );
      }),
    );
  } catch (err) {
    empty.hidden = false;
    empty.textContent = `Cannot reach the lab: ${err.message}`;
  }
}

const workersLine = document.getElementById('workers');
const workersLost = document.getElementById('workers-lost');
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The workers heard from (GET /api/workers): capacity now, and any that went silent without stopping. */
async function refreshWorkers() {
  try {
    const w = await getJSON('/api/workers');
    workersLine.textContent = `Workers: ${plural(w.seen.length, 'worker')} seen in the last ${Math.round(w.seenWithinSeconds)} s, ${plural(w.slots, 'game slot')}.`;
    workersLost.hidden = w.silent.length === 0;
    if (w.silent.length > 0) {
      const since = new Date(Math.max(...w.silent.map((s) => s.lastSeen))).toLocaleTimeString();
      const slots = w.silent.reduce((sum, s) => sum + s.slots, 0);
      workersLost.textContent = `${plural(w.silent.length, 'worker')} silent since ${since} without having stopped (killed, crashed or cut off from Redis): ${plural(slots, 'game slot')} lost until ${w.silent.length === 1 ? 'it comes' : 'they come'} back; ${w.silent.length === 1 ? 'its' : 'their'} games went back to the queue.`;
    }
  } catch (err) {
    workersLine.textContent = `Workers: unknown (${err.message})`;
  }
}

await Promise.all([refresh(), refreshWorkers()]);
setInterval(refresh, 2000);
setInterval(refreshWorkers, 5000);
