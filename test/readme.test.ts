/**
 * The README is the manual (issue 43): its first screen has exactly the two set-up commands, it
 * stays a manual's length (research history and benchmark logs live in docs/), every setting a
 * process reads from its environment is in its Settings table, and every local file it links to
 * exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { StoreEnvSchema } from '@wonderlab/shared/store';
import { CoordinatorEnvSchema } from '@wonderlab/coordinator';
import { WorkerEnvSchema } from '@wonderlab/worker';
import { DashboardEnvSchema } from '@wonderlab/dashboard';

const ROOT = new URL('../', import.meta.url);
const README = readFileSync(new URL('README.md', ROOT), 'utf8');

/** The names in a markdown section's table's first column (`A`, `B` in one cell count each). */
export function settingNames(markdown: string, heading: string): Set<string> {
  const text = `\n${markdown}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) return new Set();
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(/\n## /);
  const section = end < 0 ? rest : rest.slice(0, end);
  const names = new Set<string>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    for (const m of line.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]);
  }
  return names;
}

/** The local files a markdown text links to (not web addresses or anchors), as written. */
export function localLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)].map((m) => m[1]).filter((url) => !/^[a-z]+:/.test(url));
}

describe('the README', () => {
  test('its first screen has the two set-up commands: one runs the lab, one runs the tests', () => {
    const firstScreen = README.split('\n').slice(0, 25).join('\n');
    const block = /```sh\n([\s\S]*?)```/.exec(firstScreen);
    expect(block).not.toBeNull();
    const commands = block![1].split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(commands.map((c) => c.split('#')[0].trim())).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  test('is a manual, not a notebook: at most about 400 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(400);
  });

  test('every variable a process reads is in its Settings table', () => {
    const listed = settingNames(README, '## Settings');
    const read = new Set([StoreEnvSchema, CoordinatorEnvSchema, WorkerEnvSchema, DashboardEnvSchema].flatMap((s) => Object.keys(s.shape)));
    expect(read.size).toBeGreaterThan(20);
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });

  test('every local file it links to exists, and the docs it points to link back to files that exist', () => {
    const missing: string[] = [];
    for (const url of localLinks(README)) if (!existsSync(new URL(url, ROOT))) missing.push(`README.md → ${url}`);
    for (const doc of ['docs/lab.md', 'docs/agents.md', 'docs/deployment.md', 'docs/engine.md', 'docs/benchmarks.md', 'docs/tournaments.md', 'docs/deviations.md']) {
      const base = new URL(doc, ROOT);
      for (const url of localLinks(readFileSync(base, 'utf8'))) if (!existsSync(new URL(url, base))) missing.push(`${doc} → ${url}`);
    }
    expect(missing).toEqual([]);
  });

  test('the checks find what they are for', () => {
    expect([...settingNames('## Settings\n\n| a | b |\n| `FOO`, `BAR` | 1 |\n\n## Next\n| `BAZ` | 2 |\n', '## Settings')]).toEqual(['FOO', 'BAR']);
    expect(localLinks('see [x](docs/x.md#y), [w](https://e.org), [a](#here) and [z](../z.md)')).toEqual(['docs/x.md', '../z.md']);
  });
});
