/**
 * Requests a lab must refuse without harm: malformed, huge, deep, of the wrong types, on every
 * route, with and without the token, with and without the JSON content type every change needs;
 * and on the dashboard's routes (pages, /vendor names that Object's prototype holds, /static paths,
 * the presets). Drawn from a seeded generator, so a failing run can be replayed with the same
 * CHAOS_SEED.
 */
import { Rng } from '@wonderlab/shared';

export interface FuzzRequest {
  /** What kind of request it is (the report groups by it). */
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface FuzzTarget {
  /** A sweep that exists (its GET routes are fuzzed with real and bad parameters). */
  sweepId: string;
  gameId: string;
  token: string;
  limits: { bodyBytes: number; depth: number };
}

const VALID_SPEC = { name: 'fuzz', players: 3, seats: ['mcts:20', 'rulebased', 'random'], deals: { count: 2 } };
const SPEC_FIELDS = ['name', 'players', 'seats', 'matchup', 'wonders', 'sides', 'deals', 'seating', 'swapSeats', 'open', 'keepRecords', 'priority'];
const ACTIONS = ['pause', 'resume', 'cancel', 'retry-failed'];

function pick<T>(rng: Rng, xs: readonly T[]): T {
  return xs[rng.int(xs.length)];
}

/** A JSON value of any type, nested up to `depth`. */
function jsonValue(rng: Rng, depth = 3): unknown {
  const kind = rng.int(depth > 0 ? 9 : 6);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.int(2) === 0;
    case 2:
      return pick(rng, [0, -1, 1.5, 1e308, -1e308, 2 ** 53, 3, 7, 9, 1e7, Number.MIN_VALUE]);
    case 3:
      return pick(rng, ['', 'x', 'mcts', 'mcts(it=abc)', 'mcts(it=10000000,time=86400)', 'Rhodos', 'é\u0000\u{1F600}', '__proto__', 'constructor', 'x'.repeat(300)]);
    case 4:
      return rng.int(1000);
    case 5:
      return String(rng.nextU32());
    case 6:
    case 7:
      return Array.from({ length: rng.int(5) }, () => jsonValue(rng, depth - 1));
    default:
      return Object.fromEntries(Array.from({ length: rng.int(5) }, () => [pick(rng, [...SPEC_FIELDS, 'params', 'agent', 'mode', 'sets', 'count', '__proto__', 'x']), jsonValue(rng, depth - 1)]));
  }
}

/** A valid spec with one field (or a nested one) replaced by a value of another type. */
function mutatedSpec(rng: Rng): unknown {
  const spec: Record<string, unknown> = structuredClone(VALID_SPEC);
  const field = pick(rng, SPEC_FIELDS);
  spec[field] = jsonValue(rng, 2);
  if (rng.int(3) === 0) spec.seats = [{ agent: pick(rng, ['mcts', 'mcts-strong', 'nope']), params: { [pick(rng, ['it', 'c', 'depth', 'time', 'scale', 'x'])]: jsonValue(rng, 1) } }, 'random', 'random'];
  return spec;
}

/** Specs that describe enormous work in a small body. */
function hugeSpec(rng: Rng): unknown {
  const n = 300 + rng.int(1700);
  switch (rng.int(6)) {
    case 0:
      return { ...VALID_SPEC, seats: [{ agent: 'mcts', params: { it: Array.from({ length: n }, (_, i) => i + 1), c: Array.from({ length: n }, (_, i) => i / n), depth: Array.from({ length: 100 }, (_, i) => i + 1) } }, 'random', 'random'] };
    case 1:
      return { ...VALID_SPEC, seats: ['mcts:5', 'mcts:5', 'random'], matchup: { specs: Array.from({ length: n }, (_, i) => `mcts:${i + 1}`), seats: [0, 1] } };
    case 2:
      return { ...VALID_SPEC, deals: { count: 10_000_000 }, seating: 'permute', players: 7, seats: Array(7).fill('random') };
    case 3:
      return { ...VALID_SPEC, seats: ['mcts(it=10000000,time=86400)', 'mcts(it=10000000,time=86400)', 'random'], deals: { count: 3000 } };
    case 4:
      return { ...VALID_SPEC, wonders: { mode: 'fixed', sets: Array.from({ length: n }, () => ['Rhodos', 'Giza', 'Rhodes']) } };
    default:
      return { ...VALID_SPEC, wonders: { mode: 'duplicated', sets: 1000 }, deals: { count: 10_000_000 } };
  }
}

const JSON_HEADERS = { 'content-type': 'application/json' };
/** The content types an HTML form on another site can send. */
const CROSS_SITE_TYPES = ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x'];
/** Names an object would answer from its prototype, and other names a path may carry. */
const ODD_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype', '', '.', '..', '%2e%2e', '..%2F..%2Fpackage.json', '%00', '%E0%A4%A', '%ZZ', 'x'.repeat(3000), 'a/b/c'];

