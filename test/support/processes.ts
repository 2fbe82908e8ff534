/**
 * Real processes for tests and the chaos suite: a private redis-server on a free port with its own
 * data directory (never the machine's Redis), and the lab's built entry points (coordinator,
 * worker, dashboard, `wonderlab serve`) with their JSON logs collected line by line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '@wonderlab/serve';
import { redisAnswers } from '@wonderlab/shared/store';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const ENTRY = {
  coordinator: join(ROOT, 'services/coordinator/dist/src/main.js'),
  worker: join(ROOT, 'services/worker/dist/src/main.js'),
  dashboard: join(ROOT, 'services/dashboard/dist/src/main.js'),
  serve: join(ROOT, 'bin/wonderlab.mjs'),
} as const;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The same free port `wonderlab serve` finds for the Redis it starts.
export { freePort } from '@wonderlab/serve';

export async function waitUntil<T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface PrivateRedis {
  url: string;
  port: number;
  dir: string;
  proc?: ChildProcess;
  /** Starts (again) on the same port and data: the append-only file brings the data back. */
  start(): Promise<void>;
  /** SIGKILL (no final write: what was fsynced survives) or SIGTERM (a clean shutdown). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

/**
 * A redis-server of our own: `appendfsync always`, so a SIGKILL loses nothing that was
 * acknowledged (the lab's own deployments use everysec; a test needs certainty).
 */
export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'wonderlab-redis-'));
  const url = `redis://127.0.0.1:${port}`;
  const r: PrivateRedis = {
    url,
    port,
    dir,
    async start() {
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--maxmemory-policy', 'noeviction'];
      const proc = spawn('redis-server', args, { stdio: 'ignore' });
      r.proc = proc;
      await waitUntil(async () => (proc.exitCode !== null ? Promise.reject(new Error(`redis-server exited (${proc.exitCode})`)) : redisAnswers(url, 300)), `redis-server on port ${port}`, 15_000, 50);
    },
    async stop(signal = 'SIGKILL') {
      const proc = r.proc;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill(signal);
      await exited;
    },
    async destroy() {
      await r.stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await r.start();
  return r;
}

export type LogLine = Record<string, unknown> & { msg: string };

export interface LabProcess {
  name: string;
  proc: ChildProcess;
  logs: LogLine[];
  /** Lines that are not JSON (stderr, or stdout that is not a log line). */
  other: string[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first log line with this message (waits for it; fails if the process exits first). */
  waitForLog(msg: string, timeoutMs?: number): Promise<LogLine>;
  logged(msg: string): LogLine[];
  /** Peak resident memory of the process so far (Linux: VmHWM), in bytes. */
  peakRss(): number | undefined;
}

/** Starts one of the lab's processes with `env` on top of this one's (NODE_OPTIONS dropped). */
export function startProcess(name: string, args: string[], env: Record<string, string>): LabProcess {
  const { NODE_OPTIONS: _ignored, ...inherited } = process.env;
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...inherited, LOG_LEVEL: 'debug', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const p: LabProcess = {
    name,
    proc,
    logs: [],
    other: [],
    exit: new Promise((resolve) => proc.once('close', (code, signal) => resolve({ code, signal }))),
    logged: (msg) => p.logs.filter((l) => l.msg === msg),
    async waitForLog(msg, timeoutMs = 20_000) {
      return waitUntil(
        () => {
          const line = p.logged(msg)[0];
          if (line) return line;
          if (proc.exitCode !== null || proc.signalCode !== null) {
            throw new Error(`${name} exited (${proc.exitCode ?? proc.signalCode}) before logging '${msg}':\n${p.other.join('\n')}`);
          }
          return undefined;
        },
        `${name} to log '${msg}'`,
        timeoutMs,
        20,
      );
    },
    peakRss() {
      try {
        const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
        const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
        return kb ? Number(kb) * 1024 : undefined;
      } catch {
        return undefined;
      }
    },
  };
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    try {
      p.logs.push(JSON.parse(line) as LogLine);
    } catch {
      p.other.push(`(stdout) ${line}`);
    }
  });
  createInterface({ input: proc.stderr! }).on('line', (line) => p.other.push(line));
  return p;
}

/** Waits for the process to exit, at most `timeoutMs` (then SIGKILLs it and says so). */
export async function exitOf(p: LabProcess, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
  const started = Date.now();
  const timer = setTimeout(() => p.proc.kill('SIGKILL'), timeoutMs);
  const exit = await p.exit;
  clearTimeout(timer);
  return { ...exit, ms: Date.now() - started };
}

/**
 * A JSON request with a client-side bound, so a server that hangs fails the caller instead of
 * stalling it. A change (not GET or HEAD) says Content-Type: application/json unless `headers`
 * says otherwise, as the API asks.
 */
export async function request(url: string, init: RequestInit & { json?: unknown; timeoutMs?: number } = {}): Promise<{ status: number; body: any; ms: number }> {
  const started = performance.now();
  const headers = new Headers(init.headers);
  const changes = !['GET', 'HEAD'].includes((init.method ?? 'GET').toUpperCase());
  if (init.json !== undefined || (changes && !headers.has('content-type'))) headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body, signal: AbortSignal.timeout(init.timeoutMs ?? 5000) });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, ms: performance.now() - started };
}
