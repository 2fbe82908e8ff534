// The sweep editor: a form generated from the lab's sweep schema (GET /api/schema/sweep-spec.json)
// and agent parameter table (GET /api/schema/agents.json), and the spec's JSON, kept in step both
// ways; checked against the API as you type, with every error shown at the field it names.
// /submit?preset=<id> starts from presets/<id>.json.
import { fillAgentHelp } from './agent-help.js';
import { bindToken, el, getJSON, postJSON } from './api.js';
import { parseScalar } from './spec-doc.js';
import { SpecForm, controlId } from './spec-form.js';

const $ = (sel) => document.querySelector(sel);
const token = bindToken($('#token'));
$('#token').addEventListener('input', () => $('#token').classList.remove('invalid'));
const form = $('#spec-form');
const json = $('#f-json');
const fields = $('#spec-fields');

/** Where a blank form starts: an example spec (the fields themselves come from the schema). */
const EXAMPLE = { name: 'My sweep', players: 3, seats: ['mcts:100', 'rulebased', 'rulebased'], deals: { count: 50 } };

const [schema, catalog, presets] = await Promise.all([
  getJSON('/api/schema/sweep-spec.json').catch((err) => ({ error: err })),
  getJSON('/api/schema/agents.json').catch(() => undefined),
  getJSON('/dashboard/presets.json').catch(() => []),
]);

/** Suggestion lists: agent kinds for agent specs, an option's values for a choice option. */
function decorate(input, node, path) {
  if (node.format === 'agent-spec' || node.format === 'agent-kind') input.setAttribute('list', 'agent-kinds');
  const option = path.length === 4 && path[0] === 'seats' && path[2] === 'params' ? optionOf(specForm.doc.seats?.[path[1]]?.agent, path[3]) : undefined;
  if (option?.values) {
    const listId = `option-values-${option.kind}-${option.key}`;
    if (!document.getElementById(listId)) document.body.append(el('datalist', { id: listId }, ...option.values.map((v) => el('option', { value: v }))));
    input.setAttribute('list', listId);
  }
}

/** The minimax agent's entry of the catalogue (its own option table), if the lab has it. */
const minimaxKind = () => catalog?.kinds.find((k) => k.kind === 'minimax');

/** Option `key` of agent `kind` from the lab's tables (minimax has its own), with the kind it was read for. */
function optionOf(kind, key) {
  if (!catalog) return undefined;
  const option = kind === 'minimax' ? minimaxKind()?.parameters.find((p) => p.key === key) : catalog.parameters.find((p) => p.key === key);
  return option && { ...option, kind: kind === 'minimax' ? 'minimax' : 'mcts' };
}

/** An option added to a seat starts at that agent kind's default (from the parameter table). */
function initial(path) {
  if (path[0] !== 'seats' || path[2] !== 'params' || !catalog) return undefined;
  const kind = specForm.doc.seats?.[path[1]]?.agent;
  const option = optionOf(kind, path[3]);
  const text = kind === 'minimax' ? option?.default : (option?.defaults[kind] ?? option?.defaults.mcts);
  return text === undefined ? undefined : parseScalar(text, new Set(['number', 'string']));
}

const specForm = new SpecForm(fields, schema.error ? {} : schema, {
  onEdit: () => {
    showJson();
    scheduleCheck();
  },
  decorate,
  initial,
});

function showJson() {
  json.value = JSON.stringify(specForm.doc, null, 2);
}

/** A spec in both views: the form drawn from it, the JSON shown as it is. */
function load(spec) {
  specForm.render(structuredClone(spec));
  showJson();
  scheduleCheck();
}

/** The agents and their options as the lab's parameter tables give them: a reference under the seats. */
function showAgentOptions() {
  if (!catalog) {
    $('#bury-rule').textContent = "The agents' options could not be loaded.";
    return;
  }
  fillAgentHelp(catalog);
}

function clearErrors() {
  $('#errors').hidden = true;
  for (const node of document.querySelectorAll('.field-error')) node.remove();
  // The token's mark belongs to the last submission; it goes when the token is edited.
  for (const node of document.querySelectorAll('.invalid:not(#token)')) {
    node.classList.remove('invalid');
    node.removeAttribute('aria-invalid');
  }
}

/** Marks the control of `field` (or of its nearest named parent) and shows the message there. */
function markField(field, message) {
  const parts = (field ?? '(spec)').split('.');
  let box;
  for (let n = parts.length; n > 0 && !box; n--) box = document.querySelector(`[data-field="${CSS.escape(parts.slice(0, n).join('.'))}"]`);
  box ??= document.querySelector('[data-field="(spec)"]');
  const own = document.getElementById(controlId(parts));
  const input = own && box.contains(own) ? own : (box.querySelector('input:not([type=checkbox]), select, textarea') ?? box.querySelector('input') ?? box);
  input.classList.add('invalid');
  input.setAttribute('aria-invalid', 'true');
  const note = el('p', { class: 'field-error', id: `error-${field}`, 'data-error-for': field }, message);
  box.append(note);
  input.setAttribute('aria-describedby', note.id);
}

