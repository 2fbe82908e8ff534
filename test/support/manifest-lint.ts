/**
 * The deployment files' linter: static checks of the Dockerfile, .dockerignore,
 * docker-compose.yml, .env.example and the kustomize manifests under k8s/ (k8s/base and every
 * k8s/overlays/*). There is no Docker engine or cluster here: the files are parsed, k8s/ is built
 * by the real kustomize (`kubectl kustomize`; skipped where kubectl is missing), every object is
 * validated against its Kubernetes (or KEDA) schema, and all of it is cross-checked against the
 * code: the settings each process reads (its zod schema), the paths it serves, the Redis key prefix
 * and queue name, the backlog route KEDA reads. (test/docker-build.sh builds the images and runs
 * compose for real where a Docker engine runs.)
 *
 * Every check is a function returning a list of problems (empty: fine), so that a test can feed it
 * a modified copy and see it fail (test/deployment.test.ts). Run alone, it lists every problem in
 * the repository and exits 1 if there is one:
 *
 *   npx tsx test/support/manifest-lint.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAllDocuments, parseDocument } from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { DEFAULT_KEY_PREFIX, DEFAULT_QUEUE_NAME, StoreEnvSchema } from '@wonderlab/shared/store';
import { isLoopback, reachedAt, unguardedProblem } from '@wonderlab/shared/http';
import { CODE_VERSION_ENV, DEFAULT_AGENTS_DIR } from '@wonderlab/shared';
import { BACKLOG_FIELD, BACKLOG_ROUTE, CoordinatorEnvSchema } from '@wonderlab/coordinator';
import { WorkerEnvSchema } from '@wonderlab/worker';
import { DashboardEnvSchema } from '@wonderlab/dashboard';

// ---------------------------------------------------------------------------------------------
// The repository

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const repoPath = (p: string) => join(ROOT, p);
export const readText = (p: string) => readFileSync(repoPath(p), 'utf8');
export const rel = (abs: string) => relative(ROOT, abs).split(sep).join('/') || '.';
export const isDir = (p: string) => existsSync(repoPath(p)) && statSync(repoPath(p)).isDirectory();
export const isFile = (p: string) => existsSync(repoPath(p)) && statSync(repoPath(p)).isFile();

/* eslint-disable @typescript-eslint/no-explicit-any */
/** A Kubernetes object, a compose file: parsed YAML, checked field by field. */
export type Obj = Record<string, any>;
export type Env = Record<string, string>;

export const isRecord = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const clone = <T>(v: T): T => structuredClone(v);

// ---------------------------------------------------------------------------------------------
// The code side: each process, the settings it reads and the paths it serves

export interface ZodLike {
  safeParse(input: unknown): { success: boolean; data?: unknown; error?: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}
export interface EnvSchema extends ZodLike {
  shape: Record<string, ZodLike>;
}

export const keysOf = (schema: EnvSchema) => new Set(Object.keys(schema.shape));

/** The value `schema` gives `key` in `env` (its default when unset), or undefined when invalid. */
export function setting(schema: EnvSchema, key: string, env: Env): unknown {
  const field = schema.shape[key];
  if (!field) throw new Error(`${key} is not a setting of this process`);
  const result = field.safeParse(env[key]);
  return result.success ? result.data : undefined;
}

/** The problems `schema` finds in `env`, one per variable. */
export function envIssues(schema: EnvSchema, env: Env): string[] {
  const result = schema.safeParse(env);
  return result.success ? [] : (result.error?.issues ?? []).map((i) => `${i.path.map(String).join('.')}=${JSON.stringify(env[String(i.path[0])] ?? null)}: ${i.message}`);
}

export type ProcName = 'coordinator' | 'worker' | 'dashboard' | 'lab';

export interface Proc {
  name: ProcName;
  /** The script node runs, relative to the image's WORKDIR. */
  script: string;
  /** Its settings (lab: no single exported schema, names only). */
  schema?: EnvSchema;
  envNames: ReadonlySet<string>;
  /** Exact paths the process answers itself (what a probe may ask). */
  paths: ReadonlySet<string>;
  /** Ports it listens on, given its environment. */
  listenPorts(env: Env): number[];
}

/** String-literal routes in a source file (routes with parameters left out). */
export function routesIn(file: string, re: RegExp): string[] {
  return [...readText(file).matchAll(re)].map((m) => m[1]).filter((p) => !p.includes(':'));
}

/** The coordinator's route modules (services/coordinator/src/routes/*.ts). */
export const COORDINATOR_ROUTES = readdirSync(repoPath('services/coordinator/src/routes')).filter((f) => f.endsWith('.ts')).map((f) => `services/coordinator/src/routes/${f}`);
export const COORDINATOR_PATHS = new Set(
  COORDINATOR_ROUTES.flatMap((file) => [
    ...routesIn(file, /\brouter\.get\(\s*'([^']+)'/g),
    ...(/\brouter\.get\(\s*BACKLOG_ROUTE\b/.test(readText(file)) ? [BACKLOG_ROUTE] : []),
  ]),
);
export const WORKER_PATHS = new Set(routesIn('services/worker/src/main.ts', /req\.url === '([^']+)'/g));
export const DASHBOARD_OWN_PATHS = new Set([
  ...routesIn('services/dashboard/src/main.ts', /\bapp\.get\(\s*'([^']+)'/g),
  ...routesIn('services/dashboard/src/dashboard.ts', /\brouter\.get\(\s*'([^']+)'/g),
]);
/** Prefixes the dashboard passes through to the coordinator. */
export const DASHBOARD_PROXIED = ((/\bapp\.use\(\s*\[([^\]]*)\]/.exec(readText('services/dashboard/src/main.ts'))?.[1] ?? '').match(/'[^']+'/g) ?? []).map((s) => s.slice(1, -1));

export const coordinatorSchema = CoordinatorEnvSchema as unknown as EnvSchema;
export const workerSchema = WorkerEnvSchema as unknown as EnvSchema;
export const dashboardSchema = DashboardEnvSchema as unknown as EnvSchema;
export const storeSchema = StoreEnvSchema as unknown as EnvSchema;

export const portSetting = (schema: EnvSchema, key: string) => (env: Env) => {
  const v = setting(schema, key, env);
  return typeof v === 'number' && v > 0 ? [v] : [];
};

export const PROCS: Proc[] = [
  { name: 'coordinator', script: 'services/coordinator/dist/src/main.js', schema: coordinatorSchema, envNames: keysOf(coordinatorSchema), paths: COORDINATOR_PATHS, listenPorts: portSetting(coordinatorSchema, 'PORT') },
  // The health server (/healthz, /readyz) runs only when HEALTH_PORT is set.
  { name: 'worker', script: 'services/worker/dist/src/main.js', schema: workerSchema, envNames: keysOf(workerSchema), paths: WORKER_PATHS, listenPorts: portSetting(workerSchema, 'HEALTH_PORT') },
  { name: 'dashboard', script: 'services/dashboard/dist/src/main.js', schema: dashboardSchema, envNames: keysOf(dashboardSchema), paths: DASHBOARD_OWN_PATHS, listenPorts: portSetting(dashboardSchema, 'PORT') },
  // `wonderlab serve` (services/serve/src/embedded.ts): the coordinator's and the worker's settings, and DATA_DIR.
  {
    name: 'lab',
    script: 'bin/wonderlab.mjs',
    envNames: new Set([...keysOf(coordinatorSchema), ...keysOf(workerSchema), 'DATA_DIR']),
    paths: new Set([...COORDINATOR_PATHS, ...DASHBOARD_OWN_PATHS]),
    listenPorts: portSetting(coordinatorSchema, 'PORT'),
  },
];

/** The script a `node …` command line runs: its first argument that is not an option. */
export function scriptOf(argv: readonly string[] | undefined): string | undefined {
  if (!argv || argv[0] !== 'node') return undefined;
  return argv.slice(1).find((a) => !a.startsWith('-'));
}
export const procOfArgv = (argv: readonly string[] | undefined) => PROCS.find((p) => p.script === scriptOf(argv));
export const procNamed = (name: ProcName) => PROCS.find((p) => p.name === name)!;

// ---------------------------------------------------------------------------------------------
// Dockerfile

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
  /** WORKDIR in effect. */
  wd: string;
}
export interface Stage {
  name: string;
  base: string;
  line: number;
  instructions: Instruction[];
}

/** Splits like a shell: whitespace separates words, quotes group them (no escapes, no variables). */
export function shellWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let started = false;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (/\s/.test(ch)) {
      if (started || cur) out.push(cur);
      cur = '';
      started = false;
    } else cur += ch;
  }
  if (started || cur) out.push(cur);
  return out;
}

