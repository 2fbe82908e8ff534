/**
 * Live updates that cost nothing when idle (issue 40): a finished sweep's listeners get its last
 * message and then no poll reaches Redis (watched with MONITOR on the lab's own keys), events
 * carry the overview and a version rather than the detail, and a listener that stops reading is
 * dropped instead of buffered without bound.
 */
import { EventEmitter } from 'node:events';
import { createConnection } from 'node:net';
import type { Response } from 'express';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SweepEvents } from '../src/events.js';
import { REDIS_URL, api, silent, startLab, waitFor, waitForSweep, type TestLab } from './harness.js';

let lab: TestLab;
beforeAll(async () => {
  // The ladder reads every sweep on its own clock: an hour here, so that what MONITOR sees is the events'.
  lab = await startLab({ workers: 1, slots: 2, env: { LADDER_INTERVAL_MS: '3600000' } });
});
afterAll(async () => {
  await lab?.close();
});

/**
 * The lines MONITOR prints for `ms`, read off a plain socket: ioredis's monitor mode loses its
 * place ("Command queue state error") when other clients keep the server busy, as a lab on the
 * same Redis does.
 */
async function monitorLines(url: string, ms: number): Promise<string[]> {
  const { hostname, port, password } = new URL(url);
  const socket = createConnection({ host: hostname, port: Number(port || 6379) });
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.write(`${password ? `AUTH ${decodeURIComponent(password)}\r\n` : ''}MONITOR\r\n`);
  await new Promise((r) => setTimeout(r, ms));
  socket.destroy();
  // The replies to AUTH and MONITOR are "+OK" lines; every other line is a command the server ran.
  return text.split('\r\n').filter((line) => line.startsWith('+') && line !== '+OK');
}

/** Opens an event stream and resolves with its first `sweep` event's data; the stream stays open until `close`. */
async function listen(url: string): Promise<{ first: any; close: () => void }> {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended');
    buffer += decoder.decode(value, { stream: true });
    const m = /event: sweep\nid: \d+\ndata: (.*)\n\n/.exec(buffer);
    if (m) return { first: JSON.parse(m[1]), close: () => controller.abort() };
  }
}

test('20 listeners of a finished sweep: each gets its final overview, then nothing of the sweep is read from Redis', async () => {
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: { name: 'quiet', players: 3, seats: ['random', 'rulebased', 'random'], deals: { count: 4 } } });
  expect(created.status).toBe(201);
  const id = created.body.id;
  const done = await waitForSweep(lab, id);
  expect(done.status).toBe('done');

  const streams = await Promise.all(Array.from({ length: 20 }, () => listen(`${lab.url}/api/sweeps/${id}/events`)));
  for (const s of streams) expect(s.first).toMatchObject({ id, status: 'done', version: done.counts.done, counts: { done: done.counts.done } });

  // Every command the server runs that names this sweep, over 25 of the harness's event intervals (100 ms).
  const lines = await monitorLines(REDIS_URL, 2500);
  for (const s of streams) s.close();
  expect(lines.length, 'MONITOR saw the server at work (the lab itself polls other keys)').toBeGreaterThan(0);
  expect(lines.filter((line) => line.includes(id))).toEqual([]);
});

test('a listener that stops reading is dropped once its unsent bytes pass the limit', async () => {
  const created = await api(lab.url, '/api/sweeps', { method: 'POST', json: { name: 'slow reader', players: 3, seats: ['random', 'random', 'random'], deals: { count: 200 } } });
  const id = created.body.id;
  const events = new SweepEvents(lab.store, 20, silent, undefined, 1000);
  // A response that never drains: its unsent bytes only grow.
  const res = Object.assign(new EventEmitter(), {
    writableLength: 0,
    destroyed: false,
    writeHead() {},
    write(text: string) {
      this.writableLength += text.length;
      return false;
    },
    destroy() {
      this.destroyed = true;
    },
    end() {},
  });
  events.subscribe(id, res as unknown as Response);
  await waitFor(async () => res.destroyed, 'the slow listener to be dropped', 30_000, 20);
  expect(events.dropped).toBe(1);
  expect(events.listeners).toBe(0);
  expect(res.writableLength).toBeLessThan(1000 + 5000);
  events.close();
  await api(lab.url, `/api/sweeps/${id}/cancel`, { method: 'POST' });
});