/**
 * Every problem of a refused spec, each at its field, and a summary listing them: the API names
 * them all (`problems`), so that a form with three mistakes is not fixed one answer at a time.
 */
function showErrors(body, status) {
  const problems = body.problems ?? [{ field: body.field, error: body.error ?? `error ${status}` }];
  for (const p of problems) markField(p.field, p.error);
  const summary = $('#errors');
  summary.hidden = false;
  if (problems.length === 1) summary.replaceChildren(el('strong', {}, 'The spec has an error: '), problems[0].error);
  else summary.replaceChildren(el('strong', {}, `The spec has ${problems.length} errors:`), el('ul', {}, ...problems.map((p) => el('li', {}, p.error))));
}

/** One problem found here (not by the API): at its field and in the summary. */
function showError(field, message) {
  showErrors({ field, error: message });
}

/** The estimated CPU time of a sweep, in the unit that reads best. */
function cpuTime(hours) {
  if (hours < 1 / 60) return `${Math.max(1, Math.round(hours * 3600))} s`;
  if (hours < 1) return `${Math.round(hours * 60)} min`;
  return `${hours < 10 ? hours.toFixed(1) : Math.round(hours)} h`;
}

/** What a valid spec will play: a sweep's cells, a race's arms, or a stepped tune's steps (its confirmation comes after). */
function sizeText(spec, body) {
  const tune = spec?.tune;
  const then = tune?.confirm ? ', then its confirmation' : '';
  if (tune?.method === 'spsa' || tune?.method === 'ntbea') return `an ${tune.method === 'spsa' ? 'SPSA' : 'NTBEA'} tune of ${tune.steps} steps, ${body.games} games${then}`;
  if (tune?.method === 'racing') return `a race over ${body.cells} arms, up to ${body.games} games${then}`;
  return `${body.games} games in ${body.cells} cell${body.cells === 1 ? '' : 's'} of ${body.gamesPerCell}`;
}

let checkTimer;
let checkSeq = 0;
async function check(spec) {
  const seq = ++checkSeq;
  const { status, body } = await postJSON('/api/sweeps/validate', spec);
  if (seq !== checkSeq) return false;
  clearErrors();
  if (status === 200) {
    $('#validation').textContent = `Valid: ${sizeText(spec, body)}, about ${cpuTime(body.estimate.cpuHours)} of CPU.`;
    return true;
  }
  $('#validation').textContent = '';
  showErrors(body, status);
  return false;
}

/** The JSON view's spec, or undefined after saying why it does not parse. */
function specFromJson() {
  try {
    return JSON.parse(json.value);
  } catch (err) {
    clearErrors();
    showError('(spec)', `not valid JSON: ${err.message}`);
    return undefined;
  }
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => {
    const spec = specFromJson();
    if (spec !== undefined) void check(spec);
  }, 300);
}

// The JSON view drives the form: each edit that parses to an object redraws it.
json.addEventListener('input', () => {
  try {
    const spec = JSON.parse(json.value);
    if (spec && typeof spec === 'object' && !Array.isArray(spec)) specForm.render(spec);
  } catch {
    // keep the form until the JSON parses again
  }
  scheduleCheck();
});

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  // A validation still in flight would clear what the submission reports.
  clearTimeout(checkTimer);
  checkSeq++;
  const spec = specFromJson();
  if (spec === undefined) return;
  const { status, body } = await postJSON('/api/sweeps', spec, token());
  clearErrors();
  if (status === 201) {
    location.href = `/sweeps/${body.id}`;
  } else if (status === 401) {
    showError('(spec)', 'This lab needs its API token: enter it next to the submit button.');
    $('#token').classList.add('invalid');
  } else {
    showErrors(body, status);
  }
});

const select = $('#preset');
for (const p of presets) select.append(el('option', { value: p.id }, p.name));
select.addEventListener('change', () => {
  const preset = presets.find((p) => p.id === select.value);
  const url = new URL(location.href);
  if (preset) url.searchParams.set('preset', preset.id);
  else url.searchParams.delete('preset');
  history.replaceState(null, '', url);
  load(preset ? preset.spec : EXAMPLE);
});

showAgentOptions();
fields.removeAttribute('aria-busy');
if (schema.error) {
  fields.replaceChildren(el('p', { class: 'alert' }, `The sweep schema could not be loaded (${schema.error.message}): edit the JSON below.`));
}
const wanted = new URL(location.href).searchParams.get('preset');
const preset = wanted ? presets.find((p) => p.id === wanted) : undefined;
select.value = preset ? preset.id : '';
load(preset ? preset.spec : EXAMPLE);
if (wanted && !preset) select.after(el('p', { class: 'alert', id: 'preset-error' }, `No preset '${wanted}' (presets: ${presets.map((p) => p.id).join(', ')}).`));
// The page is ready for input (tests wait for it).
document.body.dataset.ready = 'true';