/** The JSON (exec) form of CMD / HEALTHCHECK CMD / COPY, or undefined for the shell form. */
export function execForm(args: string): string[] | undefined {
  if (!args.trim().startsWith('[')) return undefined;
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not a JSON array of strings: ${args}`);
  return parsed;
}

export function parseDockerfile(text: string): Stage[] {
  const instructions: Omit<Instruction, 'wd'>[] = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line.startsWith('#') || (line === '' && !buf)) return;
    if (!buf) start = i + 1;
    if (line.endsWith('\\')) {
      buf += `${line.slice(0, -1).trim()} `;
      return;
    }
    buf += line;
    if (!buf.trim()) return;
    const m = /^(\S+)\s*([\s\S]*)$/.exec(buf.trim())!;
    instructions.push({ keyword: m[1].toUpperCase(), args: m[2].trim(), line: start });
    buf = '';
  });
  const stages: Stage[] = [];
  for (const ins of instructions) {
    if (ins.keyword === 'FROM') {
      const m = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`Dockerfile:${ins.line}: cannot parse FROM ${ins.args}`);
      const base = stages.find((s) => s.name === m[1]);
      const wd = base ? (base.instructions.at(-1)?.wd ?? '/') : '/';
      stages.push({ name: m[2] ?? String(stages.length), base: m[1], line: ins.line, instructions: [] });
      // The stage's first pseudo-instruction carries the inherited WORKDIR.
      stages.at(-1)!.instructions.push({ keyword: '#FROM', args: m[1], line: ins.line, wd });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) continue; // ARG before the first FROM
    const prevWd = stage.instructions.at(-1)!.wd;
    const wd = ins.keyword === 'WORKDIR' ? posix.resolve(prevWd, ins.args) : prevWd;
    stage.instructions.push({ ...ins, wd });
  }
  return stages;
}

/** The stage and the stages it is built FROM, root first. */
export function stageChain(stages: Stage[], name: string): Stage[] {
  const out: Stage[] = [];
  let stage = stages.find((s) => s.name === name);
  while (stage) {
    out.unshift(stage);
    const index = stages.indexOf(stage);
    stage = stages.slice(0, index).find((s) => s.name === stage!.base);
  }
  return out;
}

export interface Healthcheck {
  argv?: string[];
  shell?: string;
  none: boolean;
  line: number;
}
export interface Effective {
  env: Env;
  user?: string;
  cmd?: { argv?: string[]; shell?: string; line: number };
  healthcheck?: Healthcheck;
  expose: number[];
  wd: string;
}

export function parseEnvInstruction(args: string): Env {
  const words = shellWords(args);
  if (words.length && !words[0].includes('=')) return { [words[0]]: words.slice(1).join(' ') };
  return Object.fromEntries(words.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}

/** What a target ends up with: ENV, USER, CMD, HEALTHCHECK, EXPOSE along its FROM chain. */
export function effective(stages: Stage[], target: string): Effective {
  const eff: Effective = { env: {}, expose: [], wd: '/' };
  for (const stage of stageChain(stages, target)) {
    for (const ins of stage.instructions) {
      eff.wd = ins.wd;
      if (ins.keyword === 'ENV') Object.assign(eff.env, parseEnvInstruction(ins.args));
      else if (ins.keyword === 'USER') eff.user = ins.args.trim();
      else if (ins.keyword === 'EXPOSE') eff.expose.push(...shellWords(ins.args).map((p) => Number.parseInt(p, 10)));
      else if (ins.keyword === 'CMD') {
        const argv = execForm(ins.args);
        eff.cmd = argv ? { argv, line: ins.line } : { shell: ins.args, line: ins.line };
      } else if (ins.keyword === 'HEALTHCHECK') {
        if (/^NONE$/i.test(ins.args.trim())) eff.healthcheck = { none: true, line: ins.line };
        else {
          const m = /^((?:--\S+\s+)*)CMD\s+([\s\S]*)$/.exec(ins.args);
          if (!m) throw new Error(`Dockerfile:${ins.line}: cannot parse HEALTHCHECK ${ins.args}`);
          const argv = execForm(m[2]);
          eff.healthcheck = argv ? { argv, none: false, line: ins.line } : { shell: m[2], none: false, line: ins.line };
        }
      }
    }
  }
  return eff;
}

export interface Copy {
  from?: string;
  sources: string[];
  /** Absolute path in the image. */
  dest: string;
  /** The destination is a directory (trailing slash or several sources). */
  destIsDir: boolean;
  line: number;
}

export function parseCopy(ins: Instruction): Copy {
  let rest = ins.args;
  let from: string | undefined;
  for (;;) {
    const m = /^--([a-z-]+)(?:=(\S*))?\s+/.exec(rest);
    if (!m) break;
    if (m[1] === 'from') from = m[2];
    rest = rest.slice(m[0].length);
  }
  const words = execForm(rest) ?? shellWords(rest);
  const destRaw = words.at(-1)!;
  const sources = words.slice(0, -1);
  const destIsDir = destRaw.endsWith('/') || sources.length > 1 || destRaw === '.';
  return { from, sources, dest: posix.resolve(ins.wd, destRaw), destIsDir, line: ins.line };
}

/** .dockerignore as a predicate on paths relative to the build context. */
export function dockerignore(text: string): (path: string) => boolean {
  const globToRegex = (glob: string) => {
    let re = '';
    for (let i = 0; i < glob.length; i++) {
      const c = glob[i];
      if (c === '*' && glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`^${re}$`);
  };
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negate = l.startsWith('!');
      const pattern = posix.normalize((negate ? l.slice(1) : l).replace(/^\/+/, '')).replace(/\/$/, '');
      return { negate, re: globToRegex(pattern) };
    });
  return (path: string) => {
    // './x' is 'x' ('.env' stays '.env').
    const parts = posix.normalize(path).replace(/^\.(?:\/|$)/, '').split('/');
    // A path is excluded with its directory: test it and every ancestor.
    const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let ignored = false;
    for (const rule of rules) if (candidates.some((c) => rule.re.test(c))) ignored = !rule.negate;
    return ignored;
  };
}

export const readJson = (p: string): Obj => JSON.parse(readText(p)) as Obj;

/** Where a path in an image comes from. */
export type Origin = { kind: 'context'; path: string } | { kind: 'tsc'; pkg: string; outDir: string; rest: string } | { kind: 'npm'; path: string };

export interface DockerModel {
  stages: Stage[];
  ignored: (path: string) => boolean;
}

/** The packages `tsc -b` builds from the root tsconfig.json, with their outDir and rootDir. */
export function tscPackages(): { pkg: string; outDir: string; rootDir: string; include: string[] }[] {
  return ((readJson('tsconfig.json').references ?? []) as { path: string }[]).map(({ path }) => {
    const pkg = posix.normalize(path);
    const tsconfig = readJson(`${pkg}/tsconfig.json`);
    const options = (tsconfig.compilerOptions ?? {}) as Obj;
    return { pkg, outDir: posix.normalize(options.outDir ?? '.'), rootDir: posix.normalize(options.rootDir ?? '.'), include: tsconfig.include ?? [] };
  });
}

/**
 * Where `path` (absolute, in the image of `stageName`) comes from: the last COPY or RUN that put
 * it there. RUN is understood for `npm ci` (node_modules) and `tsc -b` (each package's outDir).
 */
export function originOf(model: DockerModel, stageName: string, path: string, depth = 0): Origin | undefined {
  if (depth > 10) return undefined;
  const chain = stageChain(model.stages, stageName);
  for (const stage of [...chain].reverse()) {
    for (const ins of [...stage.instructions].reverse()) {
      if (ins.keyword === 'RUN') {
        const under = (dir: string) => path === dir || path.startsWith(`${dir}/`);
        if (/\bnpm (ci|install)\b/.test(ins.args) && under(posix.join(ins.wd, 'node_modules'))) return { kind: 'npm', path };
        if (/\btsc\b[^&|;]*-b\b/.test(ins.args)) {
          for (const p of tscPackages()) {
            const out = posix.join(ins.wd, p.pkg, p.outDir);
            // Built only if the package's sources are in the stage.
            if (under(out) && originOf(model, stage.name, posix.join(ins.wd, p.pkg, 'tsconfig.json'), depth + 1)?.kind === 'context') {
              return { kind: 'tsc', pkg: p.pkg, outDir: p.outDir, rest: path.slice(out.length).replace(/^\//, '') };
            }
          }
        }
      }
      if (ins.keyword !== 'COPY' && ins.keyword !== 'ADD') continue;
      const copy = parseCopy(ins);
      for (const src of [...copy.sources].reverse()) {
        const srcOrigin = copy.from ? originOf(model, copy.from, posix.resolve('/', src), depth + 1) : { kind: 'context' as const, path: posix.normalize(src) };
        if (!srcOrigin) continue;
        const srcIsDir =
          srcOrigin.kind === 'context' ? isDir(srcOrigin.path) : !/\.[a-z]+$/i.test(posix.basename(srcOrigin.kind === 'tsc' ? `${srcOrigin.outDir}/${srcOrigin.rest}` : srcOrigin.path));
        const mapped = copy.destIsDir && !srcIsDir ? posix.join(copy.dest, posix.basename(src)) : copy.dest;
        if (path !== mapped && !path.startsWith(`${mapped}/`)) continue;
        const rest = path.slice(mapped.length);
        if (copy.from) {
          const origin = originOf(model, copy.from, posix.resolve('/', src) + rest, depth + 1);
          if (origin) return origin;
          continue;
        }
        const contextPath = posix.normalize(posix.join(src, rest));
        // The build context has no ignored file: look further back.
        if (model.ignored(contextPath)) continue;
        return { kind: 'context', path: contextPath };
      }
    }
  }
  return undefined;
}

export const dockerfileText = readText('Dockerfile');
export const dockerModel: DockerModel = { stages: parseDockerfile(dockerfileText), ignored: dockerignore(readText('.dockerignore')) };

export const REQUIRED_TARGETS = ['build', 'runtime', 'coordinator', 'worker', 'dashboard', 'lab'];
export const SERVICE_TARGETS: ProcName[] = ['coordinator', 'worker', 'dashboard'];

export function dockerTargetProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  const names = model.stages.map((s) => s.name);
  for (const t of REQUIRED_TARGETS) if (!names.includes(t)) problems.push(`Dockerfile: no stage 'FROM … AS ${t}'`);
  names.forEach((n, i) => {
    if (names.indexOf(n) !== i) problems.push(`Dockerfile:${model.stages[i].line}: stage name '${n}' used twice`);
  });
  for (const t of [...SERVICE_TARGETS, 'lab']) {
    if (names.includes(t) && !stageChain(model.stages, t).some((s) => s.name === 'runtime')) problems.push(`Dockerfile: target '${t}' is not built FROM the runtime stage`);
  }
  return problems;
}

/** The repository file a built file comes from: `<pkg>/<outDir>/<x>.js` ← `<pkg>/<rootDir>/<x>.ts`. */
export function sourceOfBuilt(origin: Extract<Origin, { kind: 'tsc' }>): string {
  const p = tscPackages().find((q) => q.pkg === origin.pkg)!;
  return posix.join(p.pkg, p.rootDir, origin.rest.replace(/\.js$/, '.ts').replace(/\.mjs$/, '.mts').replace(/\.cjs$/, '.cts'));
}

/** Each target's CMD: exec form, `node <script>`, and the script is in the image. */
export function dockerCmdProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  for (const target of [...SERVICE_TARGETS, 'lab'] as ProcName[]) {
    if (!model.stages.some((s) => s.name === target)) continue;
    const eff = effective(model.stages, target);
    if (!eff.cmd) {
      problems.push(`Dockerfile: target '${target}' has no CMD`);
      continue;
    }
    if (!eff.cmd.argv) {
      problems.push(`Dockerfile:${eff.cmd.line}: target '${target}': CMD in shell form (node would not get SIGTERM): use the JSON form`);
      continue;
    }
    const script = scriptOf(eff.cmd.argv);
    if (!script) {
      problems.push(`Dockerfile:${eff.cmd.line}: target '${target}': CMD ${JSON.stringify(eff.cmd.argv)} does not run a node script`);
      continue;
    }
    if (procOfArgv(eff.cmd.argv)?.name !== target) problems.push(`Dockerfile:${eff.cmd.line}: target '${target}' runs ${script}, not the ${target} (${procNamed(target).script})`);
    const origin = originOf(model, target, posix.resolve(eff.wd, script));
    if (!origin) problems.push(`Dockerfile:${eff.cmd.line}: target '${target}': ${script} is neither copied into the image nor built in it`);
    else if (origin.kind === 'context' && !isFile(origin.path)) problems.push(`Dockerfile:${eff.cmd.line}: target '${target}': ${script} comes from ${origin.path}, not a file in the repository`);
    else if (origin.kind === 'tsc') {
      const source = sourceOfBuilt(origin);
      if (!isFile(source)) problems.push(`Dockerfile:${eff.cmd.line}: target '${target}': ${script} would be compiled from ${source}, which does not exist`);
      const p = tscPackages().find((q) => q.pkg === origin.pkg)!;
      const top = posix.relative(posix.join(p.pkg, p.rootDir), source).split('/')[0];
      if (!p.include.some((inc) => posix.normalize(inc).split('/')[0] === top)) problems.push(`Dockerfile: ${source} is not in ${p.pkg}/tsconfig.json's include`);
    }
  }
  return problems;
}

/** The images' probe: `node bin/healthcheck.mjs <port variable> </path>`. */
export const HEALTHCHECK_SCRIPT = 'bin/healthcheck.mjs';

/** The path and port a HEALTHCHECK asks: through the probe script, or inline (`fetch('http://127.0.0.1:' + … + '/path')`). */
export function healthcheckRequest(hc: Healthcheck, env: Env): { path?: string; port?: number } {
  const at = hc.argv?.indexOf(HEALTHCHECK_SCRIPT) ?? -1;
  if (at >= 0) {
    const [variable, path] = hc.argv!.slice(at + 1);
    return { path, port: env[variable] ? Number(env[variable]) : undefined };
  }
  const text = hc.argv ? hc.argv.join(' ') : (hc.shell ?? '');
  const path = /['"](\/[^'"\s]*)['"]/.exec(text)?.[1] ?? /https?:\/\/[^/\s'"]+(\/[^\s'"]*)/.exec(text)?.[1];
  let port: number | undefined;
  const literal = /https?:\/\/[^/:\s'"]+:(\d+)/.exec(text);
  const fromEnv = /process\.env\.([A-Z_]+)(?:\s*\|\|\s*(\d+))?/.exec(text);
  if (literal) port = Number(literal[1]);
  else if (fromEnv) port = env[fromEnv[1]] ? Number(env[fromEnv[1]]) : fromEnv[2] ? Number(fromEnv[2]) : undefined;
  return { path, port };
}

export function dockerHealthcheckProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  for (const target of SERVICE_TARGETS) {
    if (!model.stages.some((s) => s.name === target)) continue;
    const eff = effective(model.stages, target);
    const proc = procNamed(target);
    if (!eff.healthcheck || eff.healthcheck.none) {
      problems.push(`Dockerfile: target '${target}' has no HEALTHCHECK`);
      continue;
    }
    const { path, port } = healthcheckRequest(eff.healthcheck, eff.env);
    const listening = proc.listenPorts(eff.env);
    if (eff.healthcheck.argv?.includes(HEALTHCHECK_SCRIPT) && !originOf(model, target, posix.resolve(eff.wd, HEALTHCHECK_SCRIPT))) problems.push(`Dockerfile:${eff.healthcheck.line}: target '${target}': HEALTHCHECK runs ${HEALTHCHECK_SCRIPT}, which is not in the image`);
    if (!path || !proc.paths.has(path)) problems.push(`Dockerfile:${eff.healthcheck.line}: target '${target}': HEALTHCHECK asks ${path ?? '(no path)'}, which the ${target} does not serve (${[...proc.paths].join(', ')})`);
    if (port === undefined || !listening.includes(port)) problems.push(`Dockerfile:${eff.healthcheck.line}: target '${target}': HEALTHCHECK asks port ${port ?? '(unknown)'}, the ${target} listens on ${listening.join(', ') || 'no port'}`);
  }
  return problems;
}

export const isRoot = (user: string | undefined) => !user || /^(root|0)(:.*)?$/.test(user);

export function dockerUserProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  for (const target of ['runtime', ...SERVICE_TARGETS, 'lab']) {
    if (!model.stages.some((s) => s.name === target)) continue;
    const { user } = effective(model.stages, target);
    if (isRoot(user)) problems.push(`Dockerfile: target '${target}' runs as ${user ?? 'root (no USER)'}: add a non-root USER to the runtime stage`);
  }
  return problems;
}