function bytesOf(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** One request of a random kind. */
export function fuzzRequest(rng: Rng, t: FuzzTarget): FuzzRequest {
  type Headers = Record<string, string>;
  const auth = () => pick<Headers>(rng, [{}, { authorization: `Bearer ${t.token}` }, { authorization: `bearer ${t.token}x` }, { authorization: 'Basic Zm9vOmJhcg==' }, { authorization: 'Bearer ' + 'a'.repeat(4000) }]);
  const sweepId = () => pick(rng, [t.sweepId, 'zzzzzzzzzz', 'NOT_AN_ID', '..%2F..%2Fetc', 'a', 'x'.repeat(500), '%E0%A4%A']);
  const gameId = () => pick(rng, [t.gameId, 'c0-d0-o0', 'c999999-s9-d9-o9', 'not-a-game', 'c1e9-d0-o0', '%00']);
  const query = () => pick(rng, ['', '?offset=-1', '?limit=0', '?limit=1000000', '?offset=1e308', '?limit=abc', '?offset=1&offset=2', '?cellLimit=1&cellOffset=999999', '?format=xml', '?format=csv', '?x=1', `?offset=${2 ** 60}`]);
  switch (rng.int(14)) {
    case 0: {
      const path = pick(rng, ['/api/sweeps/validate', '/api/sweeps']);
      return { kind: 'spec of wrong types', method: 'POST', path, headers: { ...JSON_HEADERS, ...auth() }, body: JSON.stringify(mutatedSpec(rng)) };
    }
    case 1:
      return { kind: 'any JSON value', method: 'POST', path: pick(rng, ['/api/sweeps/validate', '/api/sweeps']), headers: { ...JSON_HEADERS, ...auth() }, body: JSON.stringify(jsonValue(rng, 4)) };
    case 2:
      return { kind: 'huge work in a small spec', method: 'POST', path: pick(rng, ['/api/sweeps/validate', '/api/sweeps']), headers: { ...JSON_HEADERS, ...auth() }, body: JSON.stringify(hugeSpec(rng)) };
    case 3: {
      const text = JSON.stringify(VALID_SPEC);
      const cut = text.slice(0, rng.int(text.length));
      const garbage = pick(rng, [cut, `${text}}`, text.replace(/"/g, "'"), '\u0000\u0001', 'null', '[]', '"x"', '{"a":1,}', '{"__proto__":{"x":1}}']);
      return { kind: 'malformed JSON', method: 'POST', path: '/api/sweeps/validate', headers: JSON_HEADERS, body: garbage };
    }
    case 4: {
      const size = t.limits.bodyBytes + 1 + rng.int(4 * t.limits.bodyBytes);
      return { kind: 'body over the size limit', method: 'POST', path: pick(rng, ['/api/sweeps/validate', '/api/sweeps']), headers: { ...JSON_HEADERS, ...auth() }, body: `{"name":"${'x'.repeat(size)}"}` };
    }
    case 5: {
      const depth = t.limits.depth + 1 + rng.int(Math.floor(t.limits.bodyBytes / 2) - t.limits.depth - 2);
      return { kind: 'deep nesting', method: 'POST', path: '/api/sweeps/validate', headers: JSON_HEADERS, body: `${'['.repeat(depth)}${']'.repeat(depth)}` };
    }
    case 6:
      return {
        kind: 'wrong content',
        method: 'POST',
        path: '/api/sweeps/validate',
        headers: pick<Headers>(rng, [{ 'content-type': 'text/plain' }, { 'content-type': 'application/json; charset=utf-16' }, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, { 'content-type': 'application/json', 'content-encoding': 'br' }, {}]),
        body: pick<string | Uint8Array>(rng, [JSON.stringify(VALID_SPEC), new Uint8Array([0xff, 0xfe, 0xfd, 0x7b]), bytesOf('{"name":"\uD800"}')]),
      };
    case 7:
      return { kind: 'sweep routes, bad parameters', method: 'GET', path: `/api/sweeps/${sweepId()}${pick(rng, ['', '/games', '/export'])}${query()}`, headers: {} };
    case 8:
      return { kind: 'game routes, bad parameters', method: 'GET', path: `/api/sweeps/${sweepId()}/games/${gameId()}${pick(rng, ['', '/timeline'])}`, headers: {} };
    case 9: {
      // As the dashboard sends them (JSON type), and as another site's form or a bare client would.
      const type = pick<Headers>(rng, [JSON_HEADERS, {}, ...CROSS_SITE_TYPES.map((t) => ({ 'content-type': t }))]);
      return { kind: 'actions', method: 'POST', path: `/api/sweeps/${pick(rng, ['zzzzzzzzzz', 'NOT_AN_ID', t.sweepId])}/${pick(rng, ACTIONS)}`, headers: { ...type, ...auth() }, body: type === JSON_HEADERS ? undefined : pick(rng, [undefined, 'x=1', '{}']) };
    }
    case 10:
      return { kind: 'reading routes', method: pick(rng, ['GET', 'HEAD']), path: pick(rng, ['/healthz', '/readyz', '/metrics', '/api/openapi.json', '/api/schema/sweep-spec.json', '/api/schema/agents.json', '/api/backlog', `/api/sweeps${query()}`, '/api/sweeps/validate']), headers: {} };
    case 11:
      return { kind: 'unknown paths and methods', method: pick(rng, ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']), path: pick(rng, ['/api/nope', '/api/sweeps/x/y/z/w', '/api/../etc/passwd', `/api/${'a/'.repeat(200)}`, '/api/%ZZ', '/api/sweeps/%00']), headers: auth() };
    case 12:
      return { kind: 'long URL', method: 'GET', path: `/api/sweeps?offset=${'9'.repeat(2000 + rng.int(6000))}`, headers: {} };
    default:
      return { kind: 'bad headers', method: 'GET', path: '/api/sweeps', headers: pick<Headers>(rng, [{ 'x-request-id': 'x'.repeat(5000) }, { accept: 'text/html' }, { 'x-large': 'y'.repeat(20_000) }, { authorization: '\u00ff\u00fe' }]) };
  }
}

/** One request to the dashboard's own process: its pages, scripts, presets, and what it passes on. */
export function fuzzDashboardRequest(rng: Rng, t: FuzzTarget): FuzzRequest {
  type Headers = Record<string, string>;
  const sweepId = () => pick(rng, [t.sweepId, 'zzzzzzzzzz', ...ODD_NAMES]);
  const query = () => pick(rng, ['', '?preset=__proto__', '?preset=constructor', '?preset=../../etc/passwd', `?ids=${t.sweepId},__proto__`, '?ids=', '?x=1&x=2', `?${'q'.repeat(4000)}`]);
  switch (rng.int(8)) {
    case 0:
      return { kind: 'dashboard: pages', method: pick(rng, ['GET', 'HEAD']), path: `${pick(rng, ['/', '/submit', '/compare', '/ladder', `/sweeps/${sweepId()}`, `/sweeps/${sweepId()}/games/${pick(rng, [t.gameId, ...ODD_NAMES])}`])}${query()}`, headers: {} };
    case 1:
      return { kind: 'dashboard: /vendor names', method: pick(rng, ['GET', 'HEAD']), path: `/vendor/${pick(rng, ['chart.umd.min.js', 'chartjs-chart-boxplot.umd.min.js', ...ODD_NAMES])}`, headers: {} };
    case 2:
      return { kind: 'dashboard: /static paths', method: pick(rng, ['GET', 'HEAD']), path: `/static/${pick(rng, ['app.css', 'js/sweep.js', 'js/', 'js', 'js/api.js/x', ...ODD_NAMES])}`, headers: {} };
    case 3:
      return { kind: 'dashboard: presets', method: pick(rng, ['GET', 'HEAD', 'POST', 'PUT', 'DELETE']), path: `/dashboard/presets.json${query()}`, headers: pick<Headers>(rng, [{}, JSON_HEADERS]) };
    case 4:
      return { kind: 'dashboard: other methods and paths', method: pick(rng, ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']), path: pick(rng, ['/', '/submit', `/sweeps/${t.sweepId}`, '/vendor/__proto__', '/static/app.css', `/${pick(rng, ODD_NAMES)}`]), headers: pick<Headers>(rng, [{}, { 'content-type': pick(rng, CROSS_SITE_TYPES) }]), body: pick(rng, [undefined, 'x=1']) };
    case 5: {
      const type = pick<Headers>(rng, [JSON_HEADERS, {}, ...CROSS_SITE_TYPES.map((c) => ({ 'content-type': c }))]);
      return { kind: 'dashboard: changes passed on to the API', method: 'POST', path: pick(rng, [`/api/sweeps/${t.sweepId}/${pick(rng, ACTIONS)}`, '/api/sweeps/validate', '/api/sweeps']), headers: type, body: pick(rng, [undefined, 'x=1', JSON.stringify(VALID_SPEC)]) };
    }
    case 6:
      return { kind: 'dashboard: probes', method: 'GET', path: pick(rng, ['/dashboard/healthz', '/healthz', '/readyz', '/metrics']), headers: {} };
    default:
      // (Not Host: fetch sends its own. The host check is tested in the security tests.)
      return { kind: 'dashboard: bad headers', method: 'GET', path: pick(rng, ['/', `/sweeps/${t.sweepId}`, '/vendor/chart.umd.min.js']), headers: pick<Headers>(rng, [{ 'if-none-match': '*' }, { 'if-modified-since': 'yesterday' }, { range: 'bytes=999999999-' }, { range: 'bytes=-1,0-0,5-2' }, { accept: '*/*;q=nope' }, { 'x-large': 'y'.repeat(20_000) }]) };
  }
}
