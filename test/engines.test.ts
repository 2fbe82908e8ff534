/**
 * `npm ci` on the oldest Node the repository says it runs on prints no EBADENGINE warning: every
 * package of the lockfile accepts the minimum of the root's `engines.node`. A dependency bumped to a
 * release that wants a newer Node fails here, not as a warning a newcomer has to puzzle over.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';

// semver is npm's own reading of version ranges (a devDependency; its types are not installed).
const semver = createRequire(import.meta.url)('semver') as {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
};

const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};
const root = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { engines: { node: string } };

describe('engines', () => {
  test("every package of the lockfile runs on the root's minimum Node", () => {
    const oldest = semver.minVersion(root.engines.node)!.version;
    const refusing = Object.entries(lock.packages)
      .map(([path, p]) => ({ path, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
      .filter((p) => p.node !== undefined && !semver.satisfies(oldest, p.node))
      .map((p) => `${p.path.replace(/^.*node_modules\//, '')} wants node ${p.node}`);
    expect(refusing, `Node ${oldest}`).toEqual([]);
  });

  test('the lockfile records the same engines as package.json', () => {
    expect((lock.packages[''] as { engines?: unknown }).engines).toEqual(root.engines);
  });
});