/** Every COPY source: in the repository and not ignored (build context), or present in the --from stage. */
export function dockerCopyProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  for (const stage of model.stages) {
    for (const ins of stage.instructions) {
      if (ins.keyword !== 'COPY' && ins.keyword !== 'ADD') continue;
      const copy = parseCopy(ins);
      for (const src of copy.sources) {
        if (/[*?[]/.test(src)) {
          problems.push(`Dockerfile:${ins.line}: COPY ${src}: wildcards are not checked here`);
          continue;
        }
        if (copy.from) {
          const fromIndex = model.stages.findIndex((s) => s.name === copy.from);
          if (fromIndex < 0 || fromIndex >= model.stages.indexOf(stage)) {
            problems.push(`Dockerfile:${ins.line}: COPY --from=${copy.from}: no earlier stage of that name`);
            continue;
          }
          const origin = originOf(model, copy.from, posix.resolve('/', src));
          if (!origin) problems.push(`Dockerfile:${ins.line}: COPY --from=${copy.from} ${src}: nothing in stage '${copy.from}' puts it there`);
          else if (origin.kind === 'context' && !existsSync(repoPath(origin.path))) problems.push(`Dockerfile:${ins.line}: COPY --from=${copy.from} ${src}: comes from ${origin.path}, which is not in the repository`);
          continue;
        }
        const path = posix.normalize(src);
        if (!existsSync(repoPath(path))) problems.push(`Dockerfile:${ins.line}: COPY ${src}: not in the repository`);
        else if (model.ignored(path)) problems.push(`Dockerfile:${ins.line}: COPY ${src}: excluded by .dockerignore`);
      }
    }
  }
  return problems;
}

export function dockerWorkerGcProblems(model: DockerModel): string[] {
  const { cmd } = effective(model.stages, 'worker');
  const argv = cmd?.argv ?? [];
  const script = scriptOf(argv);
  const gc = argv.indexOf('--single-threaded-gc');
  return gc > 0 && script !== undefined && gc < argv.indexOf(script) ? [] : [`Dockerfile: the worker's CMD ${JSON.stringify(argv)} does not pass --single-threaded-gc to node`];
}

/** Variables every process reads: NODE_ENV, and the code version an image carries (provenance.ts). */
const readByAll = (name: string) => name === 'NODE_ENV' || CODE_VERSION_ENV.includes(name);

/** Variables Compose itself reads from .env (not the file's `${…}`). */
const COMPOSE_OWN = new Set(['COMPOSE_PROJECT_NAME']);

/** ENV of each target: variables its process reads (or NODE_ENV and the code version), with values it accepts. */
export function dockerEnvProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  for (const target of [...SERVICE_TARGETS, 'lab'] as ProcName[]) {
    if (!model.stages.some((s) => s.name === target)) continue;
    const eff = effective(model.stages, target);
    const proc = procNamed(target);
    for (const name of Object.keys(eff.env)) if (!readByAll(name) && !proc.envNames.has(name)) problems.push(`Dockerfile: target '${target}' sets ENV ${name}, which the ${target} does not read`);
    if (proc.schema) for (const issue of envIssues(proc.schema, eff.env)) problems.push(`Dockerfile: target '${target}': ${issue}`);
    const listening = proc.listenPorts(eff.env);
    for (const port of eff.expose) if (!listening.includes(port)) problems.push(`Dockerfile: target '${target}' EXPOSEs ${port}, the ${target} listens on ${listening.join(', ') || 'no port'}`);
    // The processes listen on loopback unless told: in a container that is nobody's address.
    const hostSchema = proc.schema ?? coordinatorSchema;
    if (eff.expose.length && 'HOST' in hostSchema.shape && isLoopback(String(setting(hostSchema, 'HOST', eff.env)))) problems.push(`Dockerfile: target '${target}' listens on HOST=${String(setting(hostSchema, 'HOST', eff.env))}: no published port reaches it (ENV HOST=0.0.0.0)`);
  }
  return problems;
}

/** The RUN instructions of a target's stages, root first. */
const runsOf = (model: DockerModel, target: string) => stageChain(model.stages, target).flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((ins) => ({ stage, ins })));

/**
 * The images never record an empty code version: a RUN of the runtime's stages, run here by sh
 * with the build arguments as its environment, stops an empty WONDERLAB_COMMIT or a WONDERLAB_DIRTY
 * other than true or false, and lets a commit with either through.
 */
export function dockerCodeVersionProblems(model: DockerModel): string[] {
  const check = runsOf(model, 'runtime').find(({ ins }) => ins.args.includes('WONDERLAB_COMMIT'));
  if (!check) return ["Dockerfile: no RUN of the runtime's stages checks WONDERLAB_COMMIT: an image could record no code version"];
  const { stage, ins } = check;
  const declared = stage.instructions.filter((i) => i.keyword === 'ARG' && i.line < ins.line).map((i) => i.args.split('=')[0].trim());
  const problems = ['WONDERLAB_COMMIT', 'WONDERLAB_DIRTY'].filter((a) => !declared.includes(a)).map((a) => `Dockerfile:${stage.line}: stage '${stage.name}' checks the code version without ARG ${a}: the check sees it empty`);
  const exits = (env: Env) => {
    try {
      execFileSync('sh', ['-c', ins.args], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, stdio: 'ignore' });
      return 0;
    } catch (err) {
      return (err as { status?: number }).status ?? 1;
    }
  };
  const cases: [Env, boolean][] = [
    [{ WONDERLAB_COMMIT: '', WONDERLAB_DIRTY: 'false' }, false],
    [{ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: '' }, false],
    [{ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: 'yes' }, false],
    [{ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: 'false' }, true],
    [{ WONDERLAB_COMMIT: 'abc123', WONDERLAB_DIRTY: 'true' }, true],
  ];
  for (const [env, passes] of cases) if ((exits(env) === 0) !== passes) problems.push(`Dockerfile:${ins.line}: the code version check ${passes ? 'refuses' : 'lets through'} ${JSON.stringify(env)}`);
  return problems;
}

/** The label that marks the build stage's images, and bin/build-images removes them by (a classic builder leaves them dangling). */
export const BUILD_STAGE_LABEL = 'org.wonderlab.stage=build';
export const BUILD_SCRIPT = 'bin/build-images';

export function dockerBuildStageProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  const build = model.stages.find((s) => s.name === 'build');
  if (!build) return ["Dockerfile: no 'build' stage"];
  if (!build.instructions.some((i) => i.keyword === 'LABEL' && i.args.trim() === BUILD_STAGE_LABEL)) problems.push(`Dockerfile: stage 'build' has no LABEL ${BUILD_STAGE_LABEL}: its images could not be told apart and removed`);
  if (!readText(BUILD_SCRIPT).includes(`--filter label=${BUILD_STAGE_LABEL}`)) problems.push(`${BUILD_SCRIPT} does not remove the images labelled ${BUILD_STAGE_LABEL}`);
  for (const s of model.stages) if (s.name !== 'build' && stageChain(model.stages, s.name).some((c) => c.name === 'build')) problems.push(`Dockerfile: stage '${s.name}' is built FROM the build stage: it would carry its label and its 1 GB`);
  // onnxruntime-node ships every platform's native library: only this one's may reach the image.
  const prune = build.instructions.filter((i) => i.keyword === 'RUN').find((i) => i.args.includes('onnxruntime-node/bin') && i.args.includes('process.platform'));
  if (!prune) problems.push("Dockerfile: stage 'build' keeps onnxruntime-node's binaries for every platform (about 240 MB more): remove all but process.platform/process.arch");
  return problems;
}

export function dockerignoreProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  const packages = tscPackages();
  const mustIgnore = [
    'node_modules',
    ...packages.map((p) => `${p.pkg}/node_modules`),
    ...packages.map((p) => posix.join(p.pkg, p.outDir)),
    // Left in the context, a build-info file makes `tsc -b` in the image think dist/ is up to date.
    ...packages.map((p) => posix.join(p.pkg, 'tsconfig.tsbuildinfo')),
    ...packages.map((p) => posix.join(p.pkg, p.outDir, 'tsconfig.tsbuildinfo')),
  ];
  for (const path of mustIgnore) if (!model.ignored(path)) problems.push(`.dockerignore does not exclude ${path}`);
  // Compose's settings hold the API token: they must not be baked into an image.
  for (const path of ['.env', '.env.local']) if (!model.ignored(path)) problems.push(`.dockerignore does not exclude ${path} (it holds API_TOKEN)`);
  return problems;
}

/** Every stage that is not built FROM another stage is built FROM a build argument with a default. */
export function dockerBaseArgProblems(text: string, model: DockerModel): string[] {
  const problems: string[] = [];
  const head = text.slice(0, text.search(/^FROM\s/im));
  const args = new Map([...head.matchAll(/^ARG\s+([A-Za-z_][A-Za-z0-9_]*)(?:=(\S+))?/gm)].map((m) => [m[1], m[2]]));
  for (const stage of model.stages) {
    if (model.stages.some((s) => s.name === stage.base)) continue;
    const m = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(stage.base);
    if (!m) problems.push(`Dockerfile:${stage.line}: stage '${stage.name}' is built FROM ${stage.base}, not FROM a build argument`);
    else if (!args.get(m[1])) problems.push(`Dockerfile:${stage.line}: stage '${stage.name}' is built FROM \${${m[1]}}, which no ARG before the first FROM gives a default`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// docker-compose.yml and .env.example

export function parseDotenv(text: string): Env {
  const env: Env = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) throw new Error(`.env.example: cannot parse '${line}'`);
    env[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return env;
}

export interface ComposeVar {
  name: string;
  op?: string;
  arg?: string;
  where: string;
}

export const VAR_RE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** Every `${VAR}`, `${VAR:-default}`, `$VAR` in the values of a compose file (`$$` is a literal `$`). */
export function composeVars(node: unknown, where = ''): ComposeVar[] {
  if (typeof node === 'string') {
    return [...node.replace(/\$\$/g, '').matchAll(VAR_RE)].map((m) => ({ name: m[1] ?? m[4], op: m[2], arg: m[3], where }));
  }
  if (Array.isArray(node)) return node.flatMap((v, i) => composeVars(v, `${where}[${i}]`));
  if (isRecord(node)) return Object.entries(node).flatMap(([k, v]) => composeVars(v, where ? `${where}.${k}` : k));
  return [];
}

/** Compose's interpolation of `node` with the variables `vars`. */
export function interpolate(node: unknown, vars: Env): unknown {
  if (typeof node === 'string') {
    return node
      .split('$$')
      .map((part) =>
        part.replace(VAR_RE, (_all, braced: string | undefined, op: string | undefined, arg: string | undefined, bare: string | undefined) => {
          const name = braced ?? bare!;
          const value = vars[name];
          const set = value !== undefined;
          const nonEmpty = set && value !== '';
          switch (op) {
            case ':-':
              return nonEmpty ? value : (arg ?? '');
            case '-':
              return set ? value : (arg ?? '');
            case ':+':
              return nonEmpty ? (arg ?? '') : '';
            case '+':
              return set ? (arg ?? '') : '';
            case ':?':
            case '?':
              if (op === ':?' ? !nonEmpty : !set) throw new Error(`compose: ${name} is required: ${arg}`);
              return value!;
            default:
              return value ?? '';
          }
        }),
      )
      .join('$');
  }
  if (Array.isArray(node)) return node.map((v) => interpolate(v, vars));
  if (isRecord(node)) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolate(v, vars)]));
  return node;
}

