/**
 * Model files: a model's name → its file under MODELS_DIR, checked before a byte of it is read.
 * MODELS_DIR is a list of folders searched in order (below). The lab never reads a file outside
 * them: a name is a relative path of plain segments, and its real path (links resolved) must lie
 * under the real folder it was found in. A link out of a folder is answered exactly as a missing
 * file, so that a name never tells whether something exists elsewhere. A directory, a device or a
 * pipe is refused, and so is a file over the size limit, from its size.
 *
 * A file's identity (real path, size, mtime, ctime, inode) says whether it is the file read
 * before: a file replaced by a copy of the same size, its times set back, still has another inode
 * and ctime. Caches of what a file holds are keyed by it (network.ts, the coordinator's checks).
 */
import { constants, closeSync, fstatSync, openSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve, sep } from 'node:path';

export class ModelError extends Error {}

/** Letters, digits, '.', '_', '-' in path segments separated by '/', ending in .onnx: a name, never a path out. */
export const MODEL_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]*(\/[A-Za-z0-9_][A-Za-z0-9._-]*)*\.onnx$/;

/** MAX_MODEL_BYTES by default: the lab's networks are 0.07–1.4 MB, so 256 MiB leaves room for far larger ones. */
export const DEFAULT_MAX_MODEL_BYTES = 256 * 2 ** 20;

/** The most an ONNX file can hold: it is one protobuf message, and protobuf refuses those over 2 GiB. */
export const ONNX_MAX_BYTES = 2 ** 31;

/**
 * MODELS_DIR when it is not set: `models`, where networks trained here go (git ignores it), then
 * the repository's published networks where their runs keep them: `learning` (the learning runs,
 * learning/<run>/gen-<g>.onnx) and `reproduction` (the DQN of REPRODUCTION.md,
 * reproduction/dqn-2021/<setup>.onnx). So `strong/gen-3.onnx` plays on a fresh clone from the one
 * copy the repository holds, and a network trained here is written apart from the published ones.
 * A name comes from the first folder that has it: a network trained here under a published run's
 * name would hide that one, which is why `wonderlab learn` refuses such a name.
 */
export const DEFAULT_MODELS_DIR = ['models', 'learning', 'reproduction'].join(delimiter);

/**
 * The folders a model name is looked up in, in order: MODELS_DIR's entries (separated as PATH's
 * are, by ':'; empty entries ignored), or DEFAULT_MODELS_DIR's, resolved from `base`.
 */
export function modelsDirs(value = process.env.MODELS_DIR, base = process.cwd()): string[] {
  return (value || DEFAULT_MODELS_DIR)
    .split(delimiter)
    .filter((dir) => dir !== '')
    .map((dir) => resolve(base, dir));
}

/** The file of a model name as written under `dir` (links not resolved); throws ModelError for a name that is not one. */
export function modelPath(name: string, dir = modelsDirs()[0]): string {
  if (!MODEL_NAME.test(name) || name.split('/').some((part) => part === '..' || part === '.') || isAbsolute(name)) {
    throw new ModelError(`model '${name}': expected a file name under MODELS_DIR such as dqn-3p.onnx or run1/gen4.onnx (letters, digits, . _ - and /, ending in .onnx)`);
  }
  const base = resolve(dir);
  const path = resolve(join(base, name));
  if (!path.startsWith(base + sep)) throw new ModelError(`model '${name}': outside MODELS_DIR`);
  return path;
}

/** A model file found and checked, not yet read. */
export interface ModelFile {
  name: string;
  /** Its real path (links resolved), under the real MODELS_DIR. */
  path: string;
  size: number;
  /** Real path, size, mtime, ctime and inode: another value, another file (or the file changed). */
  identity: string;
}

