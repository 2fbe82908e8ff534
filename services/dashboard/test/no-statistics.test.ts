/**
 * The dashboard draws what the server shaped: its scripts compute no statistic of their own (no
 * interval, no standard deviation, no pooling of counts). Every statistic lives in shared/src/lab.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { expect, test } from 'vitest';

const JS = new URL('../public/js/', import.meta.url);

test('no page script computes an interval, a spread or a z value', () => {
  const files = readdirSync(JS).filter((f) => f.endsWith('.js'));
  expect(files.length).toBeGreaterThanOrEqual(5);
  for (const file of files) {
    const text = readFileSync(new URL(file, JS), 'utf8');
    expect(text, file).not.toMatch(/Math\.sqrt|1\.9599|\bZ95\b|function wilson|\bvpSq\b|\bmsSum\b/);
  }
});
