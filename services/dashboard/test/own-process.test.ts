/**
 * The dashboard as its own process (the built main.js, as a cluster runs it) in front of a real lab:
 * its pages carry the security headers, /vendor/ answers names of Object's prototype with a 404,
 * a malformed /static path is a 4xx without a stack, changes passed through to the coordinator
 * still need the JSON content type, and ALLOWED_HOSTS works here too (the Host passed on to the
 * coordinator, which checks it again). Needs the build (npx tsc -b).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { api, rawRequest as raw, startLab, type TestLab } from '../../coordinator/test/harness.js';
import { ENTRY, startProcess, type LabProcess } from '../../../test/support/processes.js';

let lab: TestLab;
const processes: LabProcess[] = [];
let sweepId: string;

async function dashboard(env: Record<string, string> = {}): Promise<string> {
  const p = startProcess('dashboard', [ENTRY.dashboard], { COORDINATOR_URL: lab.url, PORT: '0', HOST: '127.0.0.1', ...env });
  processes.push(p);
  return `http://127.0.0.1:${(await p.waitForLog('dashboard listening')).port as number}`;
}

beforeAll(async () => {
  // No worker: the sweep stays running. The dashboard passes the browser's Host on, so the
  // coordinator answers to the names the dashboards below are reached at (compose gives both the
  // same ALLOWED_HOSTS).
  lab = await startLab({ workers: 0, env: { ALLOWED_HOSTS: 'lab.test,127.0.0.1' } });
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: { name: 'own process', players: 3, seats: ['random', 'random', 'random'], deals: { count: 20 } } });
  expect(created.status).toBe(201);
  sweepId = created.body.id;
});

afterAll(async () => {
  for (const p of processes) {
    p.proc.kill('SIGKILL');
    await p.exit;
  }
  await lab?.close();
});

describe("the dashboard's own process", () => {
  let url: string;
  beforeAll(async () => {
    url = await dashboard();
  });

  test('its pages, scripts and the answers it passes through carry the security headers', async () => {
    for (const path of ['/', '/submit', `/sweeps/${sweepId}`, '/static/app.css', '/vendor/chart.umd.min.js', '/dashboard/presets.json', '/dashboard/healthz', '/api/sweeps', '/nope']) {
      const res = await raw(url, path);
      expect(res.status, path).toBeLessThan(500);
      expect(String(res.headers['content-security-policy']), path).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], path).toBe('DENY');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
    }
  });

  test("/vendor/ names of Object's prototype and malformed /static paths are 4xx, never a stack", async () => {
    for (const path of ['/vendor/__proto__', '/vendor/constructor', '/vendor/toString', '/vendor/nope.js']) {
      const res = await raw(url, path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(res.text).error, path).toContain('no such vendor script');
    }
    for (const path of ['/static/%E0%A4%A', '/static/..%2F..%2Fpackage.json', '/static/%00', '/static/js/', '/static/nope.js']) {
      const res = await raw(url, path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text, path).not.toMatch(/\bat .*\.js:\d+/);
    }
  });

  test('a cross-site form posted to it cannot cancel: the coordinator refuses it and the sweep still runs', async () => {
    const res = await raw(url, `/api/sweeps/${sweepId}/cancel`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'x=1' });
    expect(res.status).toBe(415);
    expect(JSON.parse(res.text).field).toBe('headers.content-type');
    expect((await api(lab.url, `/api/sweeps/${sweepId}`)).body.status).toBe('running');
  });
});

describe("the dashboard's own process with ALLOWED_HOSTS", () => {
  let url: string;
  beforeAll(async () => {
    url = await dashboard({ ALLOWED_HOSTS: 'lab.test' });
  });

  test('another Host gets a 421 naming the header; a listed one is served; its probe always answers', async () => {
    for (const path of ['/', '/vendor/chart.umd.min.js', '/api/sweeps']) {
      const refused = await raw(url, path, { headers: { host: 'evil.example' } });
      expect(refused.status, path).toBe(421);
      expect(JSON.parse(refused.text).field).toBe('headers.host');
      expect((await raw(url, path, { headers: { host: 'lab.test:8081' } })).status, path).toBe(200);
    }
    expect((await raw(url, '/dashboard/healthz', { headers: { host: '10.0.0.9:8081' } })).status).toBe(200);
  });

  test('the Host goes on to the coordinator as the browser sent it: a name the coordinator does not answer to is refused there too', async () => {
    const both = await dashboard({ ALLOWED_HOSTS: 'lab.test,other.test' });
    expect((await raw(both, '/', { headers: { host: 'other.test' } })).status).toBe(200);
    const passed = await raw(both, '/api/sweeps', { headers: { host: 'other.test' } });
    expect(passed.status).toBe(421);
    expect(JSON.parse(passed.text).error).toContain("'other.test'");
    expect((await raw(both, '/api/sweeps', { headers: { host: 'lab.test' } })).status).toBe(200);
  });

  test('a malformed ALLOWED_HOSTS stops the process at start, naming the setting', async () => {
    const p = startProcess('dashboard', [ENTRY.dashboard], { COORDINATOR_URL: lab.url, PORT: '0', HOST: '127.0.0.1', ALLOWED_HOSTS: 'https://lab.test' });
    processes.push(p);
    const exit = await p.exit;
    expect(exit.code).toBe(2);
    expect(p.other.join('\n')).toContain("ALLOWED_HOSTS: 'https://lab.test' is not a host name");
  });
});
