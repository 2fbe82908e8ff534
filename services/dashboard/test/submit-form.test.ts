/**
 * The New-sweep form against every preset in presets/, in a real browser (Debian's chromium driven
 * by playwright-core), both ways:
 * - spec → form: /submit?preset=<id> shows every value of the preset in the control its path names,
 *   and the schema's default where the preset leaves a field out; a spec typed into the JSON view
 *   shows in the form;
 * - form → spec: submitted unchanged, the request body is the preset byte for byte and the stored
 *   spec (GET /api/sweeps/:id) is the preset with the schema's defaults; changing any one control
 *   changes that one value of the JSON, and nothing else.
 * The presets are listed when the tests are collected: a new preset is covered without touching
 * this file. Needs chromium (CHROMIUM_PATH, default /usr/bin/chromium); screenshots go to
 * test-artifacts/submit-form/.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { parseSweepSpec } from '@wonderlab/shared';
import { api, type TestLab } from '../../coordinator/test/harness.js';
import { BrowserTests, submitSweep } from './browser.js';

const browser = new BrowserTests('submit-form');
const ARTIFACTS = browser.artifacts;
const pageErrors = browser.pageErrors;
const PRESETS_DIR = fileURLToPath(new URL('../../../presets/', import.meta.url));
const PRESETS = readdirSync(PRESETS_DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => ({ id: f.replace(/\.json$/, ''), spec: JSON.parse(readFileSync(PRESETS_DIR + f, 'utf8')) as Record<string, unknown> }));

type Path = (string | number)[];
const controlId = (path: Path) => `#f-${path.join('-')}`;

/**
 * Every value of a spec with its path, as the form has one control per value: an agent option's
 * value (one value or a list to sweep) is one control.
 */
function leaves(value: unknown, path: Path = []): { path: Path; value: unknown }[] {
  if (path.length === 4 && path[0] === 'seats' && path[2] === 'params') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, [...path, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]));
  return [{ path, value }];
}

/** What a control shows for a value: an option's list joined by commas, anything else as text. */
const shownAs = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));

function setAt(doc: any, path: Path, value: unknown): void {
  let v = doc;
  for (const k of path.slice(0, -1)) v = v[k];
  v[path[path.length - 1]] = value;
}

/** Another value of the same kind: a number plus one, a text with a letter more, a list with its first value changed. */
function changed(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return [changed(value[0]), ...value.slice(1)];
  return `${value}x`;
}

async function controlValue(page: Page, path: Path): Promise<string | boolean> {
  return page.$eval(controlId(path), (el) => ((el as HTMLInputElement).type === 'checkbox' ? (el as HTMLInputElement).checked : (el as HTMLInputElement).value));
}

async function jsonView(page: Page): Promise<unknown> {
  return JSON.parse(await page.inputValue('#f-json'));
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
}

/** The defaults the schema gives to fields a spec leaves out, where the form shows them: path → value. */
function defaultsShown(schema: any, spec: any, path: Path = []): { path: Path; value: unknown }[] {
  const out: { path: Path; value: unknown }[] = [];
  for (const [key, node] of Object.entries<any>(schema.properties ?? {})) {
    const p = [...path, key];
    const value = spec?.[key];
    if (node.properties && value !== undefined) out.push(...defaultsShown(node, value, p));
    if (value !== undefined || node.default === undefined) continue;
    // An object's default (wonders: { mode: 'random' }) shows in its tag's select.
    if (typeof node.default === 'object') for (const [k, v] of Object.entries(node.default)) out.push({ path: [...p, k], value: v });
    else out.push({ path: p, value: node.default });
  }
  return out;
}

let lab: TestLab;
let schema: any;

beforeAll(
  () =>
    browser.start(async () => {
      // No workers: the sweeps are created, never played; one game of each is queued at most.
      lab = await browser.startLab({ workers: 0, feedWindow: 1 });
      schema = (await api(lab.url, '/api/schema/sweep-spec.json')).body;
    }),
  30_000,
);

afterAll(() => browser.close(), 30_000);

const newPage = () => browser.newPage();

