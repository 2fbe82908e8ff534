/**
 * Agent specs (src/agents/spec.ts): the thesis's syntax, the keyed syntax, lists, canonical and
 * full forms, and the errors a bad spec gives (a SpecError naming the part that is wrong).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AGENT_KINDS,
  MCTS_AGENTS,
  MCTS_DEFAULTS,
  MCTS_KINDS,
  PARAMETER_LIST,
  agentsMarkdown,
  agentsText,
  describeRange,
  mctsDefaults,
  parameterTable,
  MCTS_ROBILLIARD_DEFAULTS,
  SpecError,
  agentColumns,
  canonicalSpec,
  displayName,
  parseAgentList,
  parseAgentSpec,
  type AgentSpec,
  type MctsParams,
} from '../src/agents/index.js';
import { formatParam } from '../src/agents/params.js';

/**
 * The keyed form with every parameter spelled out: the other end of canonicalSpec, which leaves
 * the defaults out. Only these tests need it, to check that every key parses back.
 */
function fullSpec(spec: AgentSpec): string {
  if (!('params' in spec)) return spec.kind;
  const params = spec.params;
  return `${spec.kind}(${PARAMETER_LIST.map((def) => `${def.key}=${formatParam(params[def.field])}`).join(',')})`;
}

function params(text: string): MctsParams {
  const spec = parseAgentSpec(text);
  if (!('params' in spec)) throw new Error(`'${text}' is not an MCTS spec`);
  return spec.params;
}

/** The SpecError a spec (or list) throws; fails the test when it parses or throws something else. */
function specError(fn: () => unknown): SpecError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SpecError);
    return err as SpecError;
  }
  throw new Error('expected a SpecError, but the spec parsed');
}

const errorOf = (text: string) => specError(() => parseAgentSpec(text)).message;
const listErrorOf = (text: string) => specError(() => parseAgentList(text)).message;

describe('thesis syntax', () => {
  it('plain kinds: random, rulebased and the other rule-based agents', () => {
    expect(parseAgentSpec('random')).toEqual({ kind: 'random', text: 'random' });
    expect(parseAgentSpec('rulebased')).toEqual({ kind: 'rulebased', text: 'rulebased' });
    expect(parseAgentSpec('rulebased-robilliard').kind).toBe('rulebased-robilliard');
    expect(parseAgentSpec('rulebased-dawieang').kind).toBe('rulebased-dawieang');
    expect(parseAgentSpec('rulebased-robilliard-notrade').kind).toBe('rulebased-robilliard-notrade');
    // Surrounding blanks are not part of the spec.
    expect(parseAgentSpec('  random ')).toEqual({ kind: 'random', text: 'random' });
  });

  it('mcts:500,10,100 sets iterations, time limit and depth; the rest are the defaults', () => {
    expect(params('mcts:500,10,100')).toEqual({ ...MCTS_DEFAULTS, it: 500, time: 10, depth: 100 });
    expect(params('mcts:100,2.5,4')).toEqual({ ...MCTS_DEFAULTS, it: 100, time: 2.5, depth: 4 });
  });

  it('trailing positional values may be left out: the defaults fill in', () => {
    expect(params('mcts:250')).toEqual({ ...MCTS_DEFAULTS, it: 250 });
    expect(params('mcts:250').time).toBe(MCTS_DEFAULTS.time);
    expect(params('mcts:250').depth).toBe(MCTS_DEFAULTS.depth);
    expect(params('mcts:250,3')).toEqual({ ...MCTS_DEFAULTS, it: 250, time: 3 });
    expect(params('mcts')).toEqual(MCTS_DEFAULTS);
  });

  it('the thesis defaults (the fitted reading): 100 iterations, 10 s, depth 100, C 0.4, win reward, joint tree, grouped arms in the tree and in random playouts, rule-based opponents', () => {
    expect(MCTS_DEFAULTS).toMatchObject({
      arms: 'grouped',
      parms: 'grouped',
      playout: 'random',
      opp: 'rulebased',
      it: 100,
      time: 10,
      depth: 100,
      c: 0.4,
      reward: 'win',
      tree: 'joint',
      trades: 'cheapest',
      pw: 0,
      scale: [1, 1.5, 2],
      final: 'visits',
    });
  });
});

