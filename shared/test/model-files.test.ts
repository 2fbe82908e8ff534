/**
 * Model files as the lab reads them (agents/model-files.ts, agents/network.ts): confined to the
 * real MODELS_DIR (a link out of it is answered as a missing file, whether its target exists or
 * not), refused in plain words when they are directories or too large (from their size alone,
 * never read), loaded again when replaced (even at the same size and mtime), and refused when a
 * sweep's recorded sha256 is not the file's any more — per game, so no game is played under
 * another network than the one its sweep recorded.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURE_MODELS, useModelsDir } from './fixture-models.js';
import { DEFAULT_MAX_MODEL_BYTES, ModelError, loadNetwork, modelFile, modelsDirs } from '../src/agents/index.js';
import { Sweep, parseSweepSpec, playGame } from '../src/lab/index.js';

const root = mkdtempSync(join(tmpdir(), 'wl-model-files-'));
const DIR = join(root, 'models');
const OUTSIDE = join(root, 'outside');
mkdirSync(DIR);
mkdirSync(OUTSIDE);
afterAll(() => rmSync(root, { recursive: true, force: true }));
useModelsDir(DIR);

const POLICY = readFileSync(join(FIXTURE_MODELS, 'policy-3p.onnx'));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/** policy-3p.onnx with one weight's bit flipped: as loadable, the same size, another hash. */
const FLIPPED = Buffer.from(POLICY);
FLIPPED[Math.floor(FLIPPED.length / 2)] ^= 1;

const missing = (name: string) => `model '${name}': no such file in MODELS_DIR (${DIR}; links out of it are not followed)`;
const refusal = (name: string) => {
  try {
    loadNetwork(name);
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return (err as Error).message;
  }
  throw new Error(`${name} loaded`);
};

describe('model files are confined to the real MODELS_DIR', () => {
  it('a link out of it is answered as a missing file, whether its target exists, is a model or is missing', () => {
    copyFileSync(join(FIXTURE_MODELS, 'policy-3p.onnx'), join(OUTSIDE, 'real.onnx'));
    symlinkSync('/etc/passwd', join(DIR, 'passwd.onnx'));
    symlinkSync(join(OUTSIDE, 'real.onnx'), join(DIR, 'out-model.onnx'));
    symlinkSync(join(OUTSIDE, 'none.onnx'), join(DIR, 'out-missing.onnx'));
    // A folder linked out of it: the file under it is outside too.
    symlinkSync(OUTSIDE, join(DIR, 'elsewhere'));
    for (const name of ['passwd.onnx', 'out-model.onnx', 'out-missing.onnx', 'elsewhere/real.onnx', 'gone.onnx']) {
      expect(refusal(name)).toBe(missing(name));
    }
  });

  it('a link inside it to a file inside it is followed', () => {
    mkdirSync(join(DIR, 'run'));
    copyFileSync(join(FIXTURE_MODELS, 'policy-3p.onnx'), join(DIR, 'run', 'gen-1.onnx'));
    symlinkSync('run/gen-1.onnx', join(DIR, 'latest.onnx'));
    expect(loadNetwork('latest.onnx').sha256).toBe(sha(POLICY));
  });

  it('MODELS_DIR may itself be a link', () => {
    const linked = join(root, 'linked-models');
    symlinkSync(DIR, linked);
    expect(modelFile('run/gen-1.onnx', DEFAULT_MAX_MODEL_BYTES, [linked]).path).toBe(join(DIR, 'run', 'gen-1.onnx'));
  });
});

