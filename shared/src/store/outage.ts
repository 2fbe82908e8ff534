/**
 * Logging of Redis outages: the first error of an outage is logged, then while it lasts one line
 * at most every `intervalMs` with the count of errors since, and one line when Redis answers again.
 * A connection that retries every few hundred milliseconds would otherwise write a line per retry.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { isRedisUnavailable } from './redis.js';

export class OutageLog {
  private down = false;
  private since = 0;
  private errors = 0;
  private lastLogged = 0;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** An error of a Redis connection (or of BullMQ on one). Errors that are not about reaching Redis are logged as they come. */
  error(err: unknown, source: string): void {
    const message = err instanceof Error ? err.message : String(err);
    if (!isRedisUnavailable(err)) {
      this.logger.error({ err, source }, 'redis error');
      return;
    }
    const now = this.now();
    if (!this.down) {
      this.down = true;
      this.since = now;
      this.errors = 1;
      this.lastLogged = now;
      this.logger.warn({ err: message, source }, 'redis unreachable');
      return;
    }
    this.errors++;
    if (now - this.lastLogged >= this.intervalMs) {
      this.lastLogged = now;
      this.logger.warn({ err: message, source, errors: this.errors, downForMs: now - this.since }, 'redis still unreachable');
    }
  }

  /** A connection is ready: ends the outage, if one was logged. */
  ready(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.info({ errors: this.errors, downForMs: this.now() - this.since }, 'redis reachable again');
  }

  get isDown(): boolean {
    return this.down;
  }

  /** Routes a connection's errors and readiness here. */
  watch(redis: Redis, source: string): void {
    redis.on('error', (err) => this.error(err, source));
    redis.on('ready', () => this.ready());
  }
}
