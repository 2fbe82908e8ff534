/** The dashboard process's settings, from environment variables. */
import { z } from 'zod';
import { AllowedHostsSetting, PublishedAddressSetting } from '@wonderlab/shared/http';
import { DEFAULT_LAB_URL, accessLogSetting } from '@wonderlab/shared/store';

export const DashboardEnvSchema = z.object({
  COORDINATOR_URL: z.string().url().default(DEFAULT_LAB_URL),
  PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  /** The address it listens on: this machine only unless told (the images say 0.0.0.0). */
  HOST: z.string().default('127.0.0.1'),
  /** The address clients reach it at when Docker publishes its port (compose: BIND_ADDRESS); unset: HOST. Decides ALLOWED_HOSTS' default. */
  PUBLISHED_ADDRESS: PublishedAddressSetting,
  PRESETS_DIR: z.string().optional(),
  /**
   * Host names the dashboard answers to, comma-separated (a 421 for others; probes exempt); empty:
   * the loopback names when reached at loopback, else any. It passes the Host on to the
   * coordinator, which must answer to the same names.
   */
  ALLOWED_HOSTS: AllowedHostsSetting,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** A line per request (`all`) or only refusals, errors and slow requests (`errors`). */
  ACCESS_LOG: accessLogSetting('all'),
  /** A request passed to the coordinator that has no answer by then gets a 504 (event streams: until their first bytes). */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** On SIGTERM, how long requests in flight may take before the process exits anyway. */
  SHUTDOWN_CLOSE_MS: z.coerce.number().int().positive().default(5000),
});