/** A service's `environment` (map or list form) as name → value (null: passed through from the host). */
export function serviceEnvironment(service: Obj): Record<string, string | null> {
  const env = service.environment;
  if (!env) return {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((e: string) => (e.includes('=') ? [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)] : [e, null])));
  }
  return Object.fromEntries(Object.entries(env as Obj).map(([k, v]) => [k, v === null || v === undefined ? null : String(v)]));
}

export interface ComposeModel {
  /** As written (merge keys resolved, variables not). */
  raw: Obj;
  /** Variables resolved with .env.example's values (what `cp .env.example .env` gives). */
  resolved: Obj;
  envExample: Env;
  /** .env.example as written, comments included. */
  envExampleText: string;
  /** The override that publishes Redis for `npm start` (HOST_REDIS_FILE), as written and resolved. */
  hostRedis: { raw: Obj; resolved: Obj };
  docker: DockerModel;
}

/** The compose file that publishes the lab's Redis on this machine, for `npm start`. */
export const HOST_REDIS_FILE = 'docker-compose.host-redis.yml';

function loadYamlMerged(file: string): Obj {
  const doc = parseDocument(readText(file), { merge: true });
  if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  return doc.toJS() as Obj;
}

export function loadCompose(): ComposeModel {
  const raw = loadYamlMerged('docker-compose.yml');
  const envExampleText = readText('.env.example');
  const envExample = parseDotenv(envExampleText);
  const hostRedis = loadYamlMerged(HOST_REDIS_FILE);
  return { raw, resolved: interpolate(raw, envExample) as Obj, envExample, envExampleText, hostRedis: { raw: hostRedis, resolved: interpolate(hostRedis, envExample) as Obj }, docker: dockerModel };
}

export const services = (compose: Obj): [string, Obj][] => Object.entries((compose.services ?? {}) as Obj);

/** The Dockerfile target a compose service builds (undefined: it runs an image). */
export function composeTarget(service: Obj, docker: DockerModel): string | undefined {
  if (!service.build) return undefined;
  return typeof service.build === 'object' && service.build.target ? String(service.build.target) : docker.stages.at(-1)?.name;
}

/** The lab process a compose service runs, and its whole environment (Dockerfile ENV, then compose). */
export function composeProcess(service: Obj, docker: DockerModel): { proc?: Proc; env: Env } {
  const target = composeTarget(service, docker);
  if (!target || !docker.stages.some((s) => s.name === target)) return { env: {} };
  const eff = effective(docker.stages, target);
  const argv = Array.isArray(service.command) ? (service.command as string[]) : eff.cmd?.argv;
  const env: Env = { ...eff.env };
  for (const [k, v] of Object.entries(serviceEnvironment(service))) if (v !== null) env[k] = v;
  return { proc: procOfArgv(argv), env };
}

export const redisArgs = (argv: readonly string[]): Map<string, string> => {
  const opts = new Map<string, string>();
  argv.forEach((a, i) => {
    if (a.startsWith('--')) opts.set(a.slice(2), argv[i + 1] ?? '');
  });
  return opts;
};
export const REDIS_DURABILITY: [string, string][] = [
  ['appendonly', 'yes'],
  ['appendfsync', 'everysec'],
  ['maxmemory-policy', 'noeviction'],
];
export const isRedisImage = (image: unknown) => typeof image === 'string' && /(^|\/)redis([:@]|$)/.test(image);

export function composeTargetProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  const names = services(m.resolved).map(([n]) => n);
  for (const [name, service] of services(m.resolved)) {
    const target = composeTarget(service, m.docker);
    if (service.build && !m.docker.stages.some((s) => s.name === target)) problems.push(`docker-compose.yml: services.${name}.build.target '${target}' is not a Dockerfile stage`);
    if (service.build && typeof service.build === 'object' && service.build.context && posix.normalize(service.build.context) !== '.') problems.push(`docker-compose.yml: services.${name}.build.context is not the repository root`);
    const deps = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dep of deps as string[]) if (!names.includes(dep)) problems.push(`docker-compose.yml: services.${name}.depends_on names '${dep}', not a service`);
  }
  return problems;
}

export function composeEnvNameProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  for (const [name, service] of services(m.resolved)) {
    if (!service.build) continue;
    const { proc } = composeProcess(service, m.docker);
    if (!proc) {
      problems.push(`docker-compose.yml: services.${name} runs no known lab process`);
      continue;
    }
    for (const key of Object.keys(serviceEnvironment(service))) if (!proc.envNames.has(key)) problems.push(`docker-compose.yml: services.${name}.environment.${key} is not read by the ${proc.name}`);
  }
  return problems;
}

/** With .env.example's settings, each lab process accepts its whole environment. */
export function composeEnvValueProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  for (const [name, service] of services(m.resolved)) {
    const { proc, env } = composeProcess(service, m.docker);
    if (!proc?.schema) continue;
    for (const issue of envIssues(proc.schema, env)) problems.push(`docker-compose.yml: services.${name}: with .env.example's settings the ${proc.name} rejects its environment and exits: ${issue}`);
  }
  return problems;
}

/** Every variable used is documented in .env.example with the same default; nothing documented is unused. */
/**
 * Variables compose passes through from the environment only, never from .env: the code version
 * bin/build-images reads from git at each build. Written in .env, a commit would be recorded for
 * code it did not build; .env.example names them in a comment, without a value.
 */
export const BUILD_ONLY_VARS = ['WONDERLAB_COMMIT', 'WONDERLAB_DIRTY'];

export function composeVarProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  const used = [...composeVars(m.raw), ...composeVars(m.hostRedis.raw).map((v) => ({ ...v, where: `${HOST_REDIS_FILE}: ${v.where}` }))];
  for (const name of BUILD_ONLY_VARS) {
    if (name in m.envExample) problems.push(`.env.example sets ${name}: bin/build-images takes it from git at each build, and a value in .env would outlive the commit it names`);
    else if (!new RegExp(`^#.*\\b${name}\\b`, 'm').test(m.envExampleText)) problems.push(`.env.example does not say where ${name} comes from (a comment naming it)`);
  }
  for (const v of used) {
    if (BUILD_ONLY_VARS.includes(v.name)) {
      if (v.op !== ':-' || v.arg) problems.push(`docker-compose.yml: ${v.where} uses \${${v.name}} with a default: the Dockerfile must see it empty when bin/build-images did not set it`);
      continue;
    }
    if (!(v.name in m.envExample)) problems.push(`docker-compose.yml: ${v.where} uses \${${v.name}}, which .env.example does not document`);
    else if ((v.op === ':-' || v.op === '-') && (v.arg ?? '') !== m.envExample[v.name]) problems.push(`docker-compose.yml: ${v.where} defaults ${v.name} to '${v.arg}', .env.example says '${m.envExample[v.name]}'`);
    else if (!v.op && v.name in m.envExample && m.envExample[v.name] !== '') problems.push(`docker-compose.yml: ${v.where} uses \${${v.name}} with no default: without a .env it is empty, not '${m.envExample[v.name]}'`);
  }
  for (const name of Object.keys(m.envExample)) if (!COMPOSE_OWN.has(name) && !used.some((v) => v.name === name)) problems.push(`.env.example documents ${name}, which docker-compose.yml does not use`);
  // The code's defaults for the Redis namespace: two labs on one Redis differ on purpose, one lab must not.
  if (m.envExample.KEY_PREFIX !== undefined && m.envExample.KEY_PREFIX !== DEFAULT_KEY_PREFIX) problems.push(`.env.example: KEY_PREFIX=${m.envExample.KEY_PREFIX}, the code's default is ${DEFAULT_KEY_PREFIX}`);
  if (m.envExample.QUEUE_NAME !== undefined && m.envExample.QUEUE_NAME !== DEFAULT_QUEUE_NAME) problems.push(`.env.example: QUEUE_NAME=${m.envExample.QUEUE_NAME}, the code's default is ${DEFAULT_QUEUE_NAME}`);
  return problems;
}

export function composeRedisProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  const redis = services(m.resolved).filter(([, s]) => isRedisImage(s.image));
  if (redis.length !== 1) return [`docker-compose.yml: expected one redis service, found ${redis.length}`];
  const [name, service] = redis[0];
  const argv: string[] = Array.isArray(service.command) ? service.command.map(String) : shellWords(String(service.command ?? ''));
  const opts = redisArgs(argv);
  for (const [opt, value] of REDIS_DURABILITY) if (opts.get(opt) !== value) problems.push(`docker-compose.yml: services.${name}.command: --${opt} is ${opts.get(opt) ?? 'unset'}, must be ${value}`);
  const dataDir = opts.get('dir') ?? '/data';
  const volumes = (service.volumes ?? []).map((v: unknown) => {
    if (typeof v === 'string') {
      const [source, target] = v.split(':');
      return { source, target };
    }
    return { source: (v as Obj).source, target: (v as Obj).target };
  }) as { source?: string; target?: string }[];
  const named = volumes.find((v) => v.target === dataDir && v.source && !/^[./~]/.test(v.source));
  if (!named) problems.push(`docker-compose.yml: services.${name} has no named volume at ${dataDir}`);
  else if (!(named.source! in (m.resolved.volumes ?? {}))) problems.push(`docker-compose.yml: volume '${named.source}' is not declared under volumes:`);
  else {
    // Compose names a volume after the project (COMPOSE_PROJECT_NAME, else the folder) unless it has
    // a name of its own: without one, adding a .env or moving the folder hides the results.
    const volumeName = (m.raw.volumes?.[named.source!] ?? {}).name as string | undefined;
    if (!volumeName) problems.push(`docker-compose.yml: volume '${named.source}' has no name of its own: compose would name it after the project, which .env or the folder decides`);
    else if (composeVars(volumeName).some((v) => v.name === 'COMPOSE_PROJECT_NAME')) problems.push(`docker-compose.yml: volume '${named.source}' is named after COMPOSE_PROJECT_NAME, which the folder decides without a .env`);
  }
  const test = service.healthcheck?.test;
  if (!test || (Array.isArray(test) && test[0] === 'NONE') || service.healthcheck?.disable) problems.push(`docker-compose.yml: services.${name} has no healthcheck`);
  // Published, it would clash with a Redis of this machine's own (and serve no lab container).
  if (service.ports?.length) problems.push(`docker-compose.yml: services.${name}.ports publishes Redis: a Redis already on this machine's port would stop \`up\`; ${HOST_REDIS_FILE} publishes it for \`npm start\``);
  const override = m.hostRedis.resolved.services ?? {};
  for (const [other] of services(m.hostRedis.resolved)) if (other !== name) problems.push(`${HOST_REDIS_FILE}: services.${other} is not the Redis service '${name}'`);
  const published = ((override[name]?.ports ?? []) as unknown[]).map((p) => publishedPort(p));
  if (!published.length) problems.push(`${HOST_REDIS_FILE}: does not publish services.${name}`);
  for (const p of published) if (!p.hostIp || !isLoopback(p.hostIp)) problems.push(`${HOST_REDIS_FILE}: publishes Redis on ${p.hostIp || 'every address'}, not on 127.0.0.1 only: Redis has no password`);
  return problems;
}