describe('MODELS_DIR as a list of folders', () => {
  it('a name is read from the first folder that has it; missing there, or a link out of it, it is looked for in the next', () => {
    const first = join(root, 'first');
    const second = join(root, 'second');
    mkdirSync(join(first, 'run'), { recursive: true });
    mkdirSync(join(second, 'run'), { recursive: true });
    writeFileSync(join(first, 'run', 'both.onnx'), POLICY);
    writeFileSync(join(second, 'run', 'both.onnx'), FLIPPED);
    writeFileSync(join(second, 'run', 'second.onnx'), POLICY);
    writeFileSync(join(OUTSIDE, 'linked.onnx'), FLIPPED);
    symlinkSync(join(OUTSIDE, 'linked.onnx'), join(first, 'run', 'linked.onnx'));
    writeFileSync(join(second, 'run', 'linked.onnx'), POLICY);
    const dirs = modelsDirs(`${first}:${second}`);
    expect(dirs).toEqual([first, second]);
    expect(modelFile('run/both.onnx', DEFAULT_MAX_MODEL_BYTES, dirs).path).toBe(join(first, 'run', 'both.onnx'));
    expect(modelFile('run/second.onnx', DEFAULT_MAX_MODEL_BYTES, dirs).path).toBe(join(second, 'run', 'second.onnx'));
    expect(modelFile('run/linked.onnx', DEFAULT_MAX_MODEL_BYTES, dirs).path).toBe(join(second, 'run', 'linked.onnx'));
    expect(() => modelFile('run/none.onnx', DEFAULT_MAX_MODEL_BYTES, dirs)).toThrow(`model 'run/none.onnx': no such file in MODELS_DIR (${first}:${second}; links out of it are not followed)`);
  });
});

