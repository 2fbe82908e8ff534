/**
 * `npm start`'s settings: its log is a terminal a person reads, so the access log writes only
 * refusals, errors and slow requests unless ACCESS_LOG=all; a cluster's coordinator and dashboard
 * keep a line per request. And the coordinator's rule: a HOST other machines reach needs API_TOKEN.
 */
import { describe, expect, test } from 'vitest';
import { CoordinatorEnvSchema } from '@wonderlab/coordinator';
import { DashboardEnvSchema } from '@wonderlab/dashboard';
import { parseEnv, ConfigError } from '@wonderlab/shared/store';
import { EmbeddedEnvSchema, serve } from '../src/embedded.js';

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

describe('HOST and API_TOKEN', () => {
  test('a HOST other machines reach refuses without a token, before touching Redis', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args.join(' '));
    try {
      expect(await serve([], { ...process.env, HOST: '0.0.0.0', PORT: '0', REDIS_URL: 'redis://127.0.0.1:1', API_TOKEN: '' })).toBe(2);
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^wonderlab serve: refusing to start: reachable beyond this machine \(HOST=0\.0\.0\.0\) and API_TOKEN is not set/);
  });

  test('loopback by default: it starts without a token', () => {
    expect(parseEnv(EmbeddedEnvSchema, {}).HOST).toBe('127.0.0.1');
  });
});
