/**
 * `wonderlab remote`'s choice of lab, and `--deals` as both `sweep run` and `remote submit` apply
 * it (one function): the spec as written with only deals.count replaced.
 */
import { describe, expect, it } from 'vitest';
import { labUrl } from '../src/cli/remote.js';
import { loadSpec, withDeals } from '../src/cli/sweep.js';
import { argumentProblem } from '../src/cli/main.js';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

describe('remote: the lab', () => {
  it("--url, else WONDERLAB_URL, else where 'npm start' serves the lab", () => {
    expect(labUrl(undefined, {})).toBe('http://127.0.0.1:8080/');
    expect(labUrl(undefined, { WONDERLAB_URL: '' })).toBe('http://127.0.0.1:8080/');
    expect(labUrl(undefined, { WONDERLAB_URL: 'http://lab.example:9000' })).toBe('http://lab.example:9000/');
    expect(labUrl('https://other.example/lab/', { WONDERLAB_URL: 'http://lab.example:9000' })).toBe('https://other.example/lab/');
  });

  it('a URL that is not one, or not http(s), is a usage error naming --url', () => {
    expect(() => labUrl('localhost:8080', {})).toThrow("--url: 'localhost:8080' is not an http(s) URL");
    expect(() => labUrl('lab', {})).toThrow("--url: 'lab' is not a URL");
  });
});

describe('--deals', () => {
  it('replaces deals.count of the spec as written and keeps the rest', () => {
    const spec = { name: 'x', players: 3, seats: ['random', 'random', 'random'], deals: { firstSeed: 7, count: 50 } };
    expect(withDeals(spec, '10')).toEqual({ ...spec, deals: { firstSeed: 7, count: 10 } });
    expect(withDeals(spec, undefined)).toBe(spec);
    expect(withDeals({ name: 'no deals' }, '3')).toEqual({ name: 'no deals', deals: { count: 3 } });
    expect(loadSpec('quick-demo', fileURLToPath(new URL('../../presets', import.meta.url)), '2').deals).toEqual({ firstSeed: 1, count: 2 });
  });

  it('a count that is not a positive integer is refused', () => {
    for (const bad of ['0', '-1', '1.5', 'ten', '', '1e3']) expect(() => withDeals({}, bad), bad).toThrow(`--deals must be a positive integer, got '${bad}'`);
  });
});

describe("parseArgs's errors", () => {
  const parse = (args: string[]) => {
    try {
      parseArgs({ args, options: { deals: { type: 'string' }, wait: { type: 'boolean' } } });
    } catch (e) {
      return argumentProblem(e);
    }
    return 'parsed';
  };

  it('read as one line naming the option', () => {
    expect(parse(['--deal', '10'])).toBe("unknown option '--deal'");
    expect(parse(['--deals'])).toBe('--deals needs a value');
    expect(parse(['--deals', '--wait'])).toBe('--deals needs a value');
    expect(parse(['--wait=yes'])).toBe('--wait takes no value');
    expect(parse(['extra'])).toBe("unexpected argument 'extra'");
    expect(argumentProblem(new Error('other'))).toBeUndefined();
  });
});
