/**
 * `wonderlab remote`: a client for a running lab's API (a `wonderlab serve` or a cluster's
 * coordinator) — submit a sweep, follow it, wait for it with a progress bar, export it, cancel it.
 * Errors are one line and exit codes are those of the other commands: 2 for bad input (a usage
 * error, a spec the lab refuses), 1 for everything else (unreachable lab, unknown sweep, a
 * cancelled sweep waited for).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SweepStatistics } from '../lab/index.js';
import { HELP_OPTION, OUTPUT_OPTIONS, UsageError, flagOptions, parseCommandLine, valueOptions } from './options.js';
import { duration, formatSweepSummary, table } from './summary.js';
import { readSpecInput, withDeals } from './sweep.js';
import { DEFAULT_LAB_URL } from '../store/config.js';

export const REMOTE_USAGE = `usage: wonderlab remote <command> [options] [--url URL] [--token T]
  submit <preset | spec.json> [--deals N] [--wait]
                                         submit a sweep; prints its id (with --wait, then waits as below);
                                         --deals N: N deals per board set instead of the spec's (a smaller
                                         run of the same design, as 'sweep run --deals')
  tune <spec.json | preset> [--deals N] [--wait]
                                         submit a tune (a spec with "tune": racing, spsa or ntbea;
                                         docs/tuning.md); with --wait, follow its search and then its
                                         confirmation, and print the recommendation and the verdict
  status <id> [--json]                   its status, counts, progress per cell and, once games are in,
                                         the summary over its cells (agents pooled, ratings, intervals)
  wait <id> [--timeout S] [--every S]    a progress bar until it is done (exit 0) or cancelled (exit 1),
                                         then its status
  export <id> [--format F] [--out FILE]  its games (F = csv | jsonl) or its summary table
                                         (F = summary-csv | summary-json), to FILE or stdout
  export <id> --format training --out DIR [--agent SPEC] [--games-per-file N]
                                         its decisions as training rows: NumPy .npz archives of
                                         N games each (default 1000), DIR/<from>-<to>.npz;
                                         --agent: only seats that agent played (docs/learning.md)
  cancel <id>                            cancel it (the lab's token needed if it has one)
  list                                   the lab's sweeps, newest first
options:
  --url URL      the lab (default: WONDERLAB_URL, else ${DEFAULT_LAB_URL}, where 'npm start' serves it)
  --token T      its API token, for submit and cancel (default: WONDERLAB_TOKEN)
  -h, --help     this text`;

/** A lab that answered with an error the user can act on: 400s are bad input (exit 2), the rest exit 1. */
export class RemoteError extends Error {
  /** The lab's HTTP status, where it answered with one. */
  status?: number;
}

/** A 429 from a caller that waits and tries again (`busy`): the lab's message and its Retry-After. */
class LabBusy extends RemoteError {
  constructor(
    message: string,
    readonly retryAfterS: number,
  ) {
    super(message);
  }
}

/** A lab to call: its URL and API token. */
export interface Lab {
  url: string;
  token?: string;
}