describe('keyed syntax', () => {
  it('mcts(it=500,c=0.4,depth=100,pw=0.35)', () => {
    expect(params('mcts(it=500,c=0.4,depth=100,pw=0.35)')).toEqual({ ...MCTS_DEFAULTS, it: 500, c: 0.4, depth: 100, pw: 0.35 });
  });

  it('keys in any order, blanks around keys and values allowed', () => {
    expect(params('mcts( pw = 0.35 , it=500 ,depth=7)')).toEqual({ ...MCTS_DEFAULTS, it: 500, depth: 7, pw: 0.35 });
  });

  it('every key sets its parameter', () => {
    const p = params(
      'mcts(it=7,time=1.5,depth=12,c=0.9,reward=margin,tree=seats,trades=all,pw=0.5,pwq=2,kscore=0.1,playout=nodiscard,tl=4,scale=1/2/3,final=mean)',
    );
    // Over the defaults, so that a parameter added later (with its default) does not break this.
    expect(p).toEqual({
      ...MCTS_DEFAULTS,
      it: 7,
      time: 1.5,
      depth: 12,
      c: 0.9,
      reward: 'margin',
      tree: 'seats',
      trades: 'all',
      pw: 0.5,
      pwq: 2,
      kscore: 0.1,
      playout: 'nodiscard',
      tl: [4, 4, 4],
      scale: [1, 2, 3],
      final: 'mean',
    });
  });

  it('per-Age values: tl=8/24/32 and scale=1/1.5/2; one number means all three Ages', () => {
    expect(params('mcts(tl=8/24/32)').tl).toEqual([8, 24, 32]);
    expect(params('mcts(scale=1/1.5/2)').scale).toEqual([1, 1.5, 2]);
    expect(params('mcts(scale=2)').scale).toEqual([2, 2, 2]);
    expect(params('mcts(tl=0)').tl).toEqual([0, 0, 0]);
  });

  it('mcts() and mcts( ) are the defaults', () => {
    expect(params('mcts()')).toEqual(MCTS_DEFAULTS);
    expect(params('mcts( )')).toEqual(MCTS_DEFAULTS);
  });

  it('mcts-robilliard has its own defaults (the 2014 baseline), and keys override them', () => {
    expect(params('mcts-robilliard')).toEqual(MCTS_ROBILLIARD_DEFAULTS);
    expect(MCTS_ROBILLIARD_DEFAULTS).toMatchObject({
      it: 1000,
      time: 0,
      c: 0.3,
      tree: 'seats',
      trades: 'all',
      playout: 'nodiscard',
      tl: [8, 24, 32],
    });
    expect(params('mcts-robilliard(it=50)')).toEqual({ ...MCTS_ROBILLIARD_DEFAULTS, it: 50 });
    // The thesis syntax works for it too, over its own defaults.
    expect(params('mcts-robilliard:20')).toEqual({ ...MCTS_ROBILLIARD_DEFAULTS, it: 20 });
  });

  it('the kind is case-insensitive (and so are keys); the text is kept as given', () => {
    const spec = parseAgentSpec('MCTS:250');
    expect(spec.kind).toBe('mcts');
    expect(spec.text).toBe('MCTS:250');
    expect(params('MCTS:250')).toEqual(params('mcts:250'));
    expect(parseAgentSpec('Random').kind).toBe('random');
    expect(parseAgentSpec('RuleBased').kind).toBe('rulebased');
    expect(parseAgentSpec('Mcts-Robilliard').kind).toBe('mcts-robilliard');
    expect(params('mcts(IT=5)').it).toBe(5);
  });

  it('every kind listed in AGENT_KINDS parses (policy with its required model, ext with its name)', () => {
    for (const kind of AGENT_KINDS) {
      const text = kind === 'policy' ? 'policy(model=a.onnx)' : kind === 'ext' ? 'ext(name=a)' : kind;
      expect(parseAgentSpec(text).kind).toBe(kind);
    }
    expect(() => parseAgentSpec('policy')).toThrow(/policy\(model=NAME.onnx\)/);
  });

  it('ext(name=…, key=value…): the name required and plain, the keys passed through as written, time a budget', () => {
    expect(parseAgentSpec('ext(name=py-random)')).toEqual({ kind: 'ext', text: 'ext(name=py-random)', name: 'py-random', options: {} });
    expect(parseAgentSpec('ext( temp = 0.5 , name=my.agent_2, time=3)')).toMatchObject({ name: 'my.agent_2', options: { temp: '0.5', time: '3' } });
    expect(canonicalSpec(parseAgentSpec('ext(time=3,name=a,depth=4)'))).toBe('ext(name=a,depth=4,time=3)');
    expect(() => parseAgentSpec('ext')).toThrow("agent 'ext': expected 'ext(name=AGENT)' or 'ext(name=AGENT,key=value,…)'");
    expect(() => parseAgentSpec('ext(temp=1)')).toThrow('name: required');
    // A name is a folder under AGENTS_DIR, never a path; a value is never a command line.
    expect(() => parseAgentSpec('ext(name=../evil)')).toThrow("name: lower-case letters, digits, '.', '_' and '-'");
    expect(() => parseAgentSpec('ext(name=/bin/sh)')).toThrow("name: lower-case letters");
    expect(() => parseAgentSpec('ext(name=a,cmd=rm -rf)')).toThrow("cmd: a value is 1 to 64 letters, digits and . _ + - /, got 'rm -rf'");
    expect(() => parseAgentSpec('ext(name=a,time=0)')).toThrow('time:');
    expect(() => parseAgentSpec('ext(name=a,name=b)')).toThrow("parameter 'name' given twice");
  });
});

