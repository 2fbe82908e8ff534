/**
 * How a result was made: the code version that ran it (the package's version and, where known,
 * the git commit and whether the tree had changes), and what identifies a worker process. A
 * sweep records the coordinator's version when it is created and each worker's with the games it
 * played, so a table can be traced to the code behind it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { cpus, hostname } from 'node:os';
import { fileURLToPath } from 'node:url';

export interface CodeVersion {
  /** The repository's package name and version (package.json at its root). */
  package: string;
  version: string;
  /** The git commit, from WONDERLAB_COMMIT or GIT_COMMIT, else `git rev-parse HEAD` in the repository; absent when unknown (an image built without it). */
  commit?: string;
  /** Whether tracked files differed from the commit (from git, or WONDERLAB_DIRTY=true/false beside WONDERLAB_COMMIT). */
  dirty?: boolean;
  node: string;
}

const ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', timeout: 3000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The variables an image carries its code version in (every process reads them: codeVersion). */
export const CODE_VERSION_ENV: readonly string[] = ['WONDERLAB_COMMIT', 'WONDERLAB_DIRTY', 'GIT_COMMIT'];

let cached: CodeVersion | undefined;

/** This process's code version (read once). */
export function codeVersion(): CodeVersion {
  if (cached) return cached;
  let pkg: { name?: string; version?: string } = {};
  for (const path of ['package.json', 'shared/package.json']) {
    try {
      pkg = JSON.parse(readFileSync(ROOT + path, 'utf8'));
      break;
    } catch {
      // not there (a package installed alone): try the next
    }
  }
  // An image has no git: its build passes the commit (and whether the tree was clean) as arguments
  // that become these variables (the Dockerfile); an empty one means unknown.
  const fromEnv = process.env.WONDERLAB_COMMIT || process.env.GIT_COMMIT;
  const commit = fromEnv || git(['rev-parse', 'HEAD']);
  const envDirty = process.env.WONDERLAB_DIRTY;
  const dirty = fromEnv ? (envDirty === 'true' ? true : envDirty === 'false' ? false : undefined) : commit ? git(['status', '--porcelain', '--untracked-files=no'])?.length !== 0 : undefined;
  cached = {
    package: pkg.name ?? 'wonderlab',
    version: pkg.version ?? 'unknown',
    ...(commit ? { commit } : {}),
    ...(dirty !== undefined ? { dirty } : {}),
    node: process.version,
  };
  return cached;
}

/**
 * A worker process as a sweep records it: where it ran, on what processor, and the code it ran.
 * The processor is part of a result: a claim at equal wall time per move holds on the machine
 * that measured it (a network call costs four times more on one processor than on another).
 */
export interface WorkerIdentity {
  host: string;
  pid: number;
  version: string;
  commit?: string;
  dirty?: boolean;
  /** The processor's model name and the machine's logical cores (absent in records made before they were kept). */
  cpu?: string;
  cores?: number;
}

/**
 * The benchmarks' header line naming the processor and its logical cores: a ratio to calibration
 * travels between machines, a time does not, and neither says where it was measured without this.
 */
export function processorLine(): string {
  const p = processor();
  return `# processor: ${p?.cpu ?? 'unknown'}, ${p?.cores ?? 0} logical cores`;
}

/** The processor's model name and the machine's logical cores; undefined where the system gives none. */
function processor(): { cpu: string; cores: number } | undefined {
  const processors = cpus();
  return processors.length > 0 ? { cpu: processors[0].model.trim(), cores: processors.length } : undefined;
}

export function workerIdentity(): WorkerIdentity {
  const v = codeVersion();
  return {
    host: hostname(),
    pid: process.pid,
    version: v.version,
    ...(v.commit ? { commit: v.commit } : {}),
    ...(v.dirty !== undefined ? { dirty: v.dirty } : {}),
    ...processor(),
  };
}

/**
 * A source file newer than its project's last build, as a sentence, or undefined. A process runs
 * the compiled dist/ but stamps its results with the repository's commit: a checkout moved to
 * another commit without `tsc -b` would play old code under the new commit's name (it happened
 * once, caught only by a timing that did not fit). `tsc -b` touches each project's
 * dist/tsconfig.tsbuildinfo even when nothing changed, so a source (.ts, .json) under the project's
 * src/ or bench/ with a later time was changed after the build. The projects are the root
 * tsconfig.json's references; without it or a project's build info (an image, which holds no
 * sources) there is nothing to compare.
 */
export function staleBuild(root = ROOT): string | undefined {
  let references: { path: string }[];
  try {
    references = (JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { references?: { path: string }[] }).references ?? [];
  } catch {
    return undefined;
  }
  for (const { path: project } of references) {
    let built: number;
    try {
      built = statSync(join(root, project, 'dist', 'tsconfig.tsbuildinfo')).mtimeMs;
    } catch {
      continue;
    }
    for (const dir of ['src', 'bench']) {
      const newer = newerSource(join(root, project, dir), built);
      if (newer) {
        return `${relative(root, newer)} is newer than ${project}/dist (built ${new Date(built).toISOString()}): run npm run build (npm start builds first)`;
      }
    }
  }
  return undefined;
}

/** The first .ts or .json file under dir modified after `time` (ms), or undefined. */
function newerSource(dir: string, time: number): string | undefined {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = newerSource(path, time);
      if (found) return found;
    } else if ((entry.name.endsWith('.ts') || entry.name.endsWith('.json')) && statSync(path).mtimeMs > time) {
      return path;
    }
  }
  return undefined;
}
