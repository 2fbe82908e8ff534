/**
 * The chaos suite's phase for the doors added after the first probe (issue 57): training pages
 * pulled by several clients at once, and the play page under a slow agent and a flood of new
 * games. Each case is the probe's, with its figure as the check: the coordinator's memory, /healthz
 * while the work goes on, and no 5xx anywhere.
 */
import { readNpz } from '@wonderlab/shared';
import { request, sleep, waitUntil, type LabProcess } from '../support/processes.js';

export interface DoorsContext {
  /** A new coordinator process (its peak RSS is its own), with settings on top of the suite's. */
  coordinator(extra?: Record<string, string>): Promise<{ p: LabProcess; url: string }>;
  worker(): LabProcess;
  kill(p: LabProcess): Promise<void>;
  log(msg: string): void;
  check(ok: boolean, what: string): void;
  token: string;
}

const MB = 1024 * 1024;
const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : 0;
};

/** GETs `url` every `everyMs` until stopped; the latencies, and any answer that was not a 200. */
function poll(url: string, everyMs: number): { stop: () => Promise<{ ms: number[]; bad: string[] }> } {
  const ms: number[] = [];
  const bad: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        if (res.status !== 200) bad.push(String(res.status));
      } catch (err) {
        bad.push(String((err as Error).cause ?? (err as Error).message));
      }
      ms.push(performance.now() - started);
      await sleep(everyMs);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { ms, bad };
    },
  };
}

/** Sweeps' counts, polled until the sweep is done. */
async function playSweep(ctx: DoorsContext, url: string, spec: unknown): Promise<string> {
  const created = await request(`${url}/api/sweeps`, { method: 'POST', json: spec, headers: { authorization: `Bearer ${ctx.token}` } });
  if (created.status !== 201) throw new Error(`the sweep was not created: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  await waitUntil(async () => (await request(`${url}/api/sweeps/${id}?cellLimit=1`)).body.status === 'done', `sweep ${id} to finish`, 600_000, 250);
  return id;
}

/**
 * Training pages (the probe: one 2,000-game page took a coordinator from 160 to 752 MB, five at
 * once 9.56 GB and 503s blaming Redis; /healthz p99 437 ms): 5 clients each pull a 2,000-game
 * page at once, trying again on a 429. The coordinator stays under 1 GiB, /healthz p99 under
 * 100 ms, and no request gets a 5xx.
 */
export async function trainingUnderLoad(ctx: DoorsContext, clients = 5, games = 2000): Promise<void> {
  const { p, url } = await ctx.coordinator();
  const workers = [ctx.worker(), ctx.worker()];
  const started = Date.now();
  const id = await playSweep(ctx, url, { name: 'chaos-training', players: 3, seats: ['random', 'rulebased', 'random'], deals: { firstSeed: 5000, count: games }, training: true });
  for (const w of workers) await ctx.kill(w);
  ctx.log(`training: ${games} games played in ${((Date.now() - started) / 1000).toFixed(1)} s; coordinator RSS before the pages ${((p.peakRss() ?? 0) / MB).toFixed(0)} MB (peak)`);

  const health = poll(`${url}/healthz`, 20);
  const statuses = new Map<number | string, number>();
  const count = (s: number | string) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  const pages: Buffer[] = [];
  const pulled = Date.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let attempt = 0; attempt < 600; attempt++) {
        let res: Response;
        try {
          res = await fetch(`${url}/api/sweeps/${id}/training?games=${games}`, { signal: AbortSignal.timeout(300_000) });
        } catch (err) {
          count(`network: ${(err as Error).cause ?? (err as Error).message}`);
          return;
        }
        count(res.status);
        if (res.status === 429) {
          await res.arrayBuffer();
          // Sooner than its Retry-After: the probe's clients retried into the pile.
          await sleep(500);
          continue;
        }
        pages.push(Buffer.from(await res.arrayBuffer()));
        return;
      }
    }),
  );
  const seconds = (Date.now() - pulled) / 1000;
  const { ms, bad } = await health.stop();
  const peak = p.peakRss() ?? 0;
  const fiveHundreds = [...statuses].filter(([s]) => typeof s !== 'number' || s >= 500).reduce((a, [, n]) => a + n, 0);
  const meta = pages[0] ? JSON.parse(Buffer.from(readNpz(pages[0]).get('meta_json')!.data as Uint8Array).toString('utf8')) : undefined;
  ctx.log(`training: ${clients} clients pulled ${pages.length} pages of ${games} games (${pages[0] ? (pages[0].length / MB).toFixed(1) : '-'} MB, ${meta?.rows ?? '-'} rows each) in ${seconds.toFixed(1)} s; statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
  ctx.log(`training: /healthz ${ms.length} probes, median ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${quantile(ms, 1).toFixed(1)} ms; coordinator peak RSS ${(peak / MB).toFixed(0)} MB`);
  ctx.check(pages.length === clients && meta?.games === games && pages.every((b) => b.equals(pages[0])), `training: every client got the whole ${games}-game page (${pages.length} of ${clients})`);
  ctx.check(fiveHundreds === 0, `training: 0 responses 5xx or unanswered (${fiveHundreds})`);
  ctx.check(peak > 0 && peak < 1024 * MB, `training: coordinator peak RSS under 1 GiB (${(peak / MB).toFixed(0)} MB)`);
  ctx.check(bad.length === 0 && quantile(ms, 0.99) < 100, `training: /healthz p99 under 100 ms while pages are built (${quantile(ms, 0.99).toFixed(1)} ms, ${bad.length} not 200)`);
  await ctx.kill(p);
}
