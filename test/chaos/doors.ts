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

/**
 * The play page under a slow agent (the probe: a minimax(time=0, …) opponent held the one play
 * thread for over 110 s and every other game's requests timed out): the probe's agent is refused;
 * agents within the limits think while another game's view is polled, which answers within 100 ms.
 */
export async function playWhileThinking(ctx: DoorsContext): Promise<void> {
  const { p, url } = await ctx.coordinator();
  const auth = { authorization: `Bearer ${ctx.token}` };
  const create = (agents: string[], seed: number) => request(`${url}/api/play`, { method: 'POST', json: { players: 3, seat: 0, agents: ['human', ...agents], seed }, headers: auth });
  const probe = await create(['minimax(time=0,depth=12,worlds=1000,keep=64,search=maxn)', 'random'], 1);
  ctx.check(probe.status === 400 && /PLAY_MOVE_SECONDS/.test(probe.body.error), `play: the probe's minimax(time=0, depth=12, worlds=1000) opponent is refused (${probe.status}: ${String(probe.body.error).slice(0, 120)})`);

  // Two agents that think about 3 s each (their time cap), within PLAY_MOVE_SECONDS (10).
  const slow = await create(['mcts(it=50000,time=3)', 'mcts(it=50000,time=3)'], 2);
  const other = await create(['random', 'rulebased'], 3);
  if (slow.status !== 201 || other.status !== 201) throw new Error(`play games not created: ${slow.status} ${other.status}`);
  const play = (id: string, token: string, view: { hand: { moves: { move: number }[] }[]; version: number }) =>
    request(`${url}/api/play/${id}/move`, { method: 'POST', json: { move: view.hand[0].moves[0].move, version: view.version }, headers: { 'x-play-token': token }, timeoutMs: 60_000 });
  const started = performance.now();
  let thinking = true;
  const moved = play(slow.body.id, slow.body.token, slow.body.view).finally(() => (thinking = false));
  const viewMs: number[] = [];
  const statuses = new Map<number, number>();
  while (thinking) {
    const r = await request(`${url}/api/play/${other.body.id}`, { headers: { 'x-play-token': other.body.token } });
    if (thinking) viewMs.push(r.ms);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    await sleep(20);
  }
  const move = await moved;
  const seconds = (performance.now() - started) / 1000;
  ctx.log(`play: a move against two mcts(it=50000,time=3) took ${seconds.toFixed(1)} s; meanwhile another game's view ${viewMs.length}× (${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}): median ${quantile(viewMs, 0.5).toFixed(1)} ms, p99 ${quantile(viewMs, 0.99).toFixed(1)} ms, max ${quantile(viewMs, 1).toFixed(1)} ms`);
  ctx.check(move.status === 200, `play: the thinking game's move is answered (${move.status})`);
  ctx.check(viewMs.length > 10 && [...statuses.keys()].every((s) => s === 200) && quantile(viewMs, 0.99) < 100, `play: another game's view answers in < 100 ms (p99) while agents think (${quantile(viewMs, 0.99).toFixed(1)} ms)`);
  await ctx.kill(p);
}

/**
 * A flood of new play games (the probe: 58,498 games in 30 s from 20 clients filled Redis's
 * reserve, then Redis refused everyone): 20 clients create games for `seconds`. They hit the cap
 * on games in progress (429s), Redis's memory stays bounded, and no request gets a 5xx.
 */
export async function playFlood(ctx: DoorsContext, redisNow: () => Promise<{ used: number; live: number }>, clients = 20, seconds = 30): Promise<void> {
  // The rate limit out of the way (it is tested on its own): the cap on games in progress is what bounds memory here.
  const maxGames = 500;
  const { p, url } = await ctx.coordinator({ PLAY_MAX_GAMES: String(maxGames), PLAY_NEW_PER_MINUTE: '1000000' });
  const before = await redisNow();
  const statuses = new Map<number | string, number>();
  const count = (s: number | string) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = 0; Date.now() < until; k++) {
        try {
          const r = await request(`${url}/api/play`, { method: 'POST', json: { players: 3, seat: 0, agents: ['human', 'random', 'rulebased'], seed: c * 100_000 + k }, headers: { authorization: `Bearer ${ctx.token}` }, timeoutMs: 10_000 });
          count(r.status);
        } catch (err) {
          count(`network: ${(err as Error).cause ?? (err as Error).message}`);
        }
      }
    }),
  );
  const after = await redisNow();
  const created = statuses.get(201) ?? 0;
  const bad = [...statuses].filter(([s]) => typeof s !== 'number' || s >= 500).reduce((a, [, n]) => a + n, 0);
  ctx.log(`play flood: ${clients} clients for ${seconds} s: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; games in progress ${before.live} → ${after.live}; Redis ${(before.used / MB).toFixed(1)} → ${(after.used / MB).toFixed(1)} MB; coordinator peak RSS ${((p.peakRss() ?? 0) / MB).toFixed(0)} MB`);
  ctx.check(after.live === maxGames && created === maxGames - before.live && (statuses.get(429) ?? 0) > 0, `play flood: games made up to PLAY_MAX_GAMES (${maxGames} in progress, ${created} made here), the rest 429`);
  ctx.check(bad === 0, `play flood: 0 responses 5xx or unanswered (${bad})`);
  ctx.check(after.used - before.used < 8 * MB, `play flood: Redis grew by under 8 MB (${((after.used - before.used) / MB).toFixed(2)} MB)`);
  await ctx.kill(p);
}