/** A compose port entry ("127.0.0.1:8080:8080", "8080:8080", { target, published }) as host address, host port and container port. */
export function publishedPort(entry: unknown): { hostIp: string; hostPort: string; container: number } {
  if (typeof entry !== 'string') {
    const e = entry as Obj;
    return { hostIp: e.host_ip ?? '', hostPort: String(e.published ?? ''), container: Number(e.target) };
  }
  // As written, a part may be a variable with its own colon (`${BIND_ADDRESS:-127.0.0.1}`): split around them.
  const vars: string[] = [];
  const masked = entry.replace(/\$\{[^}]*\}/g, (v) => `\u0000${vars.push(v) - 1}\u0000`);
  const restore = (text: string) => text.replace(/\u0000(\d+)\u0000/g, (_all, i: string) => vars[Number(i)]);
  const parts = masked.split('/')[0].split(':').map(restore);
  const container = Number(parts.pop());
  const hostPort = parts.pop() ?? '';
  return { hostIp: parts.join(':'), hostPort, container };
}

/**
 * Who reaches the lab: every published port is on BIND_ADDRESS (one setting opens them all; a port
 * without an address is published on every interface, past the host's firewall), each service that
 * publishes is told the same address (PUBLISHED_ADDRESS), and with it the coordinator's rule holds:
 * .env.example's lab starts without a token on loopback, and refuses to start on 0.0.0.0 without one.
 */
export function composeExposureProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  for (const [name, service] of services(m.raw)) {
    for (const [i, entry] of ((service.ports ?? []) as unknown[]).entries()) {
      const { hostIp } = publishedPort(entry);
      const vars = composeVars(hostIp);
      if (!hostIp) problems.push(`docker-compose.yml: services.${name}.ports[${i}] names no address: published on every interface, past the host's firewall`);
      else if (vars.length !== 1 || vars[0].name !== 'BIND_ADDRESS') problems.push(`docker-compose.yml: services.${name}.ports[${i}] is published on '${hostIp}', not on \${BIND_ADDRESS}`);
      const told = serviceEnvironment(service).PUBLISHED_ADDRESS;
      if (told !== hostIp) problems.push(`docker-compose.yml: services.${name} publishes on '${hostIp}' but its PUBLISHED_ADDRESS is '${told ?? 'unset'}': it would not know who reaches it`);
    }
  }
  if (!m.envExample.BIND_ADDRESS || !isLoopback(m.envExample.BIND_ADDRESS)) problems.push(`.env.example: BIND_ADDRESS is '${m.envExample.BIND_ADDRESS ?? ''}', not a loopback address: the default lab would be open to the network`);
  const coordinator = services(m.raw).find(([, s]) => composeProcess(s, m.docker).proc?.name === 'coordinator');
  if (!coordinator) return [...problems, 'docker-compose.yml: no coordinator service'];
  const refusal = (vars: Env) => {
    const service = (interpolate(m.raw, vars) as Obj).services[coordinator[0]];
    const parsed = coordinatorSchema.safeParse(composeProcess(service, m.docker).env);
    return parsed.success ? unguardedProblem(parsed.data as { HOST: string; PUBLISHED_ADDRESS?: string; API_TOKEN?: string }) : 'its environment does not parse';
  };
  const asShipped = refusal(m.envExample);
  if (asShipped) problems.push(`docker-compose.yml: with .env.example's settings the coordinator does not start: ${asShipped}`);
  if (!refusal({ ...m.envExample, BIND_ADDRESS: '0.0.0.0', API_TOKEN: '' })) problems.push('docker-compose.yml: with BIND_ADDRESS=0.0.0.0 and no API_TOKEN the coordinator would start, open to the network');
  return problems;
}

/** A compose duration ("75s", "1m30s", "500ms") in ms. */
export function composeDurationMs(value: unknown): number {
  const units: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const text = String(value);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== text) throw new Error(`not a duration: ${text}`);
  return parts.reduce((ms, p) => ms + Number(p[1]) * units[p[2]], 0);
}

/**
 * Workers scale with `--scale worker=N`: no fixed name, no host port; their number is WORKERS
 * (deploy.replicas, which `up` reads again after `down`); they may finish their games on stop; and
 * a killed one's games go back to the queue within 5 s.
 */
export function composeWorkerProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  const workers = services(m.resolved).filter(([, s]) => composeProcess(s, m.docker).proc?.name === 'worker');
  if (!workers.length) return ['docker-compose.yml: no worker service'];
  for (const [name, service] of workers) {
    const { env } = composeProcess(service, m.docker);
    const replicas = composeVars(String(m.raw.services[name]?.deploy?.replicas ?? ''));
    if (replicas.length !== 1 || replicas[0].name !== 'WORKERS') problems.push(`docker-compose.yml: services.${name}.deploy.replicas is not \${WORKERS}: after \`down\`, \`up\` would forget the fleet's size`);
    if (service.scale !== undefined) problems.push(`docker-compose.yml: services.${name}.scale is set: the number is deploy.replicas (WORKERS)`);
    const lock = setting(workerSchema, 'LOCK_DURATION_MS', env) as number;
    const stalled = setting(workerSchema, 'STALLED_INTERVAL_MS', env) as number;
    if (!(lock + stalled <= 5000)) problems.push(`docker-compose.yml: services.${name}: LOCK_DURATION_MS + STALLED_INTERVAL_MS = ${lock + stalled} ms: a killed worker's games would wait longer than 5 s to go back to the queue`);
    if (service.container_name) problems.push(`docker-compose.yml: services.${name}.container_name is set: --scale ${name}=N needs it unset`);
    if (service.ports?.length) problems.push(`docker-compose.yml: services.${name}.ports publishes host ports: --scale ${name}=N needs none`);
    const grace = (setting(workerSchema, 'SHUTDOWN_GRACE_MS', env) as number) + (setting(workerSchema, 'SHUTDOWN_CLOSE_MS', env) as number);
    const stop = service.stop_grace_period === undefined ? 10_000 : composeDurationMs(service.stop_grace_period);
    if (!(stop > grace)) problems.push(`docker-compose.yml: services.${name}.stop_grace_period is ${stop} ms, not more than SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS=${grace}: Docker kills the worker before it hands its games back`);
  }
  return problems;
}

/** Ports a compose service's process listens on. */
export function composeListenPorts(service: Obj, docker: DockerModel): number[] {
  if (isRedisImage(service.image)) {
    const argv: string[] = Array.isArray(service.command) ? service.command.map(String) : shellWords(String(service.command ?? ''));
    return [Number(redisArgs(argv).get('port') ?? 6379)];
  }
  const { proc, env } = composeProcess(service, docker);
  return proc ? proc.listenPorts(env) : [];
}

/** Service URLs (COORDINATOR_URL, REDIS_URL) name the right service and a port it listens on; published ports reach the process. */
export function composeUrlProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  const all = services(m.resolved);
  const expected: Record<string, (s: Obj) => boolean> = {
    COORDINATOR_URL: (s) => composeProcess(s, m.docker).proc?.name === 'coordinator',
    REDIS_URL: (s) => isRedisImage(s.image),
  };
  for (const [name, service] of all) {
    const { env } = composeProcess(service, m.docker);
    for (const [key, runsIt] of Object.entries(expected)) {
      if (!(key in serviceEnvironment(service))) continue;
      let url: URL;
      try {
        url = new URL(env[key]);
      } catch {
        problems.push(`docker-compose.yml: services.${name}.environment.${key}=${env[key]} is not a URL`);
        continue;
      }
      const target = all.find(([n]) => n === url.hostname);
      if (!target || !runsIt(target[1])) {
        problems.push(`docker-compose.yml: services.${name}.environment.${key} points at '${url.hostname}', not the service that runs it`);
        continue;
      }
      const port = Number(url.port || { 'http:': 80, 'https:': 443, 'redis:': 6379 }[url.protocol]);
      const listening = composeListenPorts(target[1], m.docker);
      if (!listening.includes(port)) problems.push(`docker-compose.yml: services.${name}.environment.${key} uses port ${port}, ${target[0]} listens on ${listening.join(', ') || 'no port'}`);
    }
    for (const published of (service.ports ?? []) as unknown[]) {
      const container = typeof published === 'string' ? Number(published.split('/')[0].split(':').at(-1)) : Number((published as Obj).target);
      const listening = composeListenPorts(service, m.docker);
      if (!listening.includes(container)) problems.push(`docker-compose.yml: services.${name}.ports publishes container port ${container}, the service listens on ${listening.join(', ') || 'no port'}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// kustomize: the real one (`kubectl kustomize`, kustomize v5); where kubectl is missing the builds
// are skipped with a message, never replaced by an imitation.

export const CLUSTER_SCOPED = new Set([
  'Namespace', 'Node', 'PersistentVolume', 'StorageClass', 'PriorityClass', 'IngressClass', 'RuntimeClass',
  'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'APIService',
  'ValidatingWebhookConfiguration', 'MutatingWebhookConfiguration', 'ClusterTriggerAuthentication',
]);

/** The file each object read from the repository came from (for messages). */
export const originFile = new WeakMap<object, string>();

export const objectId = (o: Obj) => `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}${originFile.has(o) ? ` (${originFile.get(o)})` : ''}`;

export function parseYamlObjects(text: string, where: string): Obj[] {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return [];
  return docs.flatMap((doc) => {
    if (doc.errors.length) throw new Error(`${where}: ${doc.errors.map((e) => e.message).join('; ')}`);
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) return [];
    if (!isRecord(value)) throw new Error(`${where}: a document is not a mapping`);
    return [value];
  });
}

export function loadYamlObjects(file: string): Obj[] {
  const objects = parseYamlObjects(readFileSync(file, 'utf8'), rel(file));
  for (const o of objects) originFile.set(o, rel(file));
  return objects;
}

/** Every `containers` / `initContainers` entry in an object (pod specs at any depth). */
export function containersIn(node: unknown): Obj[] {
  if (Array.isArray(node)) return node.flatMap(containersIn);
  if (!isRecord(node)) return [];
  return Object.entries(node).flatMap(([k, v]) => ((k === 'containers' || k === 'initContainers' || k === 'ephemeralContainers') && Array.isArray(v) ? v.filter(isRecord) : containersIn(v)));
}

/** kubectl's version line when it is on PATH and has kustomize built in, else undefined. */
export const KUBECTL = (() => {
  try {
    return execFileSync('kubectl', ['version', '--client'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
})();
if (!KUBECTL) console.warn('deployment.test: kubectl is not on PATH: the kustomize builds of k8s/ and their checks are skipped');

/** `kubectl kustomize dir`, parsed; a failure's message is kustomize's own. */
export function kustomizeBuild(dir: string): Obj[] {
  let out: string;
  try {
    out = execFileSync('kubectl', ['kustomize', repoPath(dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    throw new Error(`kubectl kustomize ${dir} failed: ${String((err as { stderr?: string }).stderr ?? err).trim()}`);
  }
  return parseYamlObjects(out, `kubectl kustomize ${dir}`);
}

/** The kustomization directories of the repository: the base and every overlay. */
export const OVERLAYS = readdirSync(repoPath('k8s/overlays')).filter((d) => isFile(`k8s/overlays/${d}/kustomization.yaml`));

// ---------------------------------------------------------------------------------------------
// Kubernetes: schemas, and consistency with the code

export type ModelClass = new (data: any) => { validate(): void };
export const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'networking.k8s.io/v1/Ingress': Ingress,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

export function schemaProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const o of objects) {
    const Model = MODELS[`${o.apiVersion}/${o.kind}`];
    if (!Model) {
      problems.push(`${objectId(o)}: no schema known for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Model(clone(o)).validate();
    } catch (err) {
      problems.push(`${objectId(o)}: ${(err as Error).message}`);
    }
  }
  return problems;
}