describe('the New-sweep form and every preset', () => {
  test('there are presets to check', () => {
    expect(PRESETS.length).toBeGreaterThan(0);
  });

  test('the blank form has a field for every property of the sweep schema, and no other', async () => {
    const page = await newPage();
    try {
      await open(page, `${lab.url}/submit`);
      const top = await page.$$eval('#spec-fields > [data-field]', (els) => els.map((e) => e.getAttribute('data-field')));
      expect(top).toEqual(Object.keys(schema.properties));
      // Every MCTS option of the parameter table can be added to a seat with options.
      await page.selectOption('#f-seats-0-form', { label: 'agent with options' });
      const options = await page.$$eval('#f-seats-0-params-add option', (os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
      const catalog = (await api(lab.url, '/api/schema/agents.json')).body;
      // ... and every minimax option too (a key both have, such as depth, once).
      const minimax = catalog.kinds.find((k: { kind: string }) => k.kind === 'minimax');
      const mctsKeys = catalog.parameters.map((p: { key: string }) => p.key);
      expect(options).toEqual([...mctsKeys, ...minimax.parameters.map((p: { key: string }) => p.key).filter((k: string) => !mctsKeys.includes(k))]);
      // An option added starts at the seat's agent's default, from the same table.
      await page.selectOption('#f-seats-0-params-add', 'c');
      const c = catalog.parameters.find((p: { key: string }) => p.key === 'c');
      expect(await page.inputValue('#f-seats-0-params-c')).toBe(c.defaults.mcts);
      expect(((await jsonView(page)) as any).seats[0]).toEqual({ agent: 'mcts', params: { c: Number(c.defaults.mcts) } });
      // A minimax seat's option starts at minimax's default, from its own table.
      await page.fill('#f-seats-0-agent', 'minimax');
      await page.selectOption('#f-seats-0-params-add', 'keep');
      const keep = minimax.parameters.find((p: { key: string }) => p.key === 'keep');
      expect(await page.inputValue('#f-seats-0-params-keep')).toBe(keep.default);
    } finally {
      await page.close();
    }
  }, 30_000);

  test('the game count, the CPU estimate and the submit button stay in view, at the top and scrolled to the bottom', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await open(page, `${lab.url}/submit?preset=thesis-7.4-iterations`);
      await page.waitForFunction(() => document.querySelector('#validation')?.textContent?.startsWith('Valid:'));
      expect(await page.textContent('#validation')).toMatch(/^Valid: \d+ games in 3 cells of \d+, about .+ of CPU\.$/);
      const inView = () =>
        page.$$eval(['#validation', '#submit'].join(','), (els) => els.map((e) => {
          const r = e.getBoundingClientRect();
          return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;
        }));
      expect(await page.evaluate(() => document.documentElement.scrollHeight > 2 * window.innerHeight), 'a form longer than the window').toBe(true);
      expect(await inView()).toEqual([true, true]);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      expect(await inView()).toEqual([true, true]);
    } finally {
      await page.close();
    }
  }, 30_000);

  test('help texts show `code` spans as code, never their backticks, and never as HTML', async () => {
    const page = await newPage();
    try {
      await open(page, `${lab.url}/submit`);
      const hints = await page.$$eval('.hint, #agent-options-table td', (els) => els.map((e) => e.textContent ?? ''));
      expect(hints.filter((t) => t.includes('`')), 'help texts with backticks').toEqual([]);
      expect(await page.$$eval('.hint code', (els) => els.map((e) => e.textContent))).toContain('mcts:IT,TIME,DEPTH');
      expect(await page.$$eval('#agent-options-table td code', (els) => els.map((e) => e.textContent))).toContain('worlds');
      // Text only: markup inside a code span stays text.
      // (A string, not a function: vitest would rewrite the function's import().)
      const made = await page.evaluate(`(async () => {
        const { withCode } = await import('/static/js/api.js');
        const p = document.createElement('p');
        p.append(...withCode('a \`<img src=x onerror=alert(1)>\` b'));
        return { html: p.innerHTML, images: p.querySelectorAll('img').length };
      })()`);
      expect(made).toEqual({ html: 'a <code>&lt;img src=x onerror=alert(1)&gt;</code> b', images: 0 });
    } finally {
      await page.close();
    }
  }, 30_000);

  test('JSON that does not parse is named on (spec), both while typing and on submit, and nothing is stored', async () => {
    const page = await newPage();
    try {
      await open(page, `${lab.url}/submit`);
      const before = (await api(lab.url, '/api/sweeps')).body.length;
      await page.fill('#f-json', '{"name": "half a spec", ');
      const note = '[data-error-for="(spec)"]';
      await page.waitForSelector(note);
      expect(await page.textContent(note)).toMatch(/^not valid JSON: /);
      await page.click('#submit');
      await page.waitForSelector(note);
      expect(await page.textContent(note)).toMatch(/^not valid JSON: /);
      expect(page.url()).toBe(`${lab.url}/submit`);
      expect((await api(lab.url, '/api/sweeps')).body).toHaveLength(before);
    } finally {
      await page.close();
    }
  }, 30_000);

  test('a tune built in the form: its block included, a method chosen, an option named; submitted, the lab runs it as a tune', async () => {
    const page = await newPage();
    try {
      await open(page, `${lab.url}/submit`);
      await page.fill('#f-json', JSON.stringify({ name: 'tune from the form', players: 3, seats: ['mcts(it=8,depth=2)', 'mcts(it=8,depth=2)', 'random'], deals: { firstSeed: 500, count: 2 } }));
      await page.setChecked('#f-tune-include', true);
      expect(await page.inputValue('#f-tune-method')).toBe('racing');
      await page.selectOption('#f-tune-method', 'spsa');
      await page.fill('#f-tune-params-0-key', 'c');
      await page.fill('#f-tune-steps', '6');
      await page.setChecked('#f-tune-confirm-include', true);
      await page.fill('#f-tune-confirm-firstSeed', '90000');
      const tune = { method: 'spsa', params: [{ key: 'c' }], steps: 6, confirm: { firstSeed: 90000 } };
      expect(((await jsonView(page)) as any).tune).toMatchObject(tune);
      await page.waitForFunction(() => /^Valid: an SPSA tune of 6 steps, 12 games/.test(document.querySelector('#validation')?.textContent ?? ''), undefined, { timeout: 5000 });
      const posted = page.waitForRequest((r) => r.url() === `${lab.url}/api/sweeps` && r.method() === 'POST');
      await page.click('#submit');
      expect((await posted).postDataJSON().tune).toMatchObject(tune);
      await page.waitForURL(/\/sweeps\/[^/]+$/);
      const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
      const stored = (await api(lab.url, `/api/sweeps/${id}?cellLimit=1`)).body;
      expect(stored.spec.tune).toMatchObject({ ...tune, confirm: { firstSeed: 90000, deals: 500 } });
      expect(stored.tune).toMatchObject({ method: 'spsa', steps: 6, options: ['c'] });
    } finally {
      await page.close();
    }
  }, 30_000);

  test('an option list typed as JSON writes it, [0.2, 0.7, 1.5], sweeps those three values', async () => {
    const page = await newPage();
    try {
      await open(page, `${lab.url}/submit`);
      await page.fill('#f-json', JSON.stringify({ name: 'typed list', players: 3, seats: [{ agent: 'mcts', params: { c: 0.4 } }, 'rulebased', 'rulebased'], deals: { count: 2 } }));
      await page.fill('#f-seats-0-params-c', '[0.2, 0.7, 1.5]');
      expect(((await jsonView(page)) as any).seats[0].params.c).toEqual([0.2, 0.7, 1.5]);
      // (The blank form's example was checked first: wait for this spec's answer.)
      await page.waitForFunction(() => /^Valid: 6 games in 3 cells of 2,/.test(document.querySelector('#validation')?.textContent ?? ''), undefined, { timeout: 5000 });
    } finally {
      await page.close();
    }
  }, 30_000);

  test('every bad field shows at once, each at its control, and the summary lists them all', async () => {
    const page = await newPage();
    try {
      await open(page, `${lab.url}/submit`);
      await page.fill('#f-json', JSON.stringify({ name: 'three mistakes', players: 3, seats: [{ agent: 'mcts', params: { c: 0.4 } }, 'rulebased', 'rulebased'], deals: { count: 2 } }));
      await page.fill('#f-seats-0-params-c', 'abc');
      await page.fill('#f-seats-1', 'mcts(it=zero)');
      await page.fill('#f-deals-count', '0');
      await page.waitForFunction(() => document.querySelectorAll('.field-error').length === 3);
      const notes = await page.$$eval('.field-error', (els) => els.map((e) => e.getAttribute('data-error-for')).sort());
      expect(notes).toEqual(['deals.count', 'seats.0.params.c', 'seats.1']);
      for (const id of ['#f-seats-0-params-c', '#f-seats-1', '#f-deals-count']) expect(await page.getAttribute(id, 'aria-invalid'), id).toBe('true');
      expect(await page.textContent('#errors strong')).toBe('The spec has 3 errors:');
      expect(await page.$$eval('#errors li', (els) => els.map((e) => e.textContent!.split(':')[0]).sort())).toEqual(['deals.count', 'seats.0.params.c', 'seats.1']);
    } finally {
      await page.close();
    }
  }, 30_000);

  test.each(PRESETS.map((p) => [p.id, p.spec] as const))('%s: the form shows it, submits it unchanged, and edits one value at a time', async (id, preset) => {
    const page = await newPage();
    const errorsBefore = pageErrors.length;
    try {
      // spec → form: every value in its control, the schema's defaults where the preset has none.
      await open(page, `${lab.url}/submit?preset=${id}`);
      expect(await page.$eval('#preset', (s) => (s as HTMLSelectElement).value)).toBe(id);
      expect(await jsonView(page)).toEqual(preset);
      const mismatches: string[] = [];
      for (const leaf of leaves(preset)) {
        const shown = await controlValue(page, leaf.path).catch(() => '(no control)');
        const expected = typeof leaf.value === 'boolean' ? leaf.value : shownAs(leaf.value);
        if (shown !== expected) mismatches.push(`${leaf.path.join('.')}: shows ${JSON.stringify(shown)}, the preset has ${JSON.stringify(leaf.value)}`);
      }
      for (const d of defaultsShown(schema, preset)) {
        const shown = await controlValue(page, d.path).catch(() => '(no control)');
        const expected = typeof d.value === 'boolean' ? d.value : String(d.value);
        if (shown !== expected) mismatches.push(`${d.path.join('.')} (left out): shows ${JSON.stringify(shown)}, the default is ${JSON.stringify(d.value)}`);
      }
      expect(mismatches, 'controls that do not show the preset').toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}${id}.png`, fullPage: true });

      // form → spec, unchanged: the request carries the preset itself; the stored spec is the preset with its defaults.
      const posted = page.waitForRequest((r) => r.url() === `${lab.url}/api/sweeps` && r.method() === 'POST');
      await page.click('#submit');
      const request = await posted;
      expect(request.postDataJSON()).toEqual(preset);
      await page.waitForURL(/\/sweeps\/[^/]+$/);
      const sweepId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
      const stored = await api(lab.url, `/api/sweeps/${sweepId}?cellLimit=1`);
      expect(stored.status).toBe(200);
      expect(stored.body.spec).toEqual(JSON.parse(JSON.stringify(parseSweepSpec(preset))));

      // spec → form through the JSON view: every value changed there shows in its control.
      await open(page, `${lab.url}/submit?preset=${id}`);
      const typed = structuredClone(preset) as any;
      const editable = leaves(preset).filter((l) => l.path.join('.') !== 'wonders.mode');
      for (const leaf of editable) setAt(typed, leaf.path, changed(leaf.value));
      await page.fill('#f-json', JSON.stringify(typed, null, 2));
      const notFollowed: string[] = [];
      for (const leaf of leaves(typed)) {
        const shown = await controlValue(page, leaf.path).catch(() => '(no control)');
        const expected = typeof leaf.value === 'boolean' ? leaf.value : shownAs(leaf.value);
        if (shown !== expected) notFollowed.push(`${leaf.path.join('.')}: shows ${JSON.stringify(shown)}, the JSON has ${JSON.stringify(leaf.value)}`);
      }
      expect(notFollowed, 'controls that did not follow the JSON view').toEqual([]);

      // form → spec, one control at a time: the JSON changes at that path only. The wonders mode
      // goes last: another mode has other fields.
      await open(page, `${lab.url}/submit?preset=${id}`);
      const expected = structuredClone(preset) as any;
      const order = [...leaves(preset).filter((l) => l.path.join('.') !== 'wonders.mode'), ...leaves(preset).filter((l) => l.path.join('.') === 'wonders.mode')];
      const spilled: string[] = [];
      for (const leaf of order) {
        const selector = controlId(leaf.path);
        const tag = await page.$eval(selector, (el) => (el.tagName === 'SELECT' ? 'select' : (el as HTMLInputElement).type));
        let next: unknown;
        if (tag === 'select') {
          const options = await page.$$eval(`${selector} option`, (os) => os.map((o) => (o as HTMLOptionElement).value));
          next = options.find((o) => o !== leaf.value);
          await page.selectOption(selector, next as string);
        } else if (tag === 'checkbox') {
          next = !leaf.value;
          await page.setChecked(selector, next as boolean);
        } else {
          next = changed(leaf.value);
          await page.fill(selector, shownAs(next));
        }
        const now = (await jsonView(page)) as any;
        if (leaf.path.join('.') === 'wonders.mode') {
          // Everything but the wonders is as it was; the wonders have the new mode.
          expect({ ...now, wonders: undefined }).toEqual({ ...expected, wonders: undefined });
          expect(now.wonders.mode).toBe(next);
          continue;
        }
        setAt(expected, leaf.path, next);
        if (JSON.stringify(now) !== JSON.stringify(expected)) spilled.push(`changing ${leaf.path.join('.')} to ${JSON.stringify(next)} gave ${JSON.stringify(now)}`);
      }
      expect(spilled, 'edits that changed more (or less) than their own value').toEqual([]);
      expect(pageErrors.slice(errorsBefore), 'uncaught errors in the page').toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