describe('lists', () => {
  it("'random;mcts:100,10,4;rulebased' is three specs, in order", () => {
    const specs = parseAgentList('random;mcts:100,10,4;rulebased');
    expect(specs.map((s) => s.kind)).toEqual(['random', 'mcts', 'rulebased']);
    expect(specs.map((s) => s.text)).toEqual(['random', 'mcts:100,10,4', 'rulebased']);
    expect(params(specs[1].text)).toEqual({ ...MCTS_DEFAULTS, it: 100, time: 10, depth: 4 });
  });

  it('keyed specs with commas inside a list', () => {
    const specs = parseAgentList('mcts(it=5,c=0.2);random; rulebased ');
    expect(specs.map((s) => s.kind)).toEqual(['mcts', 'random', 'rulebased']);
    const first = specs[0];
    expect(first.kind === 'mcts' ? first.params.c : undefined).toBe(0.2);
  });

  it('a single spec is a list of one', () => {
    expect(parseAgentList('random').map((s) => s.kind)).toEqual(['random']);
  });
});

describe('canonical and full forms', () => {
  it('mcts:500,10,100 and mcts(it=500) have the same canonical form', () => {
    const a = canonicalSpec(parseAgentSpec('mcts:500,10,100'));
    const b = canonicalSpec(parseAgentSpec('mcts(it=500)'));
    expect(a).toBe(b);
    expect(a).toBe('mcts(it=500)');
  });

  it('the canonical form lists only what differs from the defaults, and is case-insensitive', () => {
    expect(canonicalSpec(parseAgentSpec('mcts'))).toBe('mcts');
    expect(canonicalSpec(parseAgentSpec('mcts:100,10,100'))).toBe('mcts');
    expect(canonicalSpec(parseAgentSpec('MCTS(it=100)'))).toBe('mcts');
    expect(canonicalSpec(parseAgentSpec('mcts-robilliard(it=1000)'))).toBe('mcts-robilliard');
    expect(canonicalSpec(parseAgentSpec('Random'))).toBe('random');
    expect(canonicalSpec(parseAgentSpec('mcts(pw=0.35,it=500)'))).toBe(canonicalSpec(parseAgentSpec('mcts(it=500,pw=0.35)')));
    expect(canonicalSpec(parseAgentSpec('mcts(tl=8/24/32)'))).toBe('mcts(tl=8/24/32)');
    expect(canonicalSpec(parseAgentSpec('mcts(tl=5/5/5)'))).toBe(canonicalSpec(parseAgentSpec('mcts(tl=5)')));
  });

  it('different parameters give different canonical forms', () => {
    const forms = ['mcts', 'mcts(it=500)', 'mcts:500,5', 'mcts(c=0.3)', 'mcts-robilliard', 'mcts(tree=seats)'].map((t) =>
      canonicalSpec(parseAgentSpec(t)),
    );
    expect(new Set(forms).size).toBe(forms.length);
  });

  it('fullSpec round-trips through parseAgentSpec to the same parameters', () => {
    const texts = [
      'mcts',
      'mcts:500,10,100',
      'mcts:250',
      'mcts(it=500,c=0.4,depth=100,pw=0.35)',
      'mcts(it=7,time=1.5,depth=12,c=0.9,reward=margin,tree=seats,trades=all,pw=0.5,pwq=2,kscore=0.1,playout=nodiscard,tl=8/24/32,scale=1/1.5/2,final=mean)',
      'mcts(scale=1/2/3,tl=4)',
      'mcts(reward=rank)',
      'mcts-robilliard',
      'mcts-robilliard(it=30,tl=1/2/3)',
    ];
    for (const text of texts) {
      const spec = parseAgentSpec(text);
      const full = fullSpec(spec);
      const again = parseAgentSpec(full);
      expect(again.kind, full).toBe(spec.kind);
      expect(params(full), full).toEqual(params(text));
      // Every key is spelled out.
      for (const key of ['it', 'time', 'depth', 'c', 'reward', 'tree', 'trades', 'pw', 'pwq', 'kscore', 'playout', 'tl', 'scale', 'final']) {
        expect(full).toContain(`${key}=`);
      }
      expect(fullSpec(again)).toBe(full);
      expect(canonicalSpec(again)).toBe(canonicalSpec(spec));
    }
    expect(fullSpec(parseAgentSpec('random'))).toBe('random');
    expect(fullSpec(parseAgentSpec('rulebased'))).toBe('rulebased');
  });
});