export function duplicateProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, Obj>();
  for (const o of objects) {
    if (!o.metadata?.name) problems.push(`${objectId(o)}: no metadata.name`);
    const key = `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
    if (seen.has(key)) problems.push(`${objectId(o)} and ${objectId(seen.get(key)!)} have the same kind, namespace and name`);
    seen.set(key, o);
  }
  return problems;
}

export function namespaceProblems(objects: Obj[], namespace: string): string[] {
  const problems: string[] = [];
  if (!objects.some((o) => o.kind === 'Namespace' && o.metadata?.name === namespace)) problems.push(`no Namespace ${namespace} in the build`);
  for (const o of objects) {
    if (CLUSTER_SCOPED.has(o.kind) || o.metadata?.namespace === namespace) continue;
    problems.push(`${objectId(o)}: namespace is ${o.metadata?.namespace ?? "unset (kubectl apply -k puts it in kubectl's current namespace, usually default)"}, not ${namespace}`);
  }
  return problems;
}

export interface Workload {
  obj: Obj;
  ns: string;
  name: string;
  kind: string;
  labels: Record<string, string>;
  pod: Obj;
}

export const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job']);
export function workloadsOf(objects: Obj[]): Workload[] {
  return objects
    .filter((o) => WORKLOAD_KINDS.has(o.kind))
    .map((o) => ({ obj: o, ns: o.metadata?.namespace ?? 'default', name: o.metadata?.name, kind: o.kind, labels: o.spec?.template?.metadata?.labels ?? {}, pod: o.spec?.template?.spec ?? {} }));
}

export const argvOf = (c: Obj): string[] => [...(c.command ?? []), ...(c.args ?? [])].map(String);
export const procOfContainer = (c: Obj) => procOfArgv(c.command ? argvOf(c) : undefined);
export const isRedisContainer = (c: Obj) => isRedisImage(c.image);
export const workloadRuns = (w: Workload, name: ProcName | 'redis') => w.pod.containers?.some((c: Obj) => (name === 'redis' ? isRedisContainer(c) : procOfContainer(c)?.name === name)) ?? false;

/** A LabelSelector (matchLabels, matchExpressions) against labels; `{}` selects everything. */
export function selectorMatches(selector: Obj | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  for (const [k, v] of Object.entries((selector.matchLabels ?? {}) as Record<string, string>)) if (labels[k] !== v) return false;
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const has = e.key in labels;
    const ok =
      e.operator === 'In' ? has && e.values.includes(labels[e.key]) : e.operator === 'NotIn' ? !has || !e.values.includes(labels[e.key]) : e.operator === 'Exists' ? has : e.operator === 'DoesNotExist' ? !has : false;
    if (!ok) return false;
  }
  return true;
}

export const find = (objects: Obj[], kind: string, ns: string, name: string) => objects.find((o) => o.kind === kind && (o.metadata?.namespace ?? 'default') === ns && o.metadata?.name === name);

export function secretData(secret: Obj): Env {
  const out: Env = {};
  for (const [k, v] of Object.entries((secret.data ?? {}) as Env)) out[k] = Buffer.from(v, 'base64').toString('utf8');
  Object.assign(out, secret.stringData ?? {});
  return out;
}

/** A container's environment as the kubelet builds it (envFrom, then env), and the problems in the references. */
export function containerEnv(c: Obj, ns: string, objects: Obj[]): { env: Env; names: string[]; problems: string[] } {
  const env: Env = {};
  const names: string[] = [];
  const problems: string[] = [];
  for (const from of (c.envFrom ?? []) as Obj[]) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const source = find(objects, kind, ns, ref?.name);
    if (!source) {
      if (!ref?.optional) problems.push(`envFrom ${kind} ${ns}/${ref?.name} does not exist`);
      continue;
    }
    const data: Env = kind === 'ConfigMap' ? { ...(source.data ?? {}) } : secretData(source);
    for (const [k, v] of Object.entries(data)) {
      names.push(`${from.prefix ?? ''}${k}`);
      env[`${from.prefix ?? ''}${k}`] = String(v);
    }
  }
  for (const e of (c.env ?? []) as Obj[]) {
    names.push(e.name);
    if (e.value !== undefined) env[e.name] = String(e.value);
    else if (e.valueFrom?.configMapKeyRef || e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.configMapKeyRef ?? e.valueFrom.secretKeyRef;
      const kind = e.valueFrom.configMapKeyRef ? 'ConfigMap' : 'Secret';
      const source = find(objects, kind, ns, ref.name);
      const data = source ? (kind === 'ConfigMap' ? (source.data ?? {}) : secretData(source)) : undefined;
      if (data?.[ref.key] === undefined) {
        if (!ref.optional) problems.push(`env ${e.name}: ${kind} ${ns}/${ref.name} has no key ${ref.key}`);
      } else env[e.name] = String(data[ref.key]);
    } else if (e.value === undefined && !e.valueFrom) env[e.name] = '';
  }
  return { env, names, problems };
}

export interface LabContainer {
  w: Workload;
  c: Obj;
  proc: Proc;
  env: Env;
  where: string;
}

/** Every container that runs a lab process, with its resolved environment. */
export function labContainers(objects: Obj[]): LabContainer[] {
  return workloadsOf(objects).flatMap((w) =>
    ((w.pod.containers ?? []) as Obj[]).flatMap((c) => {
      const proc = procOfContainer(c);
      return proc ? [{ w, c, proc, env: containerEnv(c, w.ns, objects).env, where: `${w.kind} ${w.ns}/${w.name} container ${c.name}${originFile.has(w.obj) ? ` (${originFile.get(w.obj)})` : ''}` }] : [];
    }),
  );
}

/** Containers whose image is the lab's: they must say which process to run. */
export function k8sCommandProblems(objects: Obj[], docker: DockerModel = dockerModel): string[] {
  const problems: string[] = [];
  const serviceCmds = SERVICE_TARGETS.map((t) => effective(docker.stages, t).cmd?.argv ?? []);
  for (const w of workloadsOf(objects)) {
    for (const c of (w.pod.containers ?? []) as Obj[]) {
      if (isRedisContainer(c)) continue;
      const proc = procOfContainer(c);
      const where = `${w.kind} ${w.ns}/${w.name} container ${c.name}`;
      if (!proc) problems.push(`${where}: command ${JSON.stringify(c.command ?? null)} runs no known lab process`);
      else if (!serviceCmds.some((cmd) => JSON.stringify(cmd) === JSON.stringify(argvOf(c)))) problems.push(`${where}: command ${JSON.stringify(argvOf(c))} differs from the Dockerfile's CMD for the ${proc.name} (${JSON.stringify(effective(docker.stages, proc.name).cmd?.argv)})`);
    }
  }
  return problems;
}

/** env / envFrom: variables the process reads, references that resolve, values it accepts. */
export function k8sEnvProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const { w, c, proc, where } of labContainers(objects)) {
    const { env, names, problems: refProblems } = containerEnv(c, w.ns, objects);
    problems.push(...refProblems.map((p) => `${where}: ${p}`));
    for (const name of names) if (!proc.envNames.has(name) && !readByAll(name)) problems.push(`${where}: sets ${name}, which the ${proc.name} does not read`);
    if (proc.schema) for (const issue of envIssues(proc.schema, env)) problems.push(`${where}: the ${proc.name} rejects its environment: ${issue}`);
  }
  return problems;
}

export function configMapProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  const maps = objects.filter((o) => o.kind === 'ConfigMap');
  if (!maps.length) problems.push('no ConfigMap of shared settings');
  const storeKeys = keysOf(storeSchema);
  for (const cm of maps) {
    const data = (cm.data ?? {}) as Env;
    for (const key of Object.keys(data)) if (!storeKeys.has(key)) problems.push(`${objectId(cm)}: ${key} is not a shared setting (${[...storeKeys].join(', ')})`);
    if (data.KEY_PREFIX !== DEFAULT_KEY_PREFIX) problems.push(`${objectId(cm)}: KEY_PREFIX is ${data.KEY_PREFIX ?? 'unset'}, the code's DEFAULT_KEY_PREFIX is ${DEFAULT_KEY_PREFIX}`);
    if (data.QUEUE_NAME !== DEFAULT_QUEUE_NAME) problems.push(`${objectId(cm)}: QUEUE_NAME is ${data.QUEUE_NAME ?? 'unset'}, the code's DEFAULT_QUEUE_NAME is ${DEFAULT_QUEUE_NAME}`);
    for (const issue of envIssues(storeSchema, data)) problems.push(`${objectId(cm)}: ${issue}`);
  }
  return problems;
}

/** The Service a host name means from namespace `fromNs` (`svc`, `svc.ns`, `svc.ns.svc`, `svc.ns.svc.cluster.local`). */
export function serviceForHost(host: string, fromNs: string, objects: Obj[]): { svc?: Obj; qualified: boolean } {
  const parts = host.split('.');
  const suffix = parts.slice(2).join('.');
  if (suffix !== '' && suffix !== 'svc' && suffix !== 'svc.cluster.local') return { qualified: false };
  const ns = parts[1] ?? fromNs;
  return { svc: find(objects, 'Service', ns, parts[0]), qualified: parts.length >= 2 };
}

/** Ports a container's process listens on. */
export function containerListenPorts(c: Obj, env: Env): number[] {
  if (isRedisContainer(c)) return [Number(redisArgs(argvOf(c)).get('port') ?? 6379)];
  const proc = procOfContainer(c);
  return proc ? proc.listenPorts(env) : [];
}

/** The containers (and container ports) a Service port sends traffic to. */
export function serviceBackends(svc: Obj, port: Obj, objects: Obj[]): { w: Workload; c: Obj; containerPort?: number }[] {
  const ns = svc.metadata?.namespace ?? 'default';
  const selected = workloadsOf(objects).filter((w) => w.ns === ns && svc.spec?.selector && selectorMatches({ matchLabels: svc.spec.selector }, w.labels));
  const target = port.targetPort ?? port.port;
  return selected.flatMap((w) =>
    ((w.pod.containers ?? []) as Obj[]).map((c) => {
      const cp = ((c.ports ?? []) as Obj[]).find((p) => (typeof target === 'string' ? p.name === target : p.containerPort === target));
      return { w, c, containerPort: cp?.containerPort ?? (typeof target === 'number' ? target : undefined) };
    }),
  );
}

/**
 * A URL one object uses to reach a Service: the Service exists, has that port, selects the pods
 * that run `runs`, and the process there listens on the port the Service sends to.
 */
export function serviceUrlProblems(where: string, urlText: string, fromNs: string, runs: ProcName | 'redis', objects: Obj[], mustQualify = false): string[] {
  let url: URL;
  try {
    url = new URL(urlText);
  } catch {
    return [`${where}: '${urlText}' is not a URL`];
  }
  const { svc, qualified } = serviceForHost(url.hostname, fromNs, objects);
  if (!svc) return [`${where}: ${url.hostname} is not a Service in the build`];
  if (mustQualify && !qualified) return [`${where}: ${url.hostname} does not name the namespace (it is resolved from another one)`];
  const problems: string[] = [];
  const portNumber = Number(url.port || { 'http:': 80, 'https:': 443, 'redis:': 6379 }[url.protocol]);
  const port = ((svc.spec?.ports ?? []) as Obj[]).find((p) => p.port === portNumber);
  if (!port) return [`${where}: Service ${svc.metadata.name} has no port ${portNumber}`];
  const backends = serviceBackends(svc, port, objects).filter(({ c }) => (runs === 'redis' ? isRedisContainer(c) : procOfContainer(c)?.name === runs));
  if (!backends.length) problems.push(`${where}: Service ${svc.metadata.name} does not select the ${runs} pods`);
  for (const { w, c, containerPort } of backends) {
    const listening = containerListenPorts(c, containerEnv(c, w.ns, objects).env);
    if (containerPort === undefined || !listening.includes(containerPort)) problems.push(`${where}: Service ${svc.metadata.name}:${portNumber} sends to port ${containerPort ?? port.targetPort}, the ${runs} listens on ${listening.join(', ') || 'no port'}`);
  }
  return problems;
}

/** REDIS_URL and COORDINATOR_URL in the lab containers' environment. */
export function k8sUrlProblems(objects: Obj[]): string[] {
  const targets: Record<string, ProcName | 'redis'> = { REDIS_URL: 'redis', COORDINATOR_URL: 'coordinator' };
  return labContainers(objects).flatMap(({ w, env, where }) =>
    Object.entries(targets).flatMap(([key, runs]) => (env[key] === undefined ? [] : serviceUrlProblems(`${where}: ${key}`, env[key], w.ns, runs, objects))),
  );
}