describe('the published networks, on a fresh clone, by the names the docs print', () => {
  const ROOT = fileURLToPath(new URL('../../', import.meta.url));
  // MODELS_DIR unset, the lab started from the repository's root as `npm start` starts it.
  const dirs = modelsDirs(undefined, ROOT);
  const sha256 = (path: string) => sha(readFileSync(path));

  it('MODELS_DIR unset: models/ (trained here, ignored by git), then learning/ and reproduction/ (published)', () => {
    expect(dirs).toEqual([join(ROOT, 'models'), join(ROOT, 'learning'), join(ROOT, 'reproduction')]);
    expect(readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n')).toContain('/models/');
  });

  it('every network a learning run recorded is found by its name, and is the file the run recorded', () => {
    const runs = readdirSync(join(ROOT, 'learning'), { withFileTypes: true }).filter((d) => d.isDirectory());
    const models = runs.flatMap((d) => {
      const state = JSON.parse(readFileSync(join(ROOT, 'learning', d.name, 'learn.json'), 'utf8'));
      return state.generations.filter((g: any) => g.model).map((g: any) => g.model as { name: string; sha256: string });
    });
    expect(models.map((m) => m.name)).toContain('strong/gen-3.onnx');
    for (const m of models) expect(sha256(modelFile(m.name, DEFAULT_MAX_MODEL_BYTES, dirs).path), m.name).toBe(m.sha256);
  });

  it('every model name the README, docs/, LEARNING.md and REPRODUCTION.md print is found, placeholders aside', () => {
    // Names that stand for any network, and the one docs/learning.md's commands train (net-g1.onnx).
    const PLACEHOLDERS = new Set(['NAME.onnx', 'my.onnx', 'net-g1.onnx']);
    const texts = ['README.md', 'LEARNING.md', 'REPRODUCTION.md', ...readdirSync(join(ROOT, 'docs')).map((f) => `docs/${f}`)].map((f) => readFileSync(join(ROOT, f), 'utf8'));
    const names = new Set(texts.flatMap((t) => [...t.matchAll(/model=([A-Za-z0-9_][A-Za-z0-9._/-]*\.onnx)/g)].map((m) => m[1])));
    // REPRODUCTION.md names its DQN networks `dqn-2021/<setup>.onnx`: each file of that folder.
    for (const f of readdirSync(join(ROOT, 'reproduction', 'dqn-2021')).filter((f) => f.endsWith('.onnx'))) names.add(`dqn-2021/${f}`);
    const named = [...names].filter((n) => !PLACEHOLDERS.has(n));
    expect(named).toContain('strong/gen-3.onnx');
    expect(named.filter((name) => !modelFile(name, DEFAULT_MAX_MODEL_BYTES, dirs).path.startsWith(ROOT))).toEqual([]);
  });
});

describe('files that are no model are refused in plain words', () => {
  it('a directory named like a model', () => {
    mkdirSync(join(DIR, 'folder.onnx'));
    expect(refusal('folder.onnx')).toBe("model 'folder.onnx': a directory, not a model file");
  });

  it('a file over the size limit, from its size alone (a sparse file: nothing is read)', () => {
    const path = join(DIR, 'huge.onnx');
    writeFileSync(path, '');
    truncateSync(path, DEFAULT_MAX_MODEL_BYTES + 1);
    expect(() => modelFile('huge.onnx', DEFAULT_MAX_MODEL_BYTES)).toThrow(
      "model 'huge.onnx': 256.0 MiB (268,435,457 bytes), over this lab's limit of 256.0 MiB (268,435,456 bytes) per model file (MAX_MODEL_BYTES)",
    );
  });

  it('a file over the 2 GiB an ONNX file can hold, without a limit of the lab', () => {
    const path = join(DIR, 'over-2gib.onnx');
    writeFileSync(path, '');
    truncateSync(path, 2.5 * 2 ** 30);
    expect(refusal('over-2gib.onnx')).toBe("model 'over-2gib.onnx': 2.50 GiB (2,684,354,560 bytes), more than the 2 GiB an ONNX file can hold (protobuf's limit)");
  });

  it('a file that is no ONNX model says so with its name', () => {
    writeFileSync(join(DIR, 'text.onnx'), 'not a network');
    expect(refusal('text.onnx')).toMatch(/^model 'text.onnx': not a model onnxruntime can load \(/);
  });
});

describe('a replaced model file', () => {
  it('is loaded again, even at the same size and modification time', () => {
    const path = join(DIR, 'swapped.onnx');
    const when = 1_700_000_000;
    writeFileSync(path, POLICY);
    utimesSync(path, when, when);
    const before = statSync(path);
    expect(loadNetwork('swapped.onnx').sha256).toBe(sha(POLICY));
    // Replaced the way a copy tool does it (a new file renamed over the old), then given the old
    // file's times: size and mtime are what they were, its inode and ctime are not.
    writeFileSync(`${path}.tmp`, FLIPPED);
    renameSync(`${path}.tmp`, path);
    utimesSync(path, when, when);
    expect([statSync(path).size, statSync(path).mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(loadNetwork('swapped.onnx').sha256).toBe(sha(FLIPPED));
  });

  it('fails the game of a sweep that recorded another sha256, naming both', () => {
    writeFileSync(join(DIR, 'played.onnx'), POLICY);
    const spec = parseSweepSpec({ name: 'swap', players: 3, seats: ['policy(model=played.onnx)', 'random', 'random'], deals: { count: 1 } });
    const recorded = { 'played.onnx': sha(POLICY) };
    const sweep = new Sweep(spec, { models: recorded });
    expect(sweep.game(0).models).toEqual(recorded);
    expect(playGame(sweep.game(0)).players).toHaveLength(3);
    writeFileSync(join(DIR, 'played.onnx'), FLIPPED);
    expect(() => playGame(sweep.game(0))).toThrow(
      `model 'played.onnx' changed since the sweep was submitted: sha256 ${sha(POLICY).slice(0, 12)}… recorded, ${sha(FLIPPED).slice(0, 12)}… now`,
    );
    // The same for a network guiding MCTS.
    const mcts = new Sweep(parseSweepSpec({ name: 'swap', players: 3, seats: ['mcts(it=5,time=0,model=played.onnx,prior=net)', 'random', 'random'], deals: { count: 1 } }), { models: recorded });
    expect(() => playGame(mcts.game(0))).toThrow(/model 'played.onnx' changed since the sweep was submitted/);
    // Without recorded hashes (a local run), the file is played as it is.
    expect(playGame(new Sweep(spec).game(0)).players).toHaveLength(3);
  });
});