describe('bad specs throw a SpecError naming the bad part', () => {
  it('an unknown kind', () => {
    const msg = errorOf('bogus');
    expect(msg).toContain("unknown agent kind 'bogus'");
    expect(errorOf('montecarlo:100')).toContain("'montecarlo'");
  });

  it('an empty spec', () => {
    expect(errorOf('')).toMatch(/empty agent spec/);
    expect(errorOf('   ')).toMatch(/empty agent spec/);
  });

  it('an unknown key', () => {
    const msg = errorOf('mcts(it=5,foo=1)');
    expect(msg).toContain("unknown parameter 'foo'");
    expect(msg).toContain('mcts(it=5,foo=1)');
  });

  it('an option removed with issue 41 is unknown, and the message says it was removed', () => {
    for (const key of ['root', 'cs', 'topp', 'steps', 'seen', 'cutoff', 'rs', 'tord', 'mast', 'mastp', 'vote']) {
      const msg = errorOf(`mcts(${key}=1)`);
      expect(msg).toContain(`unknown parameter '${key}': removed with issue 41`);
    }
    expect(errorOf('mcts(foo=1)')).not.toContain('removed');
  });

  it('a bad number names the option, its whole range and the value: it=abc, it=0, it=1.5, c=-1, depth=101, depth=0, pw=2', () => {
    expect(errorOf('mcts(it=abc)')).toMatch(/\bit: expected an integer from 1 to 10000000, got 'abc'/);
    expect(errorOf('mcts(it=0)')).toMatch(/\bit: expected an integer from 1 to 10000000, got '0'/);
    expect(errorOf('mcts(it=1.5)')).toMatch(/\bit: expected an integer from 1 to 10000000, got '1\.5'/);
    expect(errorOf('mcts(c=-1)')).toMatch(/\bc: expected a number from 0 to 100, got '-1'/);
    expect(errorOf('mcts(depth=101)')).toMatch(/depth: expected an integer from 1 to 100, got '101'/);
    expect(errorOf('mcts(depth=0)')).toMatch(/depth: expected an integer from 1 to 100, got '0'/);
    expect(errorOf('mcts(pw=2)')).toMatch(/pw: expected a number from 0 to 1, got '2'/);
    // The same checks apply to the thesis syntax.
    expect(errorOf('mcts:abc')).toMatch(/\bit: expected an integer from 1 to 10000000, got 'abc'/);
    expect(errorOf('mcts:100,10,101')).toMatch(/depth: expected an integer from 1 to 100, got '101'/);
    expect(errorOf('mcts:100,-1')).toMatch(/time: expected a number from 0 to 86400, got '-1'/);
  });

  it('bad per-Age values', () => {
    expect(errorOf('mcts(tl=1/2)')).toMatch(/\btl\b.*'1\/2'/);
    expect(errorOf('mcts(scale=0)')).toMatch(/scale.*'0'/);
    expect(errorOf('mcts(scale=1//2)')).toMatch(/scale/);
  });

  it('too many positional values', () => {
    const msg = errorOf('mcts:1,2,3,4');
    expect(msg).toMatch(/at most 3 values/);
    expect(msg).toMatch(/got 4/);
  });

  it('a missing positional value', () => {
    expect(errorOf('mcts:,5')).toMatch(/\bit\b.*missing/);
  });

  it('parameters on a kind that takes none', () => {
    expect(errorOf('random(x=1)')).toContain("'random' takes no parameters");
    expect(errorOf('random:5')).toContain("'random' takes no parameters");
    expect(errorOf('rulebased(it=5)')).toContain("'rulebased' takes no parameters");
  });

  it('a key given twice', () => {
    expect(errorOf('mcts(it=5,it=6)')).toContain("parameter 'it' given twice");
    expect(errorOf('mcts(it=5,IT=6)')).toContain("parameter 'it' given twice");
  });

  it("names of Object's prototype are unknown parameters, not keys given twice nor ignored", () => {
    for (const key of ['constructor', '__proto__', 'tostring', 'hasownproperty']) {
      expect(errorOf(`mcts(${key}=5)`)).toContain(`unknown parameter '${key}'`);
      expect(errorOf(`mcts(it=5,${key}=1)`)).toContain(`unknown parameter '${key}'`);
    }
  });

  it('a bad enum value', () => {
    const msg = errorOf('mcts(tree=foo)');
    expect(msg).toMatch(/tree.*joint \| seats.*'foo'/);
    expect(errorOf('mcts(reward=best)')).toMatch(/reward.*win \| rank \| margin.*'best'/);
    expect(errorOf('mcts(final=max)')).toMatch(/final.*'max'/);
  });

  it('not key=value', () => {
    expect(errorOf('mcts(it)')).toMatch(/key=value.*'it'/);
  });

  it('malformed syntax', () => {
    expect(errorOf('mcts(it=5')).toMatch(/expected/);
    expect(errorOf('123')).toMatch(/expected/);
  });

  it('which entry of a list is wrong', () => {
    const msg = listErrorOf('random;mcts(it=abc);rulebased');
    expect(msg).toMatch(/^seat 1 \(seats 0–2\): /);
    expect(msg).toContain("'abc'");
    expect(listErrorOf('random;rulebased;bogus')).toMatch(/^seat 2 \(seats 0–2\): .*unknown agent kind 'bogus'/);
    expect(listErrorOf('random;;rulebased')).toMatch(/^seat 1 \(seats 0–2\): .*empty agent spec/);
    // A single spec has no position to name.
    expect(listErrorOf('mcts(it=abc)')).not.toMatch(/of 1/);
  });
});