const MiB = 2 ** 20;
/** Bytes in plain words: '256.0 MiB (268,435,456 bytes)', '2.50 GiB (…)'. */
function sizeText(bytes: number): string {
  const short = bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)} GiB` : `${(bytes / MiB).toFixed(1)} MiB`;
  return `${short} (${bytes.toLocaleString('en-US')} bytes)`;
}

/** The one answer for a name with no file under MODELS_DIR: missing, a dangling link, or a link out of it. */
function noSuchFile(name: string, dirs: readonly string[]): ModelError {
  return new ModelError(`model '${name}': no such file in MODELS_DIR (${dirs.join(delimiter)}; links out of it are not followed)`);
}

function changed(name: string): ModelError {
  return new ModelError(`model '${name}': the file changed while it was being read; try again`);
}

function identityOf(path: string, st: Stats): string {
  return `${path}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
}

/** The checks on a file found in a folder of MODELS_DIR (its real path under the folder's), shared by the synchronous and the asynchronous look-up. */
function checkedFile(name: string, real: string, st: Stats, maxBytes: number): ModelFile {
  if (st.isDirectory()) throw new ModelError(`model '${name}': a directory, not a model file`);
  if (!st.isFile()) throw new ModelError(`model '${name}': not a regular file (a device, pipe or socket), not a model file`);
  // Past what an ONNX file can hold, a larger limit of the lab is no reason.
  if (st.size > maxBytes && maxBytes < ONNX_MAX_BYTES) {
    throw new ModelError(`model '${name}': ${sizeText(st.size)}, over this lab's limit of ${sizeText(maxBytes)} per model file (MAX_MODEL_BYTES)`);
  }
  if (st.size > ONNX_MAX_BYTES) throw new ModelError(`model '${name}': ${sizeText(st.size)}, more than the 2 GiB an ONNX file can hold (protobuf's limit)`);
  return { name, path: real, size: st.size, identity: identityOf(real, st) };
}

/**
 * The file of a model name, checked (ModelError otherwise) from its real path and stat alone: the
 * first of `dirs` whose real path holds it (a name missing there, or a link out of it, is looked
 * for in the next), a regular file, at most `maxBytes` (and the 2 GiB an ONNX file can hold).
 */
export function modelFile(name: string, maxBytes = ONNX_MAX_BYTES, dirs: readonly string[] = modelsDirs()): ModelFile {
  for (const dir of dirs) {
    const path = modelPath(name, dir);
    let real: string;
    let st: Stats;
    try {
      const realDir = realpathSync(dir);
      real = realpathSync(path);
      if (!real.startsWith(realDir + sep)) continue;
      st = statSync(real);
    } catch {
      continue;
    }
    return checkedFile(name, real, st, maxBytes);
  }
  throw noSuchFile(name, dirs);
}

/** modelFile without blocking the event loop (the file system's calls run on libuv's pool). */
export async function modelFileAsync(name: string, maxBytes = ONNX_MAX_BYTES, dirs: readonly string[] = modelsDirs()): Promise<ModelFile> {
  for (const dir of dirs) {
    const path = modelPath(name, dir);
    let real: string;
    let st: Stats;
    try {
      const [realDir, realFile] = await Promise.all([realpath(dir), realpath(path)]);
      real = realFile;
      if (!real.startsWith(realDir + sep)) continue;
      st = await stat(real);
    } catch {
      continue;
    }
    return checkedFile(name, real, st, maxBytes);
  }
  throw noSuchFile(name, dirs);
}

/**
 * The bytes of a checked file, and only if it is still that file: it is opened without following
 * a link (and without waiting on a pipe put in its place), and its identity compared before it is
 * read, so no more than its checked size is ever read.
 */
export function readModelFile(file: ModelFile): Buffer<ArrayBuffer> {
  let fd: number;
  try {
    fd = openSync(file.path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw changed(file.name);
  }
  try {
    if (identityOf(file.path, fstatSync(fd)) !== file.identity) throw changed(file.name);
    const bytes = Buffer.allocUnsafe(file.size);
    let at = 0;
    while (at < file.size) {
      const n = readSync(fd, bytes, at, file.size - at, at);
      if (n === 0) throw changed(file.name);
      at += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}