export function scaledObjectProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const so of objects.filter((o) => o.kind === 'ScaledObject')) {
    const ns = so.metadata?.namespace ?? 'default';
    const ref = so.spec?.scaleTargetRef ?? {};
    if ((ref.kind ?? 'Deployment') !== 'Deployment' || (ref.apiVersion ?? 'apps/v1') !== 'apps/v1') problems.push(`${objectId(so)}: scales a ${ref.apiVersion ?? 'apps/v1'} ${ref.kind}, not a Deployment`);
    const target = workloadsOf(objects).find((w) => w.kind === 'Deployment' && w.ns === ns && w.name === ref.name);
    if (!target || !workloadRuns(target, 'worker')) problems.push(`${objectId(so)}: scaleTargetRef ${ref.name} is not the worker Deployment`);
    const triggers = ((so.spec?.triggers ?? []) as Obj[]).filter((t) => t.type === 'metrics-api');
    if (!triggers.length) problems.push(`${objectId(so)}: no metrics-api trigger`);
    for (const t of triggers) {
      const url = String(t.metadata?.url ?? '');
      let parsed: URL | undefined;
      try {
        parsed = new URL(url);
      } catch {
        problems.push(`${objectId(so)}: trigger url '${url}' is not a URL`);
      }
      if (!parsed) continue;
      if (parsed.pathname !== BACKLOG_ROUTE) problems.push(`${objectId(so)}: trigger url path ${parsed.pathname}, the coordinator serves the backlog at ${BACKLOG_ROUTE}`);
      if (t.metadata?.valueLocation !== BACKLOG_FIELD) problems.push(`${objectId(so)}: valueLocation ${t.metadata?.valueLocation}, the coordinator's field is ${BACKLOG_FIELD}`);
      // KEDA's operator runs in its own namespace: the host must name ours.
      problems.push(...serviceUrlProblems(`${objectId(so)}: trigger url`, url, ns, 'coordinator', objects, true));
    }
  }
  return problems;
}

export function hpaProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const hpa of objects.filter((o) => o.kind === 'HorizontalPodAutoscaler')) {
    const ns = hpa.metadata?.namespace ?? 'default';
    const ref = hpa.spec?.scaleTargetRef ?? {};
    const target = workloadsOf(objects).find((w) => w.kind === ref.kind && w.obj.apiVersion === ref.apiVersion && w.ns === ns && w.name === ref.name);
    if (!target || target.kind !== 'Deployment' || !workloadRuns(target, 'worker')) {
      const elsewhere = workloadsOf(objects).find((w) => w.kind === 'Deployment' && w.name === ref.name && workloadRuns(w, 'worker'));
      const why = elsewhere ? `: the HPA is in namespace ${hpa.metadata?.namespace ?? 'unset (default)'}, the worker Deployment in ${elsewhere.ns}` : '';
      problems.push(`${objectId(hpa)}: scaleTargetRef ${ref.apiVersion} ${ref.kind} ${ref.name} is not the worker Deployment${why}`);
      continue;
    }
    for (const metric of (hpa.spec?.metrics ?? []) as Obj[]) {
      const resource = metric.type === 'Resource' ? metric.resource?.name : undefined;
      if (resource && metric.resource?.target?.type === 'Utilization') {
        for (const c of (target.pod.containers ?? []) as Obj[]) if (c.resources?.requests?.[resource] === undefined) problems.push(`${objectId(hpa)}: scales on ${resource} utilization, container ${c.name} requests no ${resource}`);
      }
    }
  }
  return problems;
}

/** A CPU quantity ("2", "500m", "1.5") in cores. */
export function cpuCores(q: unknown): number {
  const text = String(q);
  return text.endsWith('m') ? Number(text.slice(0, -1)) / 1000 : Number(text);
}

/** Workers ask for one CPU per game slot and get time to finish their games on SIGTERM. */
export function workerProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  const workers = labContainers(objects).filter((l) => l.proc.name === 'worker');
  if (!workers.length) problems.push('no worker Deployment');
  for (const { w, c, env, where } of workers) {
    if (env.WORKER_SLOTS === undefined) problems.push(`${where}: WORKER_SLOTS unset: it would play one game per core of the node, whatever the pod asks for`);
    const slots = setting(workerSchema, 'WORKER_SLOTS', env) as number;
    const cpu = cpuCores(c.resources?.requests?.cpu);
    if (cpu !== slots) problems.push(`${where}: requests ${c.resources?.requests?.cpu ?? 'no'} CPU for WORKER_SLOTS=${slots}`);
    const grace = (setting(workerSchema, 'SHUTDOWN_GRACE_MS', env) as number) + (setting(workerSchema, 'SHUTDOWN_CLOSE_MS', env) as number);
    const termination = Number(w.pod.terminationGracePeriodSeconds ?? 30);
    if (!(termination * 1000 > grace)) problems.push(`${where}: terminationGracePeriodSeconds ${termination} s is not more than SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS=${grace}: the kubelet kills the worker before it hands its games back`);
  }
  return problems;
}

/** Probes ask paths the process serves, on named ports of the container that the process listens on. */
export function probeProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const { c, proc, env, where } of labContainers(objects)) {
    const listening = proc.listenPorts(env);
    for (const p of (c.ports ?? []) as Obj[]) if (!listening.includes(p.containerPort)) problems.push(`${where}: declares port ${p.name ?? ''} ${p.containerPort}, the ${proc.name} listens on ${listening.join(', ') || 'no port'}`);
    for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      const probe = c[kind] as Obj | undefined;
      if (!probe?.httpGet) continue;
      const { path, port } = probe.httpGet as Obj;
      if (!proc.paths.has(path)) problems.push(`${where}: ${kind} asks ${path}, which the ${proc.name} does not serve (${[...proc.paths].join(', ')})`);
      const named = typeof port === 'string' ? ((c.ports ?? []) as Obj[]).find((p) => p.name === port) : undefined;
      if (typeof port === 'string' && !named) problems.push(`${where}: ${kind} port '${port}' is not a named port of the container`);
      const number = named ? named.containerPort : port;
      if (!listening.includes(number)) problems.push(`${where}: ${kind} asks port ${number}, the ${proc.name} listens on ${listening.join(', ') || 'no port'}`);
    }
  }
  return problems;
}

/** Services select existing pods, and their targetPorts exist on those pods. */
export function serviceProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const svc of objects.filter((o) => o.kind === 'Service')) {
    const ns = svc.metadata?.namespace ?? 'default';
    const selector = svc.spec?.selector as Record<string, string> | undefined;
    if (!selector || !Object.keys(selector).length) {
      problems.push(`${objectId(svc)}: no selector`);
      continue;
    }
    const selected = workloadsOf(objects).filter((w) => w.ns === ns && selectorMatches({ matchLabels: selector }, w.labels));
    if (!selected.length) {
      problems.push(`${objectId(svc)}: selector ${JSON.stringify(selector)} matches no pod template`);
      continue;
    }
    for (const port of (svc.spec?.ports ?? []) as Obj[]) {
      const target = port.targetPort ?? port.port;
      for (const w of selected) {
        const ports = ((w.pod.containers ?? []) as Obj[]).flatMap((c) => (c.ports ?? []) as Obj[]);
        const ok = typeof target === 'string' ? ports.some((p) => p.name === target) : ports.some((p) => p.containerPort === target);
        if (!ok) problems.push(`${objectId(svc)}: targetPort ${target} is not a port of ${w.kind} ${w.name}'s containers`);
      }
    }
  }
  return problems;
}

/** Only the coordinator and the workers reach Redis, on its port. */
export function networkPolicyProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  const all = workloadsOf(objects);
  const redis = all.filter((w) => workloadRuns(w, 'redis'));
  if (redis.length !== 1) return [`expected one Redis workload, found ${redis.length}`];
  const [r] = redis;
  const redisPort = containerListenPorts(r.pod.containers.find(isRedisContainer), {})[0];
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy' && (o.metadata?.namespace ?? 'default') === r.ns && selectorMatches(o.spec?.podSelector, r.labels));
  if (policies.length !== 1) return [`expected one NetworkPolicy selecting the Redis pods, found ${policies.length}`];
  const [np] = policies;
  const selected = all.filter((w) => w.ns === r.ns && selectorMatches(np.spec?.podSelector, w.labels));
  if (selected.length !== 1) problems.push(`${objectId(np)}: podSelector selects ${selected.map((w) => w.name).join(', ')}, not only Redis`);
  if (!(np.spec?.policyTypes ?? ['Ingress']).includes('Ingress')) problems.push(`${objectId(np)}: policyTypes has no Ingress`);
  const expected = all.filter((w) => w.ns === r.ns && (workloadRuns(w, 'coordinator') || workloadRuns(w, 'worker'))).map((w) => w.name).sort();
  const rules = (np.spec?.ingress ?? []) as Obj[];
  if (!rules.length) problems.push(`${objectId(np)}: no ingress rule: nothing reaches Redis`);
  for (const [i, rule] of rules.entries()) {
    const peers = (rule.from ?? []) as Obj[];
    if (!peers.length) problems.push(`${objectId(np)}: ingress[${i}] has no from: it admits every pod`);
    for (const peer of peers) if (peer.namespaceSelector || peer.ipBlock) problems.push(`${objectId(np)}: ingress[${i}] admits by ${peer.namespaceSelector ? 'namespaceSelector' : 'ipBlock'}: more than the lab's pods`);
    const admitted = all.filter((w) => w.ns === r.ns && peers.some((p) => p.podSelector && selectorMatches(p.podSelector, w.labels))).map((w) => w.name).sort();
    if (JSON.stringify(admitted) !== JSON.stringify(expected)) problems.push(`${objectId(np)}: ingress[${i}] admits ${JSON.stringify(admitted)}, expected the coordinator and workers ${JSON.stringify(expected)}`);
    const ports = (rule.ports ?? []) as Obj[];
    if (ports.length !== 1 || (ports[0].protocol ?? 'TCP') !== 'TCP' || ports[0].port !== redisPort) problems.push(`${objectId(np)}: ingress[${i}] ports ${JSON.stringify(ports)}, expected TCP ${redisPort} only`);
  }
  return problems;
}

/** Redis keeps every result: AOF every second, no eviction, data on a claimed volume, a disruption budget. */
export function redisProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  const sets = workloadsOf(objects).filter((w) => workloadRuns(w, 'redis'));
  if (sets.length !== 1 || sets[0].kind !== 'StatefulSet') return [`expected one Redis StatefulSet, found ${sets.map((w) => `${w.kind} ${w.name}`).join(', ') || 'none'}`];
  const [r] = sets;
  const c = (r.pod.containers as Obj[]).find(isRedisContainer)!;
  const opts = redisArgs(argvOf(c));
  for (const [opt, value] of REDIS_DURABILITY) if (opts.get(opt) !== value) problems.push(`${objectId(r.obj)}: --${opt} is ${opts.get(opt) ?? 'unset'}, must be ${value}`);
  const dir = opts.get('dir');
  if (!dir) problems.push(`${objectId(r.obj)}: no --dir`);
  const claims = ((r.obj.spec?.volumeClaimTemplates ?? []) as Obj[]).map((t) => t.metadata?.name);
  const mount = ((c.volumeMounts ?? []) as Obj[]).find((m) => m.mountPath === dir);
  if (!mount || !claims.includes(mount.name)) problems.push(`${objectId(r.obj)}: --dir ${dir} is not a volumeClaimTemplate's mount (claims: ${claims.join(', ') || 'none'})`);
  const pdbs = objects.filter((o) => o.kind === 'PodDisruptionBudget' && (o.metadata?.namespace ?? 'default') === r.ns && selectorMatches(o.spec?.selector, r.labels));
  if (!pdbs.length) problems.push(`${objectId(r.obj)}: no PodDisruptionBudget selects it`);
  if (!find(objects, 'Service', r.ns, r.obj.spec?.serviceName)) problems.push(`${objectId(r.obj)}: serviceName ${r.obj.spec?.serviceName} is not a Service`);
  return problems;
}

/**
 * The Secret with the API token exists and the coordinator reads it; the repository's copy holds
 * no token (one in version control is anyone's), so that an unchanged checkout's coordinator
 * refuses to start until the operator sets one (exposure.ts: reachable beyond loopback).
 */