describe('the parameter table is the one source of every option', () => {
  /** A value other than `mcts`'s default, inside the range, as a spec writes it. */
  function otherValue(def: (typeof PARAMETER_LIST)[number]): string {
    switch (def.type) {
      case 'choice':
        return def.values!.find((v) => v !== MCTS_DEFAULTS[def.field])!;
      case 'integer':
      case 'number':
        return String(MCTS_DEFAULTS[def.field] === def.max ? def.min : def.max);
      case 'perAge':
        return `${def.min}/${def.max}/${def.min}`;
      case 'model':
        return 'run1/gen2.onnx';
    }
  }

  // The network's options need each other: they round-trip together, below.
  const NETWORK_KEYS = ['model', 'eval', 'prior', 'batch', 'lambda', 'ptemp', 'noise', 'alpha'];

  it.each(PARAMETER_LIST.filter((def) => !NETWORK_KEYS.includes(def.key)).map((def) => [def.key, def] as const))('%s round-trips through the parser, the canonical and the full form', (key, def) => {
    const value = otherValue(def);
    // reuse=on is refused unless the tree is joint and the determinization is (mcts's is pimc).
    const needs: Record<string, string> = { reuse: 'det=is' };
    const prefix = needs[key] ? `${needs[key]},` : '';
    const base = prefix ? params(`mcts(${needs[key]})`) : MCTS_DEFAULTS;
    const text = `mcts(${prefix}${key}=${value})`;
    const parsed = params(text);
    expect(parsed[def.field], text).not.toEqual(base[def.field]);
    expect({ ...parsed, [def.field]: base[def.field] }).toEqual(base);
    const canonical = canonicalSpec(parseAgentSpec(text));
    expect(canonical).toBe(text);
    expect(params(canonical)).toEqual(parsed);
    expect(params(fullSpec(parseAgentSpec(text)))).toEqual(parsed);
  });

  it.each(['mcts(model=run1/gen2.onnx,eval=net)', 'mcts(model=g.onnx,prior=net)', 'mcts(model=g.onnx,eval=mix,prior=net)', 'mcts(model=g.onnx,eval=mix,prior=net,batch=8)', 'mcts(model=g.onnx,eval=mix,lambda=0.25,prior=root,ptemp=1.5)', 'mcts(model=g.onnx,prior=net,noise=0.25,alpha=0.3)'])('the network options round-trip together: %s', (text) => {
    const parsed = params(text);
    expect(parsed.model).not.toBe(MCTS_DEFAULTS.model);
    expect(canonicalSpec(parseAgentSpec(text))).toBe(text);
    expect(params(fullSpec(parseAgentSpec(text)))).toEqual(parsed);
  });

  it('refuses a network option without the others, and a model name that is not a file under MODELS_DIR', () => {
    expect(errorOf('mcts(eval=net)')).toContain('model: eval=net, prior=ucb read a network: give one (model=NAME.onnx)');
    expect(errorOf('mcts(prior=net)')).toContain('model: eval=playout, prior=net read a network');
    expect(errorOf('mcts(model=g.onnx,prior=net,batch=8)')).toContain("batch: 8 leaves a call are for the network's leaf values: give eval=net or eval=mix (got eval=playout)");
    expect(errorOf('mcts(model=g.onnx)')).toContain('model: g.onnx would not be read: use it with eval=net, eval=mix, prior=net or prior=root');
    expect(errorOf('mcts(model=../g.onnx,eval=net)')).toContain(`model: expected ${describeRange(PARAMETER_LIST.find((d) => d.key === 'model')!)}, got '../g.onnx'`);
    expect(errorOf('mcts(model=g.txt,eval=net)')).toContain("got 'g.txt'");
  });

  it.each(PARAMETER_LIST.filter((def) => def.min !== undefined).map((def) => [def.key, def] as const))('%s out of range names the option and its range', (key, def) => {
    for (const bad of [String(def.min! - 1), String(def.max! + 1)]) {
      expect(errorOf(`mcts(${key}=${bad})`)).toContain(`${key}: expected ${describeRange(def)}, got '${bad}'`);
    }
  });

  it.each(PARAMETER_LIST.filter((def) => def.type === 'choice').map((def) => [def.key, def] as const))('%s with an unknown value lists the values', (key, def) => {
    expect(errorOf(`mcts(${key}=nonsense)`)).toContain(`${key}: expected one of ${def.values!.join(' | ')}, got 'nonsense'`);
  });

  it('an unknown option lists every known key', () => {
    const msg = errorOf('mcts(nonsense=1)');
    for (const def of PARAMETER_LIST) expect(msg).toContain(def.key);
  });

  it('every option has one name: its field in the code is its key in specs', () => {
    for (const def of PARAMETER_LIST) expect(def.field).toBe(def.key);
  });

  it('keys are unique, defaults lie in their ranges, and every named agent parses to its table entry', () => {
    expect(new Set(PARAMETER_LIST.map((d) => d.key)).size).toBe(PARAMETER_LIST.length);
    for (const kind of MCTS_KINDS) {
      const defaults = mctsDefaults(kind);
      expect(params(kind)).toEqual(defaults);
      expect(canonicalSpec(parseAgentSpec(kind))).toBe(kind);
      for (const [field, value] of Object.entries(MCTS_AGENTS[kind].params)) expect(defaults[field as keyof MctsParams]).toEqual(value);
      for (const def of PARAMETER_LIST) {
        const v = defaults[def.field];
        const nums = Array.isArray(v) ? v : typeof v === 'number' ? [v] : [];
        for (const x of nums) expect(x >= def.min! && x <= def.max!, `${kind}.${def.key}`).toBe(true);
        if (def.type === 'choice') expect(def.values).toContain(v);
      }
      // The thesis's positional syntax works for every named agent.
      expect(params(`${kind}:7,2,9`)).toEqual({ ...defaults, it: 7, time: 2, depth: 9 });
    }
  });

  it('parameterTable lists every option with its range and each named agent\'s default', () => {
    const table = parameterTable();
    expect(table.map((row) => row.key)).toEqual(PARAMETER_LIST.map((d) => d.key));
    const reward = table.find((row) => row.key === 'reward')!;
    expect(reward.values).toContain('share');
    expect(reward.defaults['mcts']).toBe(MCTS_DEFAULTS.reward);
    expect(table.find((row) => row.key === 'tl')!.defaults['mcts-robilliard']).toBe('8/24/32');
  });

  it('reuse=on needs tree=joint and det=is', () => {
    expect(params('mcts(det=is,reuse=on)').reuse).toBe('on');
    expect(errorOf('mcts(det=is,reuse=on,tree=seats)')).toMatch(/reuse: 'on' needs tree=joint and det=is.*tree=seats/);
    // mcts's own determinization is pimc: reuse alone is refused, naming it.
    expect(errorOf('mcts(reuse=on)')).toMatch(/reuse: 'on' needs tree=joint and det=is.*det=pimc/);
    expect(errorOf('mcts-robilliard(reuse=on)')).toMatch(/tree=seats/);
  });
});

