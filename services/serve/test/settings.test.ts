/**
 * `npm start`'s settings: its log is a terminal a person reads, so the access log writes only
 * refusals, errors and slow requests unless ACCESS_LOG=all; a cluster's coordinator and dashboard
 * keep a line per request.
 */
import { describe, expect, test } from 'vitest';
import { CoordinatorEnvSchema } from '@wonderlab/coordinator';
import { DashboardEnvSchema } from '@wonderlab/dashboard';
import { parseEnv, ConfigError } from '@wonderlab/shared/store';
import { EmbeddedEnvSchema } from '../src/embedded.js';

describe('ACCESS_LOG', () => {
  test('quiet by default for serve, every request for the cluster services', () => {
    expect(parseEnv(EmbeddedEnvSchema, {}).ACCESS_LOG).toBe('errors');
    expect(parseEnv(EmbeddedEnvSchema, { ACCESS_LOG: 'all' }).ACCESS_LOG).toBe('all');
    expect(parseEnv(CoordinatorEnvSchema, {}).ACCESS_LOG).toBe('all');
    expect(parseEnv(DashboardEnvSchema, {}).ACCESS_LOG).toBe('all');
  });

  test('a bad value names the variable', () => {
    expect(() => parseEnv(EmbeddedEnvSchema, { ACCESS_LOG: 'some' })).toThrow(ConfigError);
    expect(() => parseEnv(EmbeddedEnvSchema, { ACCESS_LOG: 'some' })).toThrow(/ACCESS_LOG/);
  });
});
