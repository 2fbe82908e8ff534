/** The coordinator's settings, from environment variables. */
import { z } from 'zod';
import { DEFAULT_MAX_MODEL_BYTES, type SweepLimits } from '@wonderlab/shared';
import { AllowedHostsSetting, PublishedAddressSetting, unguardedProblem } from '@wonderlab/shared/http';
import { ConfigError, DEFAULT_PORT, StoreEnvSchema, accessLogSetting, parseEnv, positiveInt } from '@wonderlab/shared/store';

const positiveNumber = (fallback: number) => z.coerce.number().positive().finite().default(fallback);

/**
 * Every limit on what one request may ask for. Each is checked before anything is expanded or
 * stored, and a request over one gets a 400 naming the field, the value and the setting.
 */
export const LimitsEnvSchema = z.object({
  /** Points of a sweep's parameter grid. */
  MAX_CELLS: positiveInt(1000),
  /** Games of one sweep. */
  MAX_GAMES: positiveInt(5_000_000),
  /** MCTS iterations of one move, the Age scale applied (the papers' largest budget is 8000 × 2). */
  MAX_MOVE_ITERATIONS: positiveInt(100_000),
  /** An MCTS move's time cap in seconds (time=0, no cap, stays allowed: iterations bound it). */
  MAX_MOVE_SECONDS: positiveNumber(60),
  /** Estimated CPU seconds of one game: keep it under the workers' SHUTDOWN_GRACE_MS, so a stopping worker can finish its games. */
  MAX_GAME_SECONDS: positiveNumber(600),
  /** Estimated CPU-hours of a whole sweep. */
  MAX_CPU_HOURS: positiveNumber(1000),
  /** Size of a request body. */
  MAX_BODY_BYTES: positiveInt(256 * 1024),
  /** Nesting of arrays and objects in a request body (a spec needs 6). */
  MAX_JSON_DEPTH: positiveInt(16),
  /** Items of one page: games of a sweep, sweeps of the list. */
  MAX_PAGE_ITEMS: positiveInt(1000),
  /** Cells of one page of a sweep's detail (each carries its aggregates, up to tens of KB). */
  MAX_PAGE_CELLS: positiveInt(250),
  /**
   * Bytes of a model file a sweep or a play-page game names: a larger one is refused from its size,
   * never read (the lab's networks are 0.07–1.4 MB; checking one reads, hashes and loads it whole).
   */
  MAX_MODEL_BYTES: positiveInt(DEFAULT_MAX_MODEL_BYTES),
});

export type LimitsConfig = z.infer<typeof LimitsEnvSchema>;

export const CoordinatorEnvSchema = StoreEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
  /** The address it listens on: this machine only unless told (the images say 0.0.0.0). */
  HOST: z.string().default('127.0.0.1'),
  /**
   * The address clients reach it at when something else publishes its port: compose passes its
   * BIND_ADDRESS (the container listens on 0.0.0.0, Docker publishes on this). Unset: HOST. Not
   * loopback: API_TOKEN is required (shared/src/http/exposure.ts).
   */
  PUBLISHED_ADDRESS: PublishedAddressSetting,
  /** A line per request (`all`: a cluster's log collector keeps them) or only refusals, errors and slow requests (`errors`). */
  ACCESS_LOG: accessLogSetting('all'),
  /**
   * When set, every mutating route needs `Authorization: Bearer <API_TOKEN>` (empty: unset, as
   * compose passes it). Required when the coordinator is reachable beyond loopback.
   */
  API_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional()),
  /** Host names the API answers to, comma-separated (a 421 for others; probes exempt); empty: any. */
  ALLOWED_HOSTS: AllowedHostsSetting,
  /**
   * The most games of one sweep in the queue at once (at least eight batches); the running sweeps
   * share a shorter queue (Feeder.shares). The rest wait behind the sweep's cursor.
   */
  FEED_WINDOW: positiveInt(2000),
  /**
   * Seconds of estimated play per queue job: a sweep's games go in batches of about this much work
   * (lab/plan/cost.ts), so cheap games stop paying a job's fixed cost each. 0: a job per game.
   */
  BATCH_SECONDS: z.coerce.number().min(0).finite().default(1),
  /** Most games in one batch (the games a killed worker's batch replays, and its result call's size). */
  MAX_BATCH: positiveInt(500),
  FEED_INTERVAL_MS: positiveInt(250),
  /** How often the ladder reads the finishing orders of games finished since (GET /api/ratings). */
  LADDER_INTERVAL_MS: positiveInt(5000),
  /**
   * How long a request waits for a rating fit or a sweep's statistics of the data it asks about
   * (both are computed on threads of their own); past it, the last ones are served with their
   * version, and the new ones land for the next request.
   */
  FIT_WAIT_MS: z.coerce.number().int().min(0).default(150),
  /** How often the coordinator reads Redis's memory and the keyspace's epoch (lab-health.ts). */
  LAB_CHECK_INTERVAL_MS: positiveInt(1000),
  /** How often Server-Sent Events check a sweep for news. */
  EVENTS_INTERVAL_MS: positiveInt(1000),
  /** A request Redis has not let the API answer by then gets a 503 (Redis slow or unreachable). */
  REQUEST_TIMEOUT_MS: positiveInt(10_000),
  /** A Redis command of the API that gets no reply by then fails (and its request gets a 503). */
  REDIS_COMMAND_TIMEOUT_MS: positiveInt(5000),
  /**
   * Training pages (GET /api/sweeps/{id}/training) built at once: each replays its games on the
   * event loop in slices and spools its rows to disk; past this, a 429 with Retry-After.
   */
  TRAINING_BUILDS: positiveInt(2),
  /** Seconds a play-page game in progress is kept after its last move (a finished one is kept for good). */
  PLAY_IDLE_SECONDS: positiveInt(86_400),
  /** Play-page games in progress at most (each about 0.6 KB of Redis, kept PLAY_IDLE_SECONDS); a new one past it gets a 429. */
  PLAY_MAX_GAMES: positiveInt(1000),
  /** New play-page games per client address and minute (a 429 with Retry-After past it). */
  PLAY_NEW_PER_MINUTE: positiveInt(30),
  /**
   * Seconds a person may wait at one move: the estimated thinking (lab/plan/cost.ts, a busy core's)
   * of one step's agents together, checked when a game is created and a hint asked for. A move or
   * hint still unanswered after three times this ends its thread (a backstop).
   */
  PLAY_MOVE_SECONDS: positiveNumber(10),
  /** Threads the play page's agents think on (moves and hints; views have one of their own). */
  PLAY_THREADS: positiveInt(2),
}).extend(LimitsEnvSchema.shape);

export type CoordinatorConfig = z.infer<typeof CoordinatorEnvSchema>;

/** The settings, or a ConfigError naming what is wrong: a bad variable, or an API open to other machines without a token. */
export function coordinatorConfig(env: NodeJS.ProcessEnv = process.env): CoordinatorConfig {
  const config = parseEnv(CoordinatorEnvSchema, env);
  const unguarded = unguardedProblem(config);
  if (unguarded) throw new ConfigError(unguarded);
  return config;
}

/** The sweep limits of a configuration, as the sweep checks take them. */
export function sweepLimits(c: LimitsConfig): SweepLimits {
  return {
    maxCells: c.MAX_CELLS,
    maxGames: c.MAX_GAMES,
    maxMoveIterations: c.MAX_MOVE_ITERATIONS,
    maxMoveSeconds: c.MAX_MOVE_SECONDS,
    maxGameSeconds: c.MAX_GAME_SECONDS,
    maxCpuHours: c.MAX_CPU_HOURS,
  };
}