describe('the option tables people read come from the parameter table', () => {
  it("the README's agent tables are `wonderlab agents --markdown`", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /<!-- agents:begin -->\n([\s\S]*?)\n<!-- agents:end -->/.exec(readme);
    expect(block, 'README.md has the agents:begin/end markers').not.toBeNull();
    expect(block![1], 'regenerate the block with: node bin/wonderlab.mjs agents --markdown').toBe(agentsMarkdown());
  });

  it('every named agent links to a section of the docs that tells where its values come from', () => {
    const docs = new Map<string, string>();
    for (const kind of MCTS_KINDS) {
      const [file, anchor] = MCTS_AGENTS[kind].docs.split('#');
      if (!docs.has(file!)) docs.set(file!, readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));
      // A heading `## name` is the anchor `#name` on GitHub and in most renderers.
      const section = new RegExp(`^## ${anchor}\\n\\n(.+)$`, 'm').exec(docs.get(file!)!);
      expect(section, `${file} has a section ## ${anchor}`).not.toBeNull();
      expect(section![1], `${anchor}'s section gives figures`).toMatch(/\d+(\.\d)? %/);
    }
  });

  it('the help text names every option with its range and every named agent\'s default', () => {
    const text = agentsText();
    for (const def of PARAMETER_LIST) {
      expect(text).toContain(`${def.key}=  ${describeRange(def)}`);
      expect(text).toContain(def.meaning);
    }
    for (const kind of AGENT_KINDS) expect(text).toContain(kind);
    for (const kind of MCTS_KINDS) expect(text).toContain(`      ${MCTS_AGENTS[kind].docs}`);
  });
});

describe('one display name per agent', () => {
  it("is the canonical spec, however the agent was submitted; a text that is no spec stays as it is", () => {
    expect(displayName('mcts:100,10,100')).toBe('mcts');
    expect(displayName('mcts(it=100)')).toBe('mcts');
    expect(displayName('mcts:250')).toBe('mcts(it=250)');
    expect(displayName('rulebased')).toBe('rulebased');
    expect(displayName('the mean of each component')).toBe('the mean of each component');
  });

  it('text tables get an "as submitted" column only when some agent was written otherwise', () => {
    const plain = agentColumns(['rulebased', 'mcts(it=250)']);
    expect(plain.header).toEqual(['agent']);
    expect(plain.cells('mcts(it=250)')).toEqual(['mcts(it=250)']);
    const mixed = agentColumns(['mcts:100,10,100', 'rulebased'], 'configuration');
    expect(mixed.header).toEqual(['configuration', 'as submitted']);
    expect(mixed.cells('mcts:100,10,100')).toEqual(['mcts', 'mcts:100,10,100']);
    expect(mixed.cells('rulebased')).toEqual(['rulebased', '']);
  });
});