export async function call(lab: Lab, path: string, init: { method?: string; json?: unknown; auth?: boolean; timeoutMs?: number; busy?: boolean } = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  // The lab refuses a change without this type, body or not (its guard against cross-site forms).
  if (init.json !== undefined || (init.method ?? 'GET') !== 'GET') headers['content-type'] = 'application/json';
  if (init.auth && lab.token) headers.authorization = `Bearer ${lab.token}`;
  let res: Response;
  try {
    res = await fetch(new URL(path, lab.url), { method: init.method ?? 'GET', headers, body: init.json === undefined ? undefined : JSON.stringify(init.json), signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
  } catch (err) {
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    throw new RemoteError(`cannot reach the lab at ${lab.url} (${cause?.code ?? cause?.message ?? (err as Error).message})`);
  }
  if (res.ok) return res;
  const body = (await res.json().catch(() => ({}))) as { error?: string; field?: string };
  const message = body.error ?? `${res.status} ${res.statusText}`;
  if (res.status === 400) throw new UsageError(message);
  if (res.status === 429 && init.busy) throw new LabBusy(message, Number(res.headers.get('retry-after')) || 5);
  if (res.status === 401) throw new RemoteError(`the lab at ${lab.url} needs its API token (--token or WONDERLAB_TOKEN): ${message}`);
  const error = new RemoteError(message);
  error.status = res.status;
  throw error;
}

export const getJson = async <T>(lab: Lab, path: string): Promise<T> => (await call(lab, path)).json() as Promise<T>;

/** The lab to call: --url, else WONDERLAB_URL (empty: unset), else where `npm start` serves it. */
export function labUrl(given: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const url = given ?? (env.WONDERLAB_URL || DEFAULT_LAB_URL);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url: '${url}' is not a URL (e.g. ${DEFAULT_LAB_URL})`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url: '${url}' is not an http(s) URL (e.g. ${DEFAULT_LAB_URL})`);
  return url.endsWith('/') ? url : `${url}/`;
}

export interface Overview {
  id: string;
  name: string;
  status: string;
  counts: { total: number; done: number; failed: number; queued: number; pending: number };
  progress: number;
  gamesPerSecond: number;
  etaSeconds: number | null;
}

interface Detail extends Overview, Omit<SweepStatistics, 'cells'> {
  cellProgress: { index: number; total: number; done: number; failed: number; queued: number }[];
  provenance: { code: { version: string; commit?: string; dirty?: boolean } | null; wallSeconds: number | null; activeSeconds: number | null; cpuSeconds: number | null; workers: unknown[] };
  tune?: Tune;
}

/** A tune's part of its detail, as the lab's API has it (coordinator views.ts TuneView): what this client prints. */
interface Tune {
  method: 'racing' | 'spsa' | 'ntbea';
  recommendation: string | null;
  confirmation: { sweep: string; status: string; games: number; decision: string | null; score: { mean: number; halfWidth: number } | null } | null;
  note: string | null;
  race?: { looks: number; arms: { agent: string; alive: boolean }[]; decided?: { agent: string; by: string } } | null;
  steps?: number;
  applied?: number;
  final?: boolean;
}

/** Where a tune's search stands, in one line. */
function tuneLine(d: Detail): string {
  const t = d.tune!;
  if (t.method === 'racing') {
    const r = t.race;
    const search = r ? `look ${r.looks}, ${r.arms.filter((a) => a.alive).length} of ${r.arms.length} arms racing${r.decided ? `, decided by ${r.decided.by}` : ''}` : 'no look yet';
    return `racing: ${search}, ${d.counts.done} games (${d.status})`;
  }
  return `${t.method}: ${t.applied} of ${t.steps} steps applied (${d.status})`;
}

/** A tune's recommendation and its confirmation's verdict, or why there is none. */
function tuneText(d: Detail): string {
  const t = d.tune!;
  const lines = [tuneLine(d), `recommendation${t.method !== 'racing' && !t.final ? ' so far' : ''}: ${t.recommendation ?? 'none yet'}`];
  const c = t.confirmation;
  if (c) {
    const score = c.score ? `; score against the reference ${pct(c.score.mean)} % ± ${pct(c.score.halfWidth)}` : '';
    lines.push(`confirmation ${c.sweep} (${c.status}): ${c.games} games, SPRT ${c.decision ?? 'undecided'}${score}`);
  } else if (t.note) lines.push(t.note);
  else lines.push('confirmation: not made yet');
  return lines.join('\n');
}

/** A tune has nothing left to do: it is finished, and so is its confirmation (or it has none). */
const tuneEnded = (d: Detail) => (d.status === 'done' || d.status === 'cancelled') && (d.tune!.note !== null || (d.tune!.confirmation !== null && ['done', 'cancelled', 'missing'].includes(d.tune!.confirmation.status)));

async function waitTune(lab: Lab, id: string, timeoutS: number, everyS: number, err: (s: string) => void): Promise<Detail> {
  const deadline = Date.now() + timeoutS * 1000;
  let last = '';
  for (;;) {
    const d = await getJson<Detail>(lab, `/api/sweeps/${encodeURIComponent(id)}?cellLimit=1`);
    const c = d.tune?.confirmation;
    const line = c ? `confirmation: ${c.games} games (${c.status})` : tuneLine(d);
    if (line !== last) err(line);
    last = line;
    if (tuneEnded(d)) return d;
    if (Date.now() > deadline) throw new RemoteError(`tune ${id} has not ended after ${timeoutS} s (--timeout): ${line}`);
    await new Promise((r) => setTimeout(r, everyS * 1000));
  }
}

const pct = (x: number) => (100 * x).toFixed(1);

/** One line: a bar, the share done, counts, rate and ETA. */
export function progressLine(o: Overview, width = 30): string {
  const filled = Math.round(Math.min(1, Math.max(0, o.progress)) * width);
  const c = o.counts;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct(o.progress).padStart(5)} % ${c.done}/${c.total} games${c.failed ? `, ${c.failed} failed` : ''}, ${o.gamesPerSecond.toFixed(2)} games/s, ETA ${duration(o.etaSeconds)} (${o.status})`;
}

function statusText(d: Detail): string {
  const lines = [`${d.name} (${d.id}): ${d.status}`, progressLine(d)];
  const p = d.provenance;
  if (p) {
    const code = p.code ? `${p.code.version}${p.code.commit ? ` ${p.code.commit.slice(0, 12)}${p.code.dirty ? '+' : ''}` : ''}` : 'not recorded';
    lines.push(`code ${code}; wall time ${duration(p.wallSeconds)}, running ${duration(p.activeSeconds)}, CPU ${p.cpuSeconds === null ? '-' : `${p.cpuSeconds.toFixed(1)} s`}, ${p.workers.length} worker${p.workers.length === 1 ? '' : 's'}`);
  }
  if (d.cellProgress.length > 1) {
    lines.push('', table(['cell', 'done', 'total', '% done', 'failed', 'queued'], d.cellProgress.map((c) => [String(c.index), String(c.done), String(c.total), pct(c.done / c.total), String(c.failed), String(c.queued)])));
  }
  if (d.counts.done > 0) lines.push('', formatSweepSummary({ cells: [], ...d }));
  if (d.tune) lines.push('', tuneText(d));
  return lines.join('\n');
}

export async function wait(lab: Lab, id: string, timeoutS: number, everyS: number, err: (s: string) => void, tty: boolean): Promise<Overview> {
  const deadline = Date.now() + timeoutS * 1000;
  let last = '';
  for (;;) {
    const o = await getJson<Overview>(lab, `/api/sweeps/${encodeURIComponent(id)}?cellLimit=1`);
    const line = progressLine(o);
    // On a terminal the bar is redrawn in place; in a log, a line whenever it changes.
    if (tty) process.stderr.write(`\r${line}\u001b[K`);
    else if (line !== last) err(line);
    last = line;
    if (o.status === 'done' || o.status === 'cancelled') {
      if (tty) process.stderr.write('\n');
      return o;
    }
    if (Date.now() > deadline) {
      if (tty) process.stderr.write('\n');
      throw new RemoteError(`sweep ${id} is not done after ${timeoutS} s (--timeout): ${o.counts.done} of ${o.counts.total} games`);
    }
    await new Promise((r) => setTimeout(r, everyS * 1000));
  }
}

const EXPORTS: Record<string, string> = { csv: 'export?format=csv', jsonl: 'export?format=jsonl', 'summary-csv': 'summary?format=csv', 'summary-json': 'summary?format=json' };

/**
 * A sweep's training rows, page by page (GET /api/sweeps/{id}/training), each page an .npz archive
 * in `dir` named by its games; the lab says where the next page starts (x-training-next).
 */
/** How long one training page may take to arrive (it is replayed, then streamed). */
const TRAINING_PAGE_TIMEOUT_MS = 10 * 60_000;
/** Tries at a page the lab is too busy to build now (a 429: it builds TRAINING_BUILDS at once). */
const TRAINING_BUSY_TRIES = 60;

/** A training page's response, waiting as the lab's Retry-After says while it is busy with others. */
async function trainingPage(lab: Lab, path: string, err: (s: string) => void): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(lab, path, { timeoutMs: TRAINING_PAGE_TIMEOUT_MS, busy: true });
    } catch (e) {
      if (!(e instanceof LabBusy) || attempt >= TRAINING_BUSY_TRIES) throw e;
      err(`the lab is busy (${e.message}); trying again in ${e.retryAfterS} s`);
      await new Promise((r) => setTimeout(r, e.retryAfterS * 1000));
    }
  }
}

export async function exportTraining(lab: Lab, id: string, dir: string | undefined, agent: string | undefined, perFile: string | undefined, err: (s: string) => void): Promise<number> {
  if (!dir) throw new UsageError('--format training writes one archive per page of games: give a directory with --out DIR');
  const games = perFile === undefined ? 1000 : Number(perFile);
  if (!Number.isInteger(games) || games < 1) throw new UsageError(`--games-per-file must be a positive integer, got '${perFile}'`);
  mkdirSync(dir, { recursive: true });
  let from: number | undefined = 0;
  let files = 0;
  while (from !== undefined) {
    const query = new URLSearchParams({ from: String(from), games: String(games), ...(agent !== undefined ? { agent } : {}) });
    const res = await trainingPage(lab, `/api/sweeps/${encodeURIComponent(id)}/training?${query}`, err);
    const range = res.headers.get('x-training-games') ?? `${from}-`;
    const file = join(dir, `${range}.npz`);
    // Streamed to the file: a page is hundreds of MB at the largest.
    await pipeline(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream), createWriteStream(file));
    files++;
    err(`written ${file}`);
    const next = res.headers.get('x-training-next');
    from = next === null ? undefined : Number(next);
  }
  err(`${files} archive${files === 1 ? '' : 's'} in ${dir}`);
  return 0;
}

export async function cmdRemote(args: string[], out: (s: string) => void, err: (s: string) => void = (s) => console.error(s)): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    out(REMOTE_USAGE);
    return sub === undefined ? 2 : 0;
  }
  const { values, positionals } = parseCommandLine({
    args: rest,
    allowPositionals: true,
    options: { ...valueOptions('url', 'token', 'timeout', 'every', 'format', 'deals', 'agent', 'games-per-file'), ...flagOptions('wait'), ...OUTPUT_OPTIONS, ...HELP_OPTION },
  });
  if (values.help) {
    out(REMOTE_USAGE);
    return 0;
  }
  const lab: Lab = { url: labUrl(values.url), token: values.token ?? process.env.WONDERLAB_TOKEN };
  if (values.deals !== undefined && sub !== 'submit' && sub !== 'tune') throw new UsageError(`--deals is an option of remote submit and remote tune, not of remote ${sub}`);
  const seconds = (name: 'timeout' | 'every', fallback: number) => {
    const v = values[name];
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!(n > 0)) throw new UsageError(`--${name} must be a positive number of seconds, got '${v}'`);
    return n;
  };
  const one = (what: string) => {
    if (positionals.length !== 1) throw new UsageError(`remote ${sub} takes one ${what}`);
    return positionals[0];
  };
  const tty = process.stderr.isTTY === true;
  switch (sub) {
    case 'submit': {
      // The spec as written (the lab applies its defaults and says what is wrong), shrunk as 'sweep run' shrinks it.
      const spec = withDeals(readSpecInput(one('preset or spec file')).input, values.deals);
      const created = (await (await call(lab, '/api/sweeps', { method: 'POST', json: spec, auth: true })).json()) as { id: string; name: string; games: number; cells: number; estimate: { cpuHours: number } };
      out(`${created.id}  ${created.name}: ${created.games} games in ${created.cells} cell${created.cells === 1 ? '' : 's'}, about ${created.estimate.cpuHours} CPU-hours; ${new URL(`sweeps/${created.id}`, lab.url)}`);
      if (!values.wait) return 0;
      const end = await wait(lab, created.id, seconds('timeout', 7 * 24 * 3600), seconds('every', 2), err, tty);
      out(statusText(await getJson<Detail>(lab, `/api/sweeps/${created.id}`)));
      return end.status === 'done' ? 0 : 1;
    }
    case 'tune': {
      const spec = withDeals(readSpecInput(one('preset or spec file')).input, values.deals);
      if (typeof spec !== 'object' || spec === null || !('tune' in spec)) throw new UsageError('remote tune submits a tune: give a spec with "tune" (docs/tuning.md), or use remote submit for a sweep');
      const created = (await (await call(lab, '/api/sweeps', { method: 'POST', json: spec, auth: true })).json()) as { id: string; name: string };
      out(`${created.id}  ${created.name}: a tune; ${new URL(`sweeps/${created.id}`, lab.url)}`);
      if (!values.wait) return 0;
      const end = await waitTune(lab, created.id, seconds('timeout', 7 * 24 * 3600), seconds('every', 2), err);
      out(tuneText(end));
      return end.status === 'done' ? 0 : 1;
    }
    case 'status': {
      const id = one('sweep id');
      const detail = await getJson<Detail>(lab, `/api/sweeps/${encodeURIComponent(id)}`);
      out(values.json ? JSON.stringify(detail, null, 2) : statusText(detail));
      return 0;
    }
    case 'wait': {
      const id = one('sweep id');
      const end = await wait(lab, id, seconds('timeout', 7 * 24 * 3600), seconds('every', 2), err, tty);
      out(statusText(await getJson<Detail>(lab, `/api/sweeps/${encodeURIComponent(id)}`)));
      if (end.status !== 'done') throw new RemoteError(`sweep ${id} was cancelled after ${end.counts.done} of ${end.counts.total} games`);
      return 0;
    }
    case 'export': {
      const id = one('sweep id');
      const format = values.format ?? 'csv';
      if (format === 'training') return exportTraining(lab, id, values.out, values.agent, values['games-per-file'], err);
      if (values.agent !== undefined || values['games-per-file'] !== undefined) throw new UsageError('--agent and --games-per-file are options of --format training');
      if (!Object.hasOwn(EXPORTS, format)) throw new UsageError(`--format must be one of ${[...Object.keys(EXPORTS), 'training'].join(', ')}, got '${format}'`);
      const res = await call(lab, `/api/sweeps/${encodeURIComponent(id)}/${EXPORTS[format]}`);
      const sink = values.out ? createWriteStream(values.out) : new Writable({ write: (chunk, _enc, done) => (process.stdout.write(chunk) ? done() : process.stdout.once('drain', done)) });
      const body = res.body;
      if (body) {
        const reader = body.getReader();
        for (let r = await reader.read(); !r.done; r = await reader.read()) {
          if (!sink.write(r.value)) await new Promise<void>((resolve) => sink.once('drain', () => resolve()));
        }
      }
      await new Promise<void>((resolve, reject) => sink.end((e?: Error | null) => (e ? reject(e) : resolve())));
      if (values.out) err(`written to ${values.out}`);
      return 0;
    }
    case 'cancel': {
      const id = one('sweep id');
      const o = (await (await call(lab, `/api/sweeps/${encodeURIComponent(id)}/cancel`, { method: 'POST', auth: true })).json()) as Overview;
      out(`${o.id}: ${o.status} after ${o.counts.done} of ${o.counts.total} games`);
      return 0;
    }
    case 'list': {
      const sweeps = await getJson<Overview[]>(lab, '/api/sweeps?limit=100');
      out(table(['id', 'status', 'done', 'total', '% done', 'name'], sweeps.map((s) => [s.id, s.status, String(s.counts.done), String(s.counts.total), pct(s.progress), s.name])));
      return 0;
    }
    default:
      throw new UsageError(`unknown remote command '${sub}' (submit, tune, status, wait, export, cancel, list)`);
  }
}
