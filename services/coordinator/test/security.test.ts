/**
 * The lab against other sites, over real HTTP on a real lab (the coordinator with the dashboard
 * mounted, as `wonderlab serve` runs it): security headers on pages and API answers, no prototype
 * lookups by a name from the URL, changes refused without a JSON content type (what a cross-site
 * form cannot send), the allowed-hosts check, and the rule that a lab reachable beyond this
 * machine does not start without API_TOKEN.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ConfigError } from '@wonderlab/shared/store';
import { reachedAt, unguardedProblem } from '@wonderlab/shared/http';
import { coordinatorConfig } from '@wonderlab/coordinator';
import { api, rawRequest as raw, startLab, type TestLab } from './harness.js';
import { ENTRY, exitOf, startProcess } from '../../../test/support/processes.js';

/** What a page on another site can send without a CORS preflight: an HTML form's bodies, or none. */
const CROSS_SITE_POSTS: { what: string; headers: Record<string, string>; body?: string }[] = [
  { what: 'a form (urlencoded)', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x=1' },
  { what: 'a text/plain form', headers: { 'content-type': 'text/plain' }, body: '{"name":"x"}' },
  { what: 'a multipart form', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b--\r\n' },
  { what: 'no body and no type', headers: {} },
];

const SPEC = { name: 'security test', players: 3, seats: ['random', 'random', 'rulebased'], deals: { count: 50 } };

function expectSecurityHeaders(headers: Record<string, string | string[] | undefined> | Headers, what: string) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  const csp = String(get('content-security-policy'));
  expect(csp, `${what}: Content-Security-Policy`).toContain("frame-ancestors 'none'");
  expect(csp, `${what}: Content-Security-Policy`).toContain("script-src 'self'");
  expect(csp, `${what}: no inline script allowed`).not.toContain('unsafe-inline');
  expect(get('x-frame-options'), `${what}: X-Frame-Options`).toBe('DENY');
  expect(get('x-content-type-options'), `${what}: X-Content-Type-Options`).toBe('nosniff');
  expect(get('referrer-policy'), `${what}: Referrer-Policy`).toBe('no-referrer');
}

describe('a lab that answers any host', () => {
  let lab: TestLab;
  let running: string;

  beforeAll(async () => {
    // No worker: the sweep stays running for as long as the tests need it.
    lab = await startLab({ workers: 0 });
    const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: SPEC });
    expect(created.status).toBe(201);
    running = created.body.id;
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('pages, scripts, API answers, refusals and probes carry the security headers', async () => {
    const paths = ['/', '/submit', `/sweeps/${running}`, '/compare', '/ladder', `/sweeps/${running}/games/c0-d0-o0`, '/static/app.css', '/static/js/sweep.js', '/vendor/chart.umd.min.js', '/dashboard/presets.json', '/api/sweeps', `/api/sweeps/${running}`, '/api/openapi.json', '/api/nope', '/vendor/nope', '/nope', '/healthz', '/readyz', '/metrics'];
    for (const path of paths) {
      const res = await raw(lab.url, path);
      expect(res.status, path).toBeLessThan(500);
      expectSecurityHeaders(res.headers, `GET ${path}`);
    }
    const refused = await raw(lab.url, `/api/sweeps/${running}/cancel`, { method: 'POST' });
    expect(refused.status).toBe(415);
    expectSecurityHeaders(refused.headers, 'a refused POST');
  });

  test("/vendor/ names of Object's prototype are 404s, with no stack", async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'nope.js']) {
      const res = await raw(lab.url, `/vendor/${name}`);
      expect(res.status, `/vendor/${name}`).toBe(404);
      expect(JSON.parse(res.text).error, `/vendor/${name}`).toContain('no such vendor script');
      expect(res.text).not.toMatch(/\bat .*\.js:\d+/);
    }
    // The real names are still served.
    for (const name of ['chart.umd.min.js', 'chartjs-chart-boxplot.umd.min.js']) {
      const res = await raw(lab.url, `/vendor/${name}`);
      expect(res.status, `/vendor/${name}`).toBe(200);
      expect(res.headers['content-type']).toContain('javascript');
    }
  });

  test('a cross-site form cannot cancel, pause or retry a sweep, nor create one: 415 naming the header, the sweep still running', async () => {
    for (const action of ['cancel', 'pause', 'resume', 'retry-failed']) {
      for (const post of CROSS_SITE_POSTS) {
        const res = await raw(lab.url, `/api/sweeps/${running}/${action}`, { method: 'POST', headers: post.headers, body: post.body });
        expect(res.status, `${action}, ${post.what}`).toBe(415);
        const body = JSON.parse(res.text);
        expect(body.field).toBe('headers.content-type');
        expect(body.error).toContain('Content-Type: application/json');
      }
    }
    for (const path of ['/api/sweeps', '/api/sweeps/validate']) {
      for (const post of CROSS_SITE_POSTS) {
        const res = await raw(lab.url, path, { method: 'POST', headers: post.headers, body: post.body ?? JSON.stringify(SPEC) });
        expect(res.status, `${path}, ${post.what}`).toBe(415);
        expect(JSON.parse(res.text).field).toBe('headers.content-type');
      }
    }
    // Other methods that change things are held to the same rule, even where no route exists.
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await raw(lab.url, `/api/sweeps/${running}`, { method, headers: { 'content-type': 'text/plain' }, body: 'x' });
      expect(res.status, method).toBe(415);
    }
    const sweeps = await api(lab.url, '/api/sweeps');
    expect(sweeps.body.map((s: { id: string }) => s.id)).toEqual([running]);
    expect((await api(lab.url, `/api/sweeps/${running}`)).body.status).toBe('running');
    // The same requests with the JSON type pass: a parameter of the type is allowed, and a cancel without a body works.
    const validated = await raw(lab.url, '/api/sweeps/validate', { method: 'POST', headers: { 'content-type': 'Application/JSON; charset=utf-8' }, body: JSON.stringify(SPEC) });
    expect(validated.status).toBe(200);
    const cancelled = await raw(lab.url, `/api/sweeps/${running}/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(cancelled.status).toBe(200);
    expect(JSON.parse(cancelled.text).status).toBe('cancelled');
  });

  test('the OpenAPI document states the rule: every change answers 415 without the JSON type', async () => {
    const doc = (await api(lab.url, '/api/openapi.json')).body;
    expect(doc.info.description).toContain('Content-Type: application/json');
    const changes = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).filter(([method]) => ['post', 'put', 'patch', 'delete'].includes(method)).map(([method, op]) => ({ what: `${method} ${path}`, op })));
    expect(changes.length).toBe(9);
    for (const { what, op } of changes) {
      expect(op.responses['415'], what).toBeDefined();
      expect(op.description, what).toContain('Content-Type: application/json');
    }
  });

  test('without ALLOWED_HOSTS, a lab bound to loopback answers the loopback names only; bound to every address, any Host', async () => {
    // DNS rebinding (the probe): a page of evil.example, its name rebound to 127.0.0.1, reaches a
    // loopback lab from the browser of the person running it, the Host naming evil.example.
    for (const host of ['evil.example', 'evil.example:8080', '10.0.0.7']) {
      expect((await raw(lab.url, '/api/sweeps', { headers: { host } })).status, host).toBe(421);
      expect((await raw(lab.url, `/api/sweeps`, { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: '{}' })).status, host).toBe(421);
    }
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:8080', 'LOCALHOST']) expect((await raw(lab.url, '/api/sweeps', { headers: { host } })).status, host).toBe(200);
    const open = await startLab({ workers: 0, env: { HOST: '0.0.0.0' } });
    try {
      for (const host of ['evil.example', 'lab.test:8080', '10.0.0.7']) {
        expect((await raw(open.url, '/api/sweeps', { headers: { host } })).status, host).toBe(200);
        expect((await raw(open.url, '/', { headers: { host } })).status, host).toBe(200);
      }
    } finally {
      await open.close();
    }
  });
});

describe('a lab with ALLOWED_HOSTS', () => {
  let lab: TestLab;

  beforeAll(async () => {
    lab = await startLab({ workers: 0, env: { ALLOWED_HOSTS: 'lab.test, 127.0.0.1,[::1]' } });
  });
  afterAll(async () => {
    await lab?.close();
  });

  test('a Host it does not list gets a 421 naming the header, on pages and API alike', async () => {
    for (const host of ['evil.example', 'lab.test.evil.example', 'sub.lab.test', '10.0.0.7:8080', '[::2]']) {
      for (const path of ['/', '/api/sweeps', '/vendor/chart.umd.min.js']) {
        const res = await raw(lab.url, path, { headers: { host } });
        expect(res.status, `${host} ${path}`).toBe(421);
        expect(JSON.parse(res.text).field).toBe('headers.host');
        expectSecurityHeaders(res.headers, `421 for ${host}`);
      }
    }
    // No Host at all: Node refuses it in HTTP/1.1; an HTTP/1.0 client may send none, and names nothing allowed.
    expect((await raw(lab.url, '/api/sweeps', { noHost: true })).status).toBe(400);
    const http10 = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(lab.url).port), '127.0.0.1', () => socket.end('GET /api/sweeps HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(http10).toMatch(/^HTTP\/1\.1 421 /);
    expect(http10).toContain('(none given)');
    const post = await raw(lab.url, '/api/sweeps/validate', { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' }, body: JSON.stringify(SPEC) });
    expect(post.status).toBe(421);
  });

  test('listed names are answered whatever their case, port or trailing dot', async () => {
    for (const host of ['lab.test', 'LAB.Test:8080', 'lab.test.', '127.0.0.1', '127.0.0.1:9', '[::1]:8080']) {
      expect((await raw(lab.url, '/api/sweeps', { headers: { host } })).status, host).toBe(200);
    }
  });

  test('probes and scrapes are answered whatever the Host (Kubernetes sends them to the pod IP)', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      expect((await raw(lab.url, path, { headers: { host: '10.1.2.3:8080' } })).status, path).toBe(200);
    }
    // Only the probes themselves: a path that merely starts like one is checked.
    expect((await raw(lab.url, '/healthz/../api/sweeps', { headers: { host: '10.1.2.3' } })).status).toBe(421);
  });

  test('a malformed ALLOWED_HOSTS stops the start, naming the entry', () => {
    expect(coordinatorConfig({ ALLOWED_HOSTS: 'lab.test,lab.example.org' }).ALLOWED_HOSTS).toEqual(['lab.test', 'lab.example.org']);
    expect(coordinatorConfig({ ALLOWED_HOSTS: '' }).ALLOWED_HOSTS).toEqual([]);
    expect(coordinatorConfig({}).ALLOWED_HOSTS).toEqual([]);
    for (const bad of ['https://lab.test', 'lab.test:8080', 'lab test', '*.lab.test']) {
      expect(() => coordinatorConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(ConfigError);
      expect(() => coordinatorConfig({ ALLOWED_HOSTS: bad }), bad).toThrow(/ALLOWED_HOSTS: '.*' is not a host name/);
    }
  });
});

describe('a lab reachable beyond this machine needs API_TOKEN', () => {
  test('reached at PUBLISHED_ADDRESS when set (Docker publishes it there), else at HOST; beyond loopback only with a token', () => {
    expect(reachedAt({ HOST: '0.0.0.0', PUBLISHED_ADDRESS: '127.0.0.1' })).toBe('127.0.0.1');
    expect(reachedAt({ HOST: '127.0.0.1' })).toBe('127.0.0.1');
    for (const open of [{ HOST: '0.0.0.0' }, { HOST: '::' }, { HOST: '192.168.1.20' }, { HOST: '0.0.0.0', PUBLISHED_ADDRESS: '0.0.0.0' }, { HOST: '127.0.0.1', PUBLISHED_ADDRESS: '10.0.0.5' }]) {
      expect(unguardedProblem(open), JSON.stringify(open)).toMatch(/^refusing to start: .*API_TOKEN is not set/);
      expect(unguardedProblem({ ...open, API_TOKEN: 't0ken' }), JSON.stringify(open)).toBeUndefined();
    }
    for (const closed of [{ HOST: '127.0.0.1' }, { HOST: 'localhost' }, { HOST: '::1' }, { HOST: '0.0.0.0', PUBLISHED_ADDRESS: '127.0.0.1' }, { HOST: '0.0.0.0', PUBLISHED_ADDRESS: '[::1]' }]) {
      expect(unguardedProblem(closed), JSON.stringify(closed)).toBeUndefined();
    }
    // The sentence names the address, the setting, and both ways out.
    const why = unguardedProblem({ HOST: '0.0.0.0', PUBLISHED_ADDRESS: '0.0.0.0' })!;
    for (const part of ['PUBLISHED_ADDRESS=0.0.0.0 (compose: BIND_ADDRESS)', 'set API_TOKEN', 'k8s/base/api-token-secret.yaml', 'BIND_ADDRESS=127.0.0.1']) expect(why).toContain(part);
    expect(unguardedProblem({ HOST: '0.0.0.0' })).toContain('HOST=0.0.0.0');
  });

  test("the coordinator's settings: loopback by default, refused open without a token, and a bad PUBLISHED_ADDRESS is named", () => {
    expect(coordinatorConfig({}).HOST).toBe('127.0.0.1');
    expect(() => coordinatorConfig({ HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => coordinatorConfig({ HOST: '0.0.0.0', API_TOKEN: '' })).toThrow(/API_TOKEN is not set/);
    expect(coordinatorConfig({ HOST: '0.0.0.0', API_TOKEN: 'x' }).API_TOKEN).toBe('x');
    // compose's default: listening on every interface of its container, published on loopback.
    expect(coordinatorConfig({ HOST: '0.0.0.0', PUBLISHED_ADDRESS: '127.0.0.1' }).PUBLISHED_ADDRESS).toBe('127.0.0.1');
    expect(coordinatorConfig({ PUBLISHED_ADDRESS: '' }).PUBLISHED_ADDRESS).toBeUndefined();
    expect(() => coordinatorConfig({ HOST: '0.0.0.0', PUBLISHED_ADDRESS: '0.0.0.0' })).toThrow(/PUBLISHED_ADDRESS=0\.0\.0\.0/);
    expect(() => coordinatorConfig({ PUBLISHED_ADDRESS: '127.0.0.1:8080' })).toThrow(/PUBLISHED_ADDRESS: an address .* without a port/);
  });

  test('the coordinator process refuses to start open without a token: exit 2, the reason its first line', async () => {
    const p = startProcess('coordinator', [ENTRY.coordinator], { HOST: '0.0.0.0', PORT: '0', API_TOKEN: '', REDIS_URL: 'redis://127.0.0.1:1' });
    const exit = await exitOf(p, 10_000);
    expect(exit.code).toBe(2);
    expect(p.logs).toEqual([]);
    expect(p.other[0]).toMatch(/^coordinator: refusing to start: reachable beyond this machine \(HOST=0\.0\.0\.0\) and API_TOKEN is not set/);
  });

  test('published on loopback (compose by default), it answers the loopback names only though it listens on every interface', async () => {
    const lab = await startLab({ workers: 0, env: { HOST: '0.0.0.0', PUBLISHED_ADDRESS: '127.0.0.1' } });
    try {
      expect((await raw(lab.url, '/api/sweeps', { headers: { host: 'evil.example' } })).status).toBe(421);
      expect((await raw(lab.url, '/api/sweeps', { headers: { host: 'localhost:8080' } })).status).toBe(200);
    } finally {
      await lab.close();
    }
  });
});
