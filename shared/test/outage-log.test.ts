/** The outage log: the first error of an outage at once, then one line per interval at most, and the end. */
import { expect, test } from 'vitest';
import { pino } from 'pino';
import { OutageLog } from '../src/store/index.js';

type Line = { level: number; msg: string; errors?: number; downForMs?: number };

function logWith(intervalMs: number) {
  const lines: Line[] = [];
  let now = 0;
  const logger = pino({ level: 'debug' }, { write: (text: string) => void lines.push(JSON.parse(text) as Line) });
  const log = new OutageLog(logger, intervalMs, () => now);
  return { lines, log, advance: (ms: number) => (now += ms) };
}

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });

test('an outage of 10 s with an error every 100 ms writes the first error, one summary a second and the end', () => {
  const { lines, log, advance } = logWith(1000);
  for (let i = 0; i < 100; i++) {
    log.error(refused, 'worker');
    advance(100);
  }
  log.ready();
  expect(lines.map((l) => l.msg)).toEqual(['redis unreachable', ...Array(9).fill('redis still unreachable'), 'redis reachable again']);
  expect(lines.at(-1)).toMatchObject({ errors: 100, downForMs: 10_000 });
  expect(lines[1]).toMatchObject({ errors: 11, downForMs: 1000 });
  // A second outage starts afresh; a ready without an outage says nothing.
  log.ready();
  log.error(refused, 'api');
  expect(lines.at(-1)).toMatchObject({ msg: 'redis unreachable' });
  expect(log.isDown).toBe(true);
});

test('an error that is not about reaching Redis is logged as it comes, and starts no outage', () => {
  const { lines, log } = logWith(1000);
  log.error(new Error('ERR Error running script: bad argument'), 'api');
  log.error(new Error('ERR Error running script: bad argument'), 'api');
  expect(lines.map((l) => [l.level, l.msg])).toEqual([
    [50, 'redis error'],
    [50, 'redis error'],
  ]);
  expect(log.isDown).toBe(false);
});
