/**
 * The coordinator's shape: one route module per resource, each a function of the store's API —
 * never of the Redis client — and an app file that only composes them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';

const SRC = new URL('../src/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, SRC), 'utf8');
const ROUTES = readdirSync(new URL('routes/', SRC)).filter((f) => f.endsWith('.ts'));

test('route modules use the store, never the Redis client or a Redis key', () => {
  expect(ROUTES.length).toBeGreaterThanOrEqual(5);
  for (const file of ROUTES) {
    const text = read(`routes/${file}`);
    expect(text, file).not.toMatch(/\.redis\b/);
    expect(text, file).not.toMatch(/from 'ioredis'/);
    expect(text, file).not.toMatch(/\.keys\b/);
  }
  // Nor do the views they share.
  expect(read('views.ts')).not.toMatch(/\.redis\b|\.keys\b/);
});

test('the app file only composes: no route of its own', () => {
  const app = read('app.ts');
  expect(app).not.toMatch(/\bapp\.(get|post|put|delete|patch)\(/);
  for (const file of ROUTES.filter((f) => f !== 'find.ts')) expect(app, file).toContain(`./routes/${file.replace(/\.ts$/, '.js')}`);
});

test('the coordinator runs without a worker or the dashboard: `wonderlab serve` (services/serve) composes them', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string>; exports: Record<string, unknown> };
  expect(Object.keys(pkg.dependencies)).not.toContain('@wonderlab/worker');
  expect(Object.keys(pkg.dependencies)).not.toContain('@wonderlab/dashboard');
  expect(Object.keys(pkg.exports)).toEqual(['.']);
  const sources = readdirSync(SRC, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
  for (const file of sources) expect(read(file), file).not.toMatch(/@wonderlab\/(worker|dashboard)|local-redis|redis-server/);
});
