// The agents' reference that the New-sweep and play pages show beside their agent fields, from
// the lab's catalogue (GET /api/schema/agents.json): the kinds as suggestions for the fields, every
// MCTS option with each named agent's default, the bury rule, and minimax's own options.
import { el, plainText, withCode } from './api.js';

const $ = (sel) => document.querySelector(sel);

/** The suggestions of an agent field: every kind, then each outside agent installed as the spec that plays it. */
export function agentSuggestions(catalog) {
  return [...catalog.kinds.map((k) => el('option', { value: k.kind }, plainText(k.summary))), ...(catalog.outside ?? []).map((a) => el('option', { value: a.spec }, `${a.summary} (outside agent ${a.version})`))];
}

/** Fills #agent-kinds, #agent-options-table, #bury-rule and #minimax-options-table of the page. */
export function fillAgentHelp(catalog) {
  const named = catalog.kinds.filter((k) => k.mcts).map((k) => k.kind);
  $('#agent-kinds').replaceChildren(...agentSuggestions(catalog));
  const table = $('#agent-options-table');
  table.querySelector('thead').replaceChildren(el('tr', {}, ...['key', 'range', ...named, 'meaning'].map((h) => el('th', { scope: 'col' }, h))));
  table.querySelector('tbody').replaceChildren(
    ...catalog.parameters.map((p) => el('tr', { 'data-key': p.key }, el('th', { scope: 'row' }, el('code', {}, p.key)), el('td', {}, p.range), ...named.map((k) => el('td', {}, p.defaults[k])), el('td', {}, ...withCode(p.meaning)))),
  );
  $('#bury-rule').replaceChildren(...withCode(`A grouped discard or stage arm uses ${catalog.buryRule}.`));
  const minimax = catalog.kinds.find((k) => k.kind === 'minimax');
  const own = $('#minimax-options-table');
  own.hidden = !minimax;
  if (!minimax) return;
  own.querySelector('thead').replaceChildren(el('tr', {}, ...['key', 'range', 'default', 'meaning'].map((h) => el('th', { scope: 'col' }, h))));
  own.querySelector('tbody').replaceChildren(
    ...minimax.parameters.map((p) => el('tr', { 'data-key': p.key }, el('th', { scope: 'row' }, el('code', {}, p.key)), el('td', {}, p.range), el('td', {}, p.default), el('td', {}, ...withCode(p.meaning)))),
  );
}