export function secretProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  const tokenSecrets = objects.filter((o) => o.kind === 'Secret' && 'API_TOKEN' in secretData(o));
  if (!tokenSecrets.length) problems.push('no Secret holds API_TOKEN: the coordinator cannot be given a token');
  for (const s of tokenSecrets) if (secretData(s).API_TOKEN !== '') problems.push(`${objectId(s)}: API_TOKEN holds a value in the repository: anyone who reads it has the token (leave it empty; the coordinator waits for yours)`);
  const coordinators = labContainers(objects).filter((l) => l.proc.name === 'coordinator');
  for (const s of tokenSecrets) {
    const ns = s.metadata?.namespace ?? 'default';
    const used = coordinators.some(
      ({ w, c }) =>
        w.ns === ns &&
        (((c.envFrom ?? []) as Obj[]).some((f) => f.secretRef?.name === s.metadata.name && !f.prefix) ||
          ((c.env ?? []) as Obj[]).some((e) => e.name === 'API_TOKEN' && e.valueFrom?.secretKeyRef?.name === s.metadata.name)),
    );
    if (!used) problems.push(`${objectId(s)}: the coordinator does not read it`);
  }
  for (const { c, where } of coordinators) {
    const literal = ((c.env ?? []) as Obj[]).find((e) => e.name === 'API_TOKEN' && !e.valueFrom);
    if (literal) problems.push(`${where}: API_TOKEN is a literal value in the manifest, not the Secret's`);
  }
  return problems;
}

/**
 * The coordinator in the cluster is reached beyond loopback (the image's HOST, no loopback
 * PUBLISHED_ADDRESS): with the Secret's token it starts, without one it refuses (exposure.ts). The
 * image's ENV (target lab, the one the manifests run) comes first, then the manifest's.
 */
export function k8sExposureProblems(objects: Obj[], docker: DockerModel = dockerModel): string[] {
  const problems: string[] = [];
  const imageEnv = effective(docker.stages, 'lab').env;
  for (const { env, where } of labContainers(objects).filter((l) => l.proc.name === 'coordinator')) {
    const parsed = coordinatorSchema.safeParse({ ...imageEnv, ...env });
    if (!parsed.success) continue; // k8sEnvProblems names it
    const config = parsed.data as { HOST: string; PUBLISHED_ADDRESS?: string; API_TOKEN?: string };
    if (isLoopback(reachedAt(config))) problems.push(`${where}: reached at ${reachedAt(config)}: the Service and the Ingress would find nothing listening`);
    if (!unguardedProblem({ ...config, API_TOKEN: undefined })) problems.push(`${where}: would start without API_TOKEN although the cluster reaches it`);
    if (unguardedProblem({ ...config, API_TOKEN: 'a-token-set-in-the-secret' })) problems.push(`${where}: refuses to start even with a token`);
  }
  return problems;
}

/** Ingress backends are Services with that port. */
export function ingressProblems(objects: Obj[]): string[] {
  const problems: string[] = [];
  for (const ing of objects.filter((o) => o.kind === 'Ingress')) {
    const ns = ing.metadata?.namespace ?? 'default';
    const backends = [ing.spec?.defaultBackend, ...((ing.spec?.rules ?? []) as Obj[]).flatMap((r) => ((r.http?.paths ?? []) as Obj[]).map((p) => p.backend))].filter(Boolean) as Obj[];
    if (!backends.length) problems.push(`${objectId(ing)}: no backend`);
    for (const b of backends) {
      const svc = find(objects, 'Service', ns, b.service?.name);
      if (!svc) {
        problems.push(`${objectId(ing)}: backend Service ${b.service?.name} does not exist`);
        continue;
      }
      const port = b.service.port ?? {};
      const ok = ((svc.spec?.ports ?? []) as Obj[]).some((p) => (port.name !== undefined ? p.name === port.name : p.port === port.number));
      if (!ok) problems.push(`${objectId(ing)}: Service ${svc.metadata.name} has no port ${port.name ?? port.number}`);
    }
  }
  return problems;
}

export const K8S_CHECKS: Record<string, (objects: Obj[]) => string[]> = {
  'the ConfigMap holds shared settings, with the code’s key prefix and queue name': configMapProblems,
  'the ScaledObject reads the coordinator’s backlog route and scales the worker Deployment': scaledObjectProblems,
  'the HPA scales the worker Deployment on a resource it requests': hpaProblems,
  'lab containers run the Dockerfile’s commands': (o) => k8sCommandProblems(o),
  'env and envFrom hold variables the process reads, with values it accepts': k8sEnvProblems,
  'REDIS_URL and COORDINATOR_URL reach the right pods': k8sUrlProblems,
  'workers request one CPU per slot and get time to hand games back': workerProblems,
  'probes ask served paths on ports the process listens on': probeProblems,
  'Services select existing pods, on ports they declare': serviceProblems,
  'the NetworkPolicy admits exactly the coordinator and workers to Redis': networkPolicyProblems,
  'Redis is durable, on a claimed volume, with a disruption budget': redisProblems,
  'the API token Secret is read by the coordinator and holds no token in the repository': secretProblems,
  'the coordinator, reached beyond loopback, starts only with a token': (o) => k8sExposureProblems(o),
  'Ingress backends exist': ingressProblems,
};

// ---------------------------------------------------------------------------------------------
// The whole repository

/**
 * Outside agents in the images (docs/agent-protocol.md): the coordinator's and the workers' AGENTS_DIR
 * (its default, under their working directory) holds the repository's agents, and the lab's Python
 * package sits where the agents module puts it on their PYTHONPATH (python/ beside shared/); the
 * worker-python target is the worker with Python in it.
 */
export function dockerOutsideAgentProblems(model: DockerModel): string[] {
  const problems: string[] = [];
  for (const target of ['coordinator', 'worker']) {
    if (!model.stages.some((s) => s.name === target)) continue;
    const wd = effective(model.stages, target).wd;
    for (const [path, what] of [[posix.resolve(wd, DEFAULT_AGENTS_DIR), 'the outside agents (AGENTS_DIR) are'], [posix.resolve(wd, 'python/wonderlab'), "the lab's Python package (outside agents' PYTHONPATH) is"]] as const) {
      if (!originOf(model, target, path)) problems.push(`Dockerfile: target '${target}' has no ${path}: ${what} not in the image`);
    }
  }
  if (!model.stages.some((s) => s.name === 'worker-python')) problems.push("Dockerfile: no stage 'FROM worker AS worker-python' (the worker with Python, for outside agents in Python)");
  else if (!stageChain(model.stages, 'worker-python').some((s) => s.name === 'worker')) problems.push("Dockerfile: target 'worker-python' is not built FROM the worker");
  return problems;
}

/** The Dockerfile's checks, by what each makes sure of. */
export const DOCKER_CHECKS: Record<string, (model: DockerModel) => string[]> = {
  'the targets build, runtime, coordinator, worker, dashboard and lab exist': dockerTargetProblems,
  'each target runs, in exec form, a script that the image contains (sources compiled in the build)': dockerCmdProblems,
  'coordinator, worker and dashboard have a HEALTHCHECK on a path and port their process serves': dockerHealthcheckProblems,
  'the runtime stage, and every target, run as a non-root USER': dockerUserProblems,
  'every COPY source exists: in the repository (and not ignored) for the context, in the stage for --from': dockerCopyProblems,
  'the worker runs node with --single-threaded-gc': dockerWorkerGcProblems,
  'ENV and EXPOSE of each target fit its process': dockerEnvProblems,
  '.dockerignore excludes node_modules, dist, build-info files and .env': dockerignoreProblems,
  'the base image is a build argument (NODE_IMAGE) with a default': (model) => dockerBaseArgProblems(dockerfileText, model),
  'a build without a code version (WONDERLAB_COMMIT, WONDERLAB_DIRTY) stops': dockerCodeVersionProblems,
  'the build stage is labelled for removal and keeps only this platform\'s native onnxruntime': dockerBuildStageProblems,
  'outside agents: the agents and the Python package in the coordinator and worker images, a worker-python target': dockerOutsideAgentProblems,
};

/**
 * Outside agents in compose: the coordinator (which checks a spec's agents and hashes them) and the
 * workers (which run them) mount the same host folder at their AGENTS_DIR, or neither does; the
 * workers' image is the worker or worker-python.
 */
export function composeOutsideAgentProblems(m: ComposeModel): string[] {
  const problems: string[] = [];
  const mounts = (name: string): string | undefined => {
    const service = m.resolved.services?.[name];
    if (!service) return undefined;
    const target = composeTarget(service, m.docker);
    const wd = target && m.docker.stages.some((s) => s.name === target) ? effective(m.docker.stages, target).wd : '/app';
    const at = posix.resolve(wd, DEFAULT_AGENTS_DIR);
    const found = ((service.volumes ?? []) as unknown[]).map((v) => (typeof v === 'string' ? v.split(':') : [String((v as Obj).source), String((v as Obj).target)])).find((v) => v[1] === at);
    return found ? found[0] : '(the image\'s own)';
  };
  const [coordinator, worker] = [mounts('coordinator'), mounts('worker')];
  if (coordinator !== worker) problems.push(`docker-compose.yml: the coordinator's outside agents are ${coordinator}, the workers' ${worker}: a sweep would be checked against other agents than those that play it`);
  const target = m.resolved.services?.worker ? composeTarget(m.resolved.services.worker, m.docker) : undefined;
  if (target && target !== 'worker' && target !== 'worker-python') problems.push(`docker-compose.yml: services.worker builds target '${target}', not worker or worker-python`);
  return problems;
}

/** docker-compose.yml's and .env.example's checks, by what each makes sure of. */
export const COMPOSE_CHECKS: Record<string, (m: ComposeModel) => string[]> = {
  'every build target is a Dockerfile stage': composeTargetProblems,
  'every variable a lab service sets is one its process reads (<<: *lab-env included)': composeEnvNameProblems,
  'every ${VAR} is documented in .env.example with the same default': composeVarProblems,
  'with .env.example’s settings every lab process accepts its environment': composeEnvValueProblems,
  'Redis: append-only every second, no eviction, a volume named whatever the project, a healthcheck, published only by the host-redis file, on loopback': composeRedisProblems,
  'workers can be scaled, keep their number (WORKERS), stop cleanly and hand back a killed one\'s games in 5 s': composeWorkerProblems,
  'published on BIND_ADDRESS only, each service told so, and the coordinator refuses to be open without a token': composeExposureProblems,
  'COORDINATOR_URL and REDIS_URL point at the services, and published ports reach the processes': composeUrlProblems,
  'outside agents: the coordinator and the workers see the same agents; the workers are worker or worker-python': composeOutsideAgentProblems,
};

/** The kustomizations checked: the base and every overlay, by a label for messages. */
export const BUILDS: Record<string, string> = { base: 'k8s/base', ...Object.fromEntries(OVERLAYS.map((d) => [`${d} overlay`, `k8s/overlays/${d}`])) };

/**
 * Every problem in the deployment files, each saying where it is (the Dockerfile and compose
 * checks name their file; a k8s problem is prefixed with its build). `docker` and `compose`
 * default to the repository's files; a test passes broken copies. The k8s checks need kubectl
 * and are left out without it (`k8s` says whether they ran).
 */
export function lintRepository(docker: DockerModel = dockerModel, compose: ComposeModel = loadCompose()): { problems: string[]; k8s: boolean } {
  const problems: string[] = [];
  for (const check of Object.values(DOCKER_CHECKS)) problems.push(...check(docker));
  for (const check of Object.values(COMPOSE_CHECKS)) problems.push(...check(compose));
  if (KUBECTL) {
    for (const [label, dir] of Object.entries(BUILDS)) {
      const objects = kustomizeBuild(dir);
      const found = [...schemaProblems(objects), ...duplicateProblems(objects), ...Object.values(K8S_CHECKS).flatMap((check) => check(objects))];
      problems.push(...found.map((p) => `k8s ${label}: ${p}`));
    }
  }
  return { problems, k8s: Boolean(KUBECTL) };
}

// Run as a script: print the problems, exit 1 if any.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { problems, k8s } = lintRepository();
  for (const p of problems) console.log(p);
  if (!k8s) console.log('(k8s/ not checked: no kubectl)');
  console.log(problems.length === 0 ? 'the deployment files are consistent' : `${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}
