// Talking to the coordinator's API (same origin) and formatting its numbers.

export async function getJSON(path) {
  const res = await fetch(path, { headers: { accept: 'application/json' } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(body.error ?? `${res.status} ${res.statusText}`), { status: res.status, body });
  return body;
}

/** POST JSON; resolves to { status, body } whatever the status. */
export async function postJSON(path, body, token) {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(path, { method: 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json().catch(() => ({})) };
}

const TOKEN_KEY = 'wonderlab.apiToken';
/** The token input of a page, remembered in this browser. */
export function bindToken(input) {
  input.value = localStorage.getItem(TOKEN_KEY) ?? '';
  input.addEventListener('change', () => localStorage.setItem(TOKEN_KEY, input.value));
  return () => input.value.trim();
}

export const pct = (x, digits = 1) => (Number.isFinite(x) ? (100 * x).toFixed(digits) : '–');
export const num = (x, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

export function duration(seconds) {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

/**
 * An agent by its one display name (its canonical spec, as the ladder shows it), with the spec as
 * submitted beside it where that differs: on a second line and on hover. Text nodes only.
 */
export function agentName(shown, submitted = shown) {
  if (shown === submitted) return el('span', { class: 'agent-name' }, shown);
  return el('span', { class: 'agent-name', title: `as submitted: ${submitted}` }, shown, el('br'), el('small', { class: 'muted submitted' }, submitted));
}

/**
 * A help text as nodes: its `code` spans (markdown backticks, as the schema and the parameter table
 * write them) as <code> elements, the rest as text. Built with text nodes only, never as HTML: the
 * text may carry anything a spec or a preset does.
 */
export function withCode(text) {
  return String(text)
    .split(/`([^`]*)`/)
    .map((part, i) => (i % 2 === 1 ? el('code', {}, part) : part))
    .filter((part) => part !== '');
}

/** A help text where markup cannot go (an <option>, a title attribute): its backticks dropped. */
export const plainText = (text) => String(text).replace(/`([^`]*)`/g, '$1');

export function fillTable(table, header, rows) {
  table.replaceChildren(
    el('thead', {}, el('tr', {}, ...header.map((h) => el('th', { class: h.num ? 'num' : undefined, scope: 'col' }, h.text ?? h)))),
    el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell, i) => (cell instanceof Element && cell.tagName === 'TD' ? cell : el('td', { class: header[i]?.num ? 'num' : undefined }, cell)))))),
  );
}
