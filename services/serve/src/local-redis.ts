/**
 * For `npm start` on one machine: use the Redis at REDIS_URL, or, when nothing answers there (or
 * when asked: `--private-redis`), start a private `redis-server` from PATH on a free port with its
 * data under `.data/redis`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join, resolve } from 'node:path';
import { redisAnswers } from '@wonderlab/shared/store';

export class NoRedisError extends Error {}

export function findOnPath(command: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

export interface LocalRedis {
  url: string;
  /** The server we started, if we started one. */
  child?: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The Redis at `url` when one answers there, else a private redis-server started now; with
 * `privately`, a private one whatever answers at `url`, so that the lab shares no keys with
 * another lab on the same Redis.
 */
export async function useOrStartRedis(url: string, dataDir: string, log: (msg: string) => void, privately = false): Promise<LocalRedis> {
  if (!privately && (await redisAnswers(url))) return { url, stop: async () => {} };
  const binary = findOnPath('redis-server');
  if (!binary) {
    const install = 'Install Redis (Debian/Ubuntu: sudo apt-get install redis-server; macOS: brew install redis)';
    throw new NoRedisError(
      privately
        ? `There is no redis-server on PATH to start a private Redis (--private-redis).\n${install}.`
        : [`Nothing answers at ${url}, and there is no redis-server on PATH to start one.`, `${install},`, 'or start one with Docker: docker compose up -d redis, or point REDIS_URL at a running Redis.'].join('\n'),
    );
  }
  const dir = resolve(dataDir);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new NoRedisError(`DATA_DIR ${dir} cannot be created for a private redis-server: ${(err as Error).message}`);
  }
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '', '--maxmemory-policy', 'noeviction'];
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const localUrl = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new NoRedisError(`redis-server exited at once (code ${child.exitCode}): ${stderr.trim()}`);
    if (await redisAnswers(localUrl, 500)) {
      log(`${privately ? '--private-redis' : `no Redis at ${url}`}: started ${binary} on port ${port} (data in ${dir})`);
      return {
        url: localUrl,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new NoRedisError(`redis-server did not answer on port ${port} within 10 s: ${stderr.trim()}`);
}
