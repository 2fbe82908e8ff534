// The sweep editor: a form and its JSON kept in step, checked against the API as you type, with
// every error shown at the field it names.
import { bindToken, el, getJSON, postJSON } from './api.js';

const $ = (sel) => document.querySelector(sel);
const token = bindToken($('#token'));
const form = $('#spec-form');
const json = $('#f-json');
const seatsBox = $('#seats');

const list = (text) => text.split(/[;,]/).map((s) => s.trim()).filter(Boolean);
const pair = (text) => list(text).map(Number);

function seatInputs(n, values = []) {
  const current = [...seatsBox.querySelectorAll('input')].map((i) => i.value);
  seatsBox.replaceChildren(
    ...Array.from({ length: n }, (_, i) =>
      el(
        'div',
        { class: 'field', 'data-field': `seats.${i}` },
        el('label', { for: `f-seat-${i}` }, `Seat ${i}`),
        Object.assign(el('input', { id: `f-seat-${i}`, size: 60, 'data-seat': i }), { value: values[i] ?? current[i] ?? (i === 0 ? 'mcts:100' : 'rulebased') }),
      ),
    ),
  );
}

function seatValue(text) {
  const t = text.trim();
  if (t.startsWith('{')) {
    try {
      return JSON.parse(t);
    } catch {
      return t;
    }
  }
  return t;
}

/** The spec the form describes. */
function specFromForm() {
  const spec = {
    name: $('#f-name').value.trim(),
    players: Number($('#f-players').value),
    seats: [...seatsBox.querySelectorAll('input')].map((i) => seatValue(i.value)),
    wonders: { mode: $('#f-wonders').value },
    sides: $('#f-sides').value,
    deals: { firstSeed: Number($('#f-seed').value), count: Number($('#f-deals').value) },
    seating: $('#f-seating').value,
    open: $('#f-open').checked,
    keepRecords: $('#f-records').checked,
    priority: Number($('#f-priority').value),
  };
  if (spec.wonders.mode === 'fixed') spec.wonders.sets = $('#f-sets').value.split('\n').map(list).filter((s) => s.length);
  if (spec.seating === 'swap') spec.swapSeats = pair($('#f-swap').value);
  const specs = list($('#f-matchup-specs').value);
  if (specs.length) spec.matchup = { specs, seats: pair($('#f-matchup-seats').value) };
  return spec;
}

function formFromSpec(spec) {
  $('#f-name').value = spec.name ?? 'My sweep';
  $('#f-players').value = spec.players ?? 3;
  seatInputs(spec.players ?? 3, (spec.seats ?? []).map((s) => (typeof s === 'string' ? s : JSON.stringify(s))));
  $('#f-wonders').value = spec.wonders?.mode ?? 'random';
  $('#f-sets').value = (spec.wonders?.sets ?? []).map((s) => s.join(', ')).join('\n');
  $('#f-sides').value = spec.sides ?? 'random';
  $('#f-seed').value = spec.deals?.firstSeed ?? 1;
  $('#f-deals').value = spec.deals?.count ?? 50;
  $('#f-seating').value = spec.seating ?? 'fixed';
  $('#f-swap').value = (spec.swapSeats ?? [0, 1]).join(',');
  $('#f-open').checked = Boolean(spec.open);
  $('#f-records').checked = spec.keepRecords ?? true;
  $('#f-priority').value = spec.priority ?? 1;
  $('#f-matchup-specs').value = (spec.matchup?.specs ?? []).join('; ');
  $('#f-matchup-seats').value = (spec.matchup?.seats ?? [0, 1]).join(',');
}

function clearErrors() {
  $('#errors').hidden = true;
  for (const node of document.querySelectorAll('.field-error')) node.remove();
  for (const node of document.querySelectorAll('.invalid')) {
    node.classList.remove('invalid');
    node.removeAttribute('aria-invalid');
  }
}

/** Marks the input of `field` (or of its nearest named parent) and shows the message there. */
function showError(field, message) {
  const parts = (field ?? '(spec)').split('.');
  let box;
  for (let n = parts.length; n > 0 && !box; n--) box = document.querySelector(`[data-field="${parts.slice(0, n).join('.')}"]`);
  box ??= document.querySelector('[data-field="(spec)"]');
  const input = box.querySelector('input, select, textarea') ?? box;
  input.classList.add('invalid');
  input.setAttribute('aria-invalid', 'true');
  const note = el('p', { class: 'field-error', id: `error-${field}`, 'data-error-for': field }, message);
  box.append(note);
  input.setAttribute('aria-describedby', note.id);
  const summary = $('#errors');
  summary.hidden = false;
  summary.replaceChildren(el('strong', {}, 'The spec has an error: '), message);
}

let checkTimer;
let checkSeq = 0;
async function check(spec) {
  const seq = ++checkSeq;
  const { status, body } = await postJSON('/api/sweeps/validate', spec);
  if (seq !== checkSeq) return false;
  clearErrors();
  if (status === 200) {
    $('#validation').textContent = `Valid: ${body.games} games in ${body.cells} cell${body.cells === 1 ? '' : 's'} of ${body.gamesPerCell}.`;
    return true;
  }
  $('#validation').textContent = '';
  showError(body.field, body.error ?? `error ${status}`);
  return false;
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => {
    let spec;
    try {
      spec = JSON.parse(json.value);
    } catch (err) {
      clearErrors();
      showError('(spec)', `not valid JSON: ${err.message}`);
      return;
    }
    void check(spec);
  }, 300);
}

form.addEventListener('input', (e) => {
  if (e.target === json) {
    try {
      formFromSpec(JSON.parse(json.value));
    } catch {
      // keep the form until the JSON parses again
    }
  } else {
    if (e.target.id === 'f-players') seatInputs(Math.min(7, Math.max(3, Number(e.target.value) || 3)));
    json.value = JSON.stringify(specFromForm(), null, 2);
  }
  scheduleCheck();
});
form.addEventListener('change', (e) => {
  if (e.target !== json) {
    json.value = JSON.stringify(specFromForm(), null, 2);
    scheduleCheck();
  }
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  let spec;
  try {
    spec = JSON.parse(json.value);
  } catch (err) {
    clearErrors();
    showError('(spec)', `not valid JSON: ${err.message}`);
    return;
  }
  const { status, body } = await postJSON('/api/sweeps', spec, token());
  clearErrors();
  if (status === 201) {
    location.href = `/sweeps/${body.id}`;
  } else if (status === 401) {
    showError('(spec)', 'This lab needs its API token: enter it next to the submit button.');
    $('#token').classList.add('invalid');
  } else {
    showError(body.field, body.error ?? `error ${status}`);
  }
});

const presets = await getJSON('/dashboard/presets.json').catch(() => []);
const select = $('#preset');
for (const p of presets) select.append(el('option', { value: p.id }, p.name));
select.addEventListener('change', () => {
  const preset = presets.find((p) => p.id === select.value);
  formFromSpec(preset ? preset.spec : { name: '', players: 3 });
  json.value = JSON.stringify(preset ? preset.spec : specFromForm(), null, 2);
  scheduleCheck();
});
seatInputs(3);
json.value = JSON.stringify(specFromForm(), null, 2);
