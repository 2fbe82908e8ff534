/**
 * The deployment files, checked by the linter in support/manifest-lint.ts (Dockerfile,
 * .dockerignore, docker-compose.yml, .env.example, the kustomize manifests under k8s/): each check
 * on the repository's files finds nothing, and each finds the drift it is for in a modified copy,
 * so that every check here can fail.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { BACKLOG_ROUTE } from '@wonderlab/coordinator';
import { DEFAULT_QUEUE_NAME, LUA_DIR } from '@wonderlab/shared/store';
import {
  BUILDS,
  clone,
  COMPOSE_CHECKS,
  composeEnvNameProblems,
  composeEnvValueProblems,
  composeExposureProblems,
  composeOutsideAgentProblems,
  composeRedisProblems,
  composeTargetProblems,
  composeUrlProblems,
  composeVarProblems,
  composeWorkerProblems,
  configMapProblems,
  COORDINATOR_PATHS,
  DASHBOARD_OWN_PATHS,
  DASHBOARD_PROXIED,
  DOCKER_CHECKS,
  dockerBaseArgProblems,
  dockerBuildStageProblems,
  dockerCodeVersionProblems,
  dockerCmdProblems,
  dockerCopyProblems,
  dockerEnvProblems,
  dockerfileText,
  dockerHealthcheckProblems,
  dockerignore,
  dockerignoreProblems,
  dockerModel,
  dockerOutsideAgentProblems,
  dockerTargetProblems,
  dockerUserProblems,
  dockerWorkerGcProblems,
  duplicateProblems,
  effective,
  HEALTHCHECK_SCRIPT,
  ingressProblems,
  isFile,
  K8S_CHECKS,
  k8sEnvProblems,
  k8sExposureProblems,
  KUBECTL,
  kustomizeBuild,
  labContainers,
  lintRepository,
  loadCompose,
  loadYamlObjects,
  namespaceProblems,
  networkPolicyProblems,
  objectId,
  originOf,
  OVERLAYS,
  parseDockerfile,
  probeProblems,
  PROCS,
  redisProblems,
  rel,
  repoPath,
  REQUIRED_TARGETS,
  scaledObjectProblems,
  schemaProblems,
  secretProblems,
  serviceEnvironment,
  serviceProblems,
  services,
  setting,
  workerProblems,
  WORKER_PATHS,
  workloadsOf,
  type DockerModel,
  type Obj,
} from './support/manifest-lint.js';

// ---------------------------------------------------------------------------------------------
// The tests

describe('code facts the checks rely on', () => {
  test('the paths each process serves are found in its source', () => {
    for (const p of ['/healthz', '/readyz', '/metrics', BACKLOG_ROUTE]) expect(COORDINATOR_PATHS).toContain(p);
    expect([...WORKER_PATHS].sort()).toEqual(['/healthz', '/readyz']);
    expect(DASHBOARD_OWN_PATHS).toContain('/dashboard/healthz');
    expect(DASHBOARD_PROXIED).toContain('/api');
    expect(BACKLOG_ROUTE.startsWith('/api/')).toBe(true);
  });

  test('each process has a known entry point in the repository', () => {
    for (const proc of PROCS) {
      const source = proc.script.replace(/\/dist\/(.*)\.js$/, '/$1.ts');
      expect(isFile(source), source).toBe(true);
    }
  });
});

describe('Dockerfile', () => {
  test('its stages parse, and the targets build, runtime, coordinator, worker, dashboard and lab exist', () => {
    expect(dockerModel.stages.map((s) => s.name)).toEqual(expect.arrayContaining(REQUIRED_TARGETS));
  });

  test.each(Object.entries(DOCKER_CHECKS))('%s', (_name, check) => {
    expect(check(dockerModel)).toEqual([]);
  });

  test("the runtime image has the store's .lua files where the compiled store reads them (tsc does not copy them)", () => {
    const dir = rel(fileURLToPath(LUA_DIR));
    const files = readdirSync(fileURLToPath(LUA_DIR), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.lua'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(originOf(dockerModel, 'runtime', `/app/${dir}/${f}`), f).toEqual({ kind: 'context', path: `${dir}/${f}` });
  });

  test('the base image defaults to the official Node 20 image', () => {
    expect(dockerfileText).toMatch(/^ARG NODE_IMAGE=node:20-\S+$/m);
  });

  test('the probe script exits 0 on a 2xx answer from the path on $<variable>, 1 otherwise', async () => {
    const server = createServer((req, res) => res.writeHead(req.url === '/readyz' ? 200 : 503).end());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const port = String((server.address() as AddressInfo).port);
    const probe = (args: string[], env: NodeJS.ProcessEnv) =>
      new Promise<number | null>((done) => execFile(process.execPath, [repoPath(HEALTHCHECK_SCRIPT), ...args], { env }, (err) => done(err ? (err.code as number) : 0)));
    try {
      expect(await probe(['PORT', '/readyz'], { PORT: port })).toBe(0);
      expect(await probe(['HEALTH_PORT', '/readyz'], { HEALTH_PORT: port })).toBe(0);
      expect(await probe(['PORT', '/dashboard/healthz'], { PORT: port })).toBe(1);
      expect(await probe(['PORT', '/readyz'], {})).toBe(1);
    } finally {
      server.close();
    }
    // Nothing listens on the port any more.
    expect(await probe(['PORT', '/readyz'], { PORT: port })).toBe(1);
  });
});

describe('docker-compose.yml and .env.example', () => {
  const compose = loadCompose();

  test('it parses, with the lab\'s services, and the <<: *lab-env merge key resolved', () => {
    expect(Object.keys(compose.resolved.services ?? {})).toEqual(expect.arrayContaining(['redis', 'coordinator', 'dashboard', 'worker']));
    expect(serviceEnvironment(compose.resolved.services.worker)).toHaveProperty('QUEUE_NAME');
  });

  test.each(Object.entries(COMPOSE_CHECKS))('%s', (_name, check) => {
    expect(check(compose)).toEqual([]);
  });
});

const buildCache = new Map<string, Obj[]>();
const build = (dir: string) => {
  if (!buildCache.has(dir)) buildCache.set(dir, kustomizeBuild(dir));
  return buildCache.get(dir)!;
};
const baseKustomization = loadYamlObjects(repoPath('k8s/base/kustomization.yaml'))[0];
const id = (o: Obj) => `${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;

describe.skipIf(!KUBECTL)('kubectl kustomize', () => {
  test('the base and the keda and cpu-hpa overlays are there, and every kustomization builds', () => {
    expect(OVERLAYS.sort()).toEqual(expect.arrayContaining(['cpu-hpa', 'keda']));
    for (const dir of Object.values(BUILDS)) expect(() => build(dir), dir).not.toThrow();
  });

  test('the base: every resource file, in the namespace, labelled, with the lab image', () => {
    const objects = build(BUILDS.base);
    const files = (baseKustomization.resources as string[]).flatMap((r) => loadYamlObjects(repoPath(`k8s/base/${r}`)));
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(files.map((o) => `${o.kind}/${o.metadata.name}`).sort());
    expect(namespaceProblems(objects, baseKustomization.namespace)).toEqual([]);
    const pairs = Object.assign({}, ...(baseKustomization.labels as Obj[]).map((l) => l.pairs)) as Record<string, string>;
    for (const o of objects) expect(o.metadata.labels, objectId(o)).toMatchObject(pairs);
    // includeSelectors: false: selectors and pod templates keep their own labels.
    for (const w of workloadsOf(objects)) for (const k of Object.keys(pairs)) expect(w.labels, w.name).not.toHaveProperty(k);
    const [image] = baseKustomization.images as Obj[];
    const labImages = labContainers(objects).map((l) => l.c.image);
    expect(labImages.length).toBeGreaterThanOrEqual(3);
    for (const i of labImages) expect(i).toBe(`${image.newName}:${image.newTag}`);
  });

  test('each overlay is the base plus its autoscaler, in the namespace and labelled: KEDA’s ScaledObject or the HPA, never both', () => {
    const base = build(BUILDS.base);
    const kinds = (objects: Obj[]) => objects.map((o) => o.kind);
    expect(kinds(base)).not.toContain('ScaledObject');
    expect(kinds(base)).not.toContain('HorizontalPodAutoscaler');
    for (const [overlay, autoscaler] of [['keda', 'ScaledObject'], ['cpu-hpa', 'HorizontalPodAutoscaler']]) {
      const objects = build(`k8s/overlays/${overlay}`);
      const added = objects.filter((o) => !base.some((b) => id(b) === id(o)));
      expect(added.map((o) => o.kind), overlay).toEqual([autoscaler]);
      expect(objects.map(id).sort(), overlay).toEqual([...base.map(id), ...added.map(id)].sort());
      expect(namespaceProblems(objects, baseKustomization.namespace), overlay).toEqual([]);
      expect(added[0].metadata.labels, overlay).toMatchObject({ 'app.kubernetes.io/part-of': 'wonderlab' });
    }
  });

  test('a kustomization whose resources contain itself fails the real build (the fault the old layout had)', () => {
    const cycle = execFileSync('bash', ['-c', `cd "$(mktemp -d)" && mkdir -p overlays/x && printf 'resources:\n  - ../..\n' > overlays/x/kustomization.yaml && printf 'resources:\n  - overlays/x\n' > kustomization.yaml && (kubectl kustomize overlays/x 2>&1 || true); rm -rf "$PWD"`], { encoding: 'utf8' });
    expect(cycle).toMatch(/cycle/i);
  });
});

describe.skipIf(!KUBECTL).each(Object.entries(BUILDS))('k8s %s', (_label, dir) => {
  test('every object validates against its Kubernetes / KEDA schema', () => {
    expect(schemaProblems(build(dir))).toEqual([]);
  });

  test('no two objects share kind, namespace and name', () => {
    expect(duplicateProblems(build(dir))).toEqual([]);
  });

  test.each(Object.entries(K8S_CHECKS))('%s', (_name, check) => {
    expect(check(build(dir))).toEqual([]);
  });
});

describe.skipIf(!KUBECTL)('the checks catch drift', () => {
  const base = () => clone(build(BUILDS['keda overlay']));
  const one = (objects: Obj[], kind: string, name?: string) => objects.find((o) => o.kind === kind && (name === undefined || o.metadata.name === name))!;
  const container = (objects: Obj[], deployment: string) => one(objects, 'Deployment', deployment).spec.template.spec.containers[0] as Obj;

  test('a ConfigMap QUEUE_NAME or KEY_PREFIX other than the code’s, or an unknown key', () => {
    const objects = base();
    one(objects, 'ConfigMap').data.QUEUE_NAME = 'games-v2';
    one(objects, 'ConfigMap').data.KEY_PREFX = 'wl';
    const problems = configMapProblems(objects);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/QUEUE_NAME is games-v2.*DEFAULT_QUEUE_NAME is games/), expect.stringMatching(/KEY_PREFX is not a shared setting/)]));
    one(objects, 'ConfigMap').data.KEY_PREFIX = 'lab';
    expect(configMapProblems(objects)).toEqual(expect.arrayContaining([expect.stringMatching(/KEY_PREFIX is lab/)]));
  });

  test('a ScaledObject reading the wrong route, field, host or port', () => {
    const objects = base();
    const trigger = one(objects, 'ScaledObject').spec.triggers[0];
    trigger.metadata.url = 'http://coordinator:8081/api/queue';
    trigger.metadata.valueLocation = 'queued';
    const problems = scaledObjectProblems(objects);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/path \/api\/queue/), expect.stringMatching(/valueLocation queued/), expect.stringMatching(/does not name the namespace/)]));
    trigger.metadata.url = `http://coordinator.${baseKustomization.namespace}.svc:8081${BACKLOG_ROUTE}`;
    expect(scaledObjectProblems(objects)).toEqual(expect.arrayContaining([expect.stringMatching(/has no port 8081/)]));
    one(objects, 'ScaledObject').spec.scaleTargetRef.name = 'dashboard';
    expect(scaledObjectProblems(objects)).toEqual(expect.arrayContaining([expect.stringMatching(/not the worker Deployment/)]));
  });

  test('worker CPU not matching WORKER_SLOTS, a grace period too short, an unknown variable', () => {
    const objects = base();
    const worker = container(objects, 'worker');
    worker.resources.requests.cpu = '3';
    one(objects, 'Deployment', 'worker').spec.template.spec.terminationGracePeriodSeconds = 60;
    worker.env.push({ name: 'SLOTS', value: '2' });
    expect(workerProblems(objects)).toEqual(expect.arrayContaining([expect.stringMatching(/requests 3 CPU for WORKER_SLOTS=2/), expect.stringMatching(/terminationGracePeriodSeconds 60 s/)]));
    expect(k8sEnvProblems(objects)).toEqual([expect.stringMatching(/sets SLOTS, which the worker does not read/)]);
  });

  test('a probe on a path the process does not serve, or on a port it does not name', () => {
    const objects = base();
    const dashboard = container(objects, 'dashboard');
    dashboard.readinessProbe.httpGet.path = '/healthz'; // proxied to the coordinator: not the dashboard's own health
    const worker = container(objects, 'worker');
    worker.livenessProbe.httpGet.port = 'http';
    const problems = probeProblems(objects);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/dashboard.*asks \/healthz/), expect.stringMatching(/worker.*port 'http' is not a named port/)]));
  });

  test('a Service selecting nothing, a NetworkPolicy admitting the dashboard, Redis without AOF, an Ingress to nowhere', () => {
    const objects = base();
    one(objects, 'Service', 'coordinator').spec.selector = { 'app.kubernetes.io/name': 'coordinater' };
    expect(serviceProblems(objects)).toEqual([expect.stringMatching(/matches no pod template/)]);
    one(objects, 'NetworkPolicy').spec.ingress[0].from[0].podSelector.matchExpressions[0].values.push('dashboard');
    expect(networkPolicyProblems(objects)).toEqual([expect.stringMatching(/admits \["coordinator","dashboard","worker"\]/)]);
    const redisArgsList = one(objects, 'StatefulSet', 'redis').spec.template.spec.containers[0].args as string[];
    redisArgsList[redisArgsList.indexOf('everysec')] = 'no';
    expect(redisProblems(objects)).toEqual([expect.stringMatching(/--appendfsync is no/)]);
    one(objects, 'Ingress').spec.rules[0].http.paths[0].backend.service.port = { name: 'web' };
    expect(ingressProblems(objects)).toEqual([expect.stringMatching(/has no port web/)]);
  });

  test('an API token in the repository, a literal token, a coordinator told it is on loopback', () => {
    const objects = base();
    one(objects, 'Secret').stringData.API_TOKEN = 'change-me';
    container(objects, 'coordinator').env.push({ name: 'API_TOKEN', value: 'hunter2' });
    expect(secretProblems(objects)).toEqual([expect.stringMatching(/API_TOKEN holds a value in the repository/), expect.stringMatching(/API_TOKEN is a literal value in the manifest/)]);
    const closed = base();
    container(closed, 'coordinator').env.push({ name: 'PUBLISHED_ADDRESS', value: '127.0.0.1' });
    expect(k8sExposureProblems(closed)).toEqual([expect.stringMatching(/reached at 127\.0\.0\.1: the Service and the Ingress would find nothing/), expect.stringMatching(/would start without API_TOKEN although the cluster reaches it/)]);
  });

  test('an unknown kind or a schema error fails validation; a duplicate is caught', () => {
    const objects = base();
    one(objects, 'Deployment', 'worker').spec.replicas = 'two';
    objects.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x', namespace: 'wonderlab' } });
    objects.push(clone(one(objects, 'Service', 'redis')));
    expect(schemaProblems(objects)).toEqual([expect.stringMatching(/Deployment .*worker.*replicas/), expect.stringMatching(/no schema known for v1 Pod/), ]);
    expect(duplicateProblems(objects)).toEqual([expect.stringMatching(/Service wonderlab\/redis.*same kind, namespace and name/)]);
  });

  test('compose: a default that disagrees with .env.example, an undocumented variable, an unscalable worker', () => {
    const compose = loadCompose();
    compose.raw.services.worker.environment.QUEUE_NAME = '${QUEUE_NAME:-jobs}';
    compose.raw.services.worker.environment.EXTRA = '${UNDOCUMENTED}';
    expect(composeVarProblems(compose)).toEqual(expect.arrayContaining([expect.stringMatching(/defaults QUEUE_NAME to 'jobs'/), expect.stringMatching(/UNDOCUMENTED.*does not document/)]));
    compose.resolved.services.worker.ports = ['9090:9090'];
    compose.resolved.services.worker.container_name = 'worker';
    compose.resolved.services.worker.stop_grace_period = '30s';
    compose.resolved.services.worker.environment.WORKER_THREADS = '2';
    expect(composeWorkerProblems(compose)).toEqual(expect.arrayContaining([expect.stringMatching(/container_name/), expect.stringMatching(/ports/), expect.stringMatching(/30000 ms, not more than SHUTDOWN_GRACE_MS \+ SHUTDOWN_CLOSE_MS=65000/)]));
    expect(composeEnvNameProblems(compose)).toEqual([expect.stringMatching(/WORKER_THREADS is not read by the worker/)]);
    compose.resolved.services.dashboard.environment.COORDINATOR_URL = 'http://coordinator:8081';
    expect(composeUrlProblems(compose)).toEqual([expect.stringMatching(/COORDINATOR_URL uses port 8081, coordinator listens on 8080/)]);
  });

  test('Dockerfile: root user, a lost HEALTHCHECK, a worker without --single-threaded-gc, a missing COPY source', () => {
    const text = dockerfileText
      .replace(/^USER node$/m, 'USER root')
      .replace(/--single-threaded-gc", "services\/worker/, 'services/worker')
      .replace(/COPY bin bin/, 'COPY scripts scripts')
      .replace(/\/dashboard\/healthz/, '/healthz');
    const model: DockerModel = { stages: parseDockerfile(text), ignored: dockerModel.ignored };
    expect(dockerUserProblems(model)).toEqual(expect.arrayContaining([expect.stringMatching(/target 'runtime' runs as root/)]));
    expect(dockerWorkerGcProblems(model)).toEqual([expect.stringMatching(/--single-threaded-gc/)]);
    expect(dockerCopyProblems(model)).toEqual(expect.arrayContaining([expect.stringMatching(/COPY scripts: not in the repository/), expect.stringMatching(/COPY --from=build \/app\/bin/)]));
    expect(dockerHealthcheckProblems(model)).toEqual([
      // Without bin/ in the image, no target's probe script is there.
      ...['coordinator', 'worker', 'dashboard'].map((t) => `Dockerfile:${effective(model.stages, t).healthcheck!.line}: target '${t}': HEALTHCHECK runs bin/healthcheck.mjs, which is not in the image`),
      expect.stringMatching(/'dashboard': HEALTHCHECK asks \/healthz/),
    ]);
    const noDist = { ...dockerModel, ignored: dockerignore('node_modules\n') };
    expect(dockerignoreProblems(noDist)).toEqual(expect.arrayContaining([expect.stringMatching(/does not exclude shared\/dist/), expect.stringMatching(/does not exclude shared\/node_modules/), expect.stringMatching(/does not exclude \.env /)]));
    const fixedBase = dockerfileText.replace('FROM ${NODE_IMAGE} AS code-version', 'FROM node:20 AS code-version').replace(/^ARG NODE_IMAGE=.*$/m, 'ARG NODE_IMAGE');
    expect(dockerBaseArgProblems(fixedBase, { ...dockerModel, stages: parseDockerfile(fixedBase) })).toEqual([
      expect.stringMatching(/stage 'code-version' is built FROM node:20, not FROM a build argument/),
      expect.stringMatching(/stage 'build' is built FROM \$\{NODE_IMAGE\}, which no ARG before the first FROM gives a default/),
    ]);
  });
});

describe('the safe-by-default checks catch drift', () => {
  test('compose: a port on every interface or off BIND_ADDRESS, a service not told its address, an open default, Redis published', () => {
    const compose = loadCompose();
    compose.raw.services.coordinator.ports = ['${COORDINATOR_PORT:-8080}:8080'];
    compose.raw.services.dashboard.ports = ['0.0.0.0:${DASHBOARD_PORT:-8081}:8081'];
    delete compose.raw.services.dashboard.environment.PUBLISHED_ADDRESS;
    compose.envExample.BIND_ADDRESS = '0.0.0.0';
    expect(composeExposureProblems(compose)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/services\.coordinator\.ports\[0\] names no address: published on every interface/),
        expect.stringMatching(/services\.dashboard\.ports\[0\] is published on '0\.0\.0\.0', not on \$\{BIND_ADDRESS\}/),
        expect.stringMatching(/services\.dashboard publishes on '0\.0\.0\.0' but its PUBLISHED_ADDRESS is 'unset'/),
        expect.stringMatching(/\.env\.example: BIND_ADDRESS is '0\.0\.0\.0', not a loopback address/),
      ]),
    );
    // The coordinator not told where it is published: on 0.0.0.0 in its container, it refuses even the default.
    const untold = loadCompose();
    delete untold.raw.services.coordinator.environment.PUBLISHED_ADDRESS;
    expect(composeExposureProblems(untold)).toEqual(expect.arrayContaining([expect.stringMatching(/with \.env\.example's settings the coordinator does not start: refusing to start/)]));
    const published = loadCompose();
    published.resolved.services.redis.ports = ['127.0.0.1:6379:6379'];
    published.hostRedis.resolved.services.redis.ports = ['6379:6379'];
    expect(composeRedisProblems(published)).toEqual([expect.stringMatching(/services\.redis\.ports publishes Redis/), expect.stringMatching(/publishes Redis on every address, not on 127\.0\.0\.1 only/)]);
  });

  test('compose: the fleet size not from WORKERS, slow stall detection, a volume named by the project, a commit in .env.example', () => {
    const compose = loadCompose();
    delete compose.raw.services.worker.deploy;
    compose.resolved.services.worker.environment.LOCK_DURATION_MS = '30000';
    expect(composeWorkerProblems(compose)).toEqual(expect.arrayContaining([expect.stringMatching(/deploy\.replicas is not \$\{WORKERS\}/), expect.stringMatching(/LOCK_DURATION_MS \+ STALLED_INTERVAL_MS = 30\d{3} ms/)]));
    compose.raw.volumes['redis-data'] = { name: '${COMPOSE_PROJECT_NAME:-wonderlab}_redis-data' };
    expect(composeRedisProblems(compose)).toEqual([expect.stringMatching(/named after COMPOSE_PROJECT_NAME/)]);
    compose.raw.volumes['redis-data'] = {};
    expect(composeRedisProblems(compose)).toEqual([expect.stringMatching(/has no name of its own/)]);
    compose.envExample.WONDERLAB_COMMIT = '';
    compose.envExampleText = compose.envExampleText.replace(/^#.*WONDERLAB_DIRTY.*$/gm, '#');
    expect(composeVarProblems(compose)).toEqual(expect.arrayContaining([expect.stringMatching(/\.env\.example sets WONDERLAB_COMMIT/), expect.stringMatching(/does not say where WONDERLAB_DIRTY comes from/)]));
  });

  test('Dockerfile: no code version check, or one that lets an empty commit through; a build stage unlabelled or with every platform; a service on loopback', () => {
    const without = dockerfileText.replace(/^RUN if \[ -z "\$WONDERLAB_COMMIT" \][^\n]*\n[^\n]*\n/m, '');
    expect(without).not.toBe(dockerfileText);
    expect(dockerCodeVersionProblems({ ...dockerModel, stages: parseDockerfile(without) })).toEqual([expect.stringMatching(/no RUN of the runtime's stages checks WONDERLAB_COMMIT/)]);
    const lax = dockerfileText.replace('exit 1; fi;', 'fi;');
    expect(dockerCodeVersionProblems({ ...dockerModel, stages: parseDockerfile(lax) })).toEqual([expect.stringMatching(/lets through \{"WONDERLAB_COMMIT":"","WONDERLAB_DIRTY":"false"\}/)]);
    const bare = dockerfileText.replace(/^LABEL org\.wonderlab\.stage=build$/m, '').replace(/^RUN keep=(?:.*\\\n)*.*\n/m, '');
    expect(dockerBuildStageProblems({ ...dockerModel, stages: parseDockerfile(bare) })).toEqual([expect.stringMatching(/has no LABEL org\.wonderlab\.stage=build/), expect.stringMatching(/keeps onnxruntime-node's binaries for every platform/)]);
    const loopback = dockerfileText.replace('ENV HOST=0.0.0.0 PORT=8080', 'ENV PORT=8080');
    expect(dockerEnvProblems({ ...dockerModel, stages: parseDockerfile(loopback) })).toEqual([expect.stringMatching(/target 'coordinator' listens on HOST=127\.0\.0\.1: no published port reaches it/)]);
  });
});

describe('outside agents in the deployment files', () => {
  test('Dockerfile: images without the agents or the Python package, no worker-python, or one not built from the worker', () => {
    expect(dockerOutsideAgentProblems(dockerModel)).toEqual([]);
    const bare = dockerfileText.replace('COPY --chown=node:node agents agents\n', '').replace('COPY --chown=node:node python/wonderlab python/wonderlab\n', '');
    expect(dockerOutsideAgentProblems({ ...dockerModel, stages: parseDockerfile(bare) })).toEqual([
      "Dockerfile: target 'coordinator' has no /app/agents: the outside agents (AGENTS_DIR) are not in the image",
      "Dockerfile: target 'coordinator' has no /app/python/wonderlab: the lab's Python package (outside agents' PYTHONPATH) is not in the image",
      "Dockerfile: target 'worker' has no /app/agents: the outside agents (AGENTS_DIR) are not in the image",
      "Dockerfile: target 'worker' has no /app/python/wonderlab: the lab's Python package (outside agents' PYTHONPATH) is not in the image",
    ]);
    const stray = dockerfileText.replace('FROM worker AS worker-python', 'FROM runtime AS worker-python');
    expect(dockerOutsideAgentProblems({ ...dockerModel, stages: parseDockerfile(stray) })).toEqual(["Dockerfile: target 'worker-python' is not built FROM the worker"]);
  });

  test('compose: the coordinator and the workers seeing other agents, or workers of another target', () => {
    const compose = loadCompose();
    expect(composeOutsideAgentProblems(compose)).toEqual([]);
    delete compose.resolved.services.coordinator.volumes;
    expect(composeOutsideAgentProblems(compose)).toEqual([expect.stringMatching(/the coordinator's outside agents are \(the image's own\), the workers' \.\/agents: a sweep would be checked against other agents/)]);
    compose.resolved.services.coordinator.volumes = compose.resolved.services.worker.volumes;
    compose.resolved.services.worker.build.target = 'dashboard';
    expect(composeOutsideAgentProblems(compose)).toEqual(["docker-compose.yml: services.worker builds target 'dashboard', not worker or worker-python"]);
  });
});

describe('the linter as a tool (npx tsx test/support/manifest-lint.ts)', () => {
  test('finds nothing in the repository', () => {
    expect(lintRepository().problems).toEqual([]);
  });

  test('finds a broken Dockerfile and a broken compose file, saying where', () => {
    const broken: DockerModel = { stages: parseDockerfile(dockerfileText.replace(/^USER node$/m, 'USER root')), ignored: dockerModel.ignored };
    const compose = loadCompose();
    const badTarget = { ...compose, resolved: clone(compose.resolved) };
    badTarget.resolved.services.worker.build.target = 'nothing';
    const { problems } = lintRepository(broken, badTarget);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/^Dockerfile: target 'runtime' runs as root/), expect.stringMatching(/^docker-compose\.yml: services\.worker\.build\.target 'nothing' is not a Dockerfile stage/)]));
  });

  test('run as a script, it exits 0 and says the files are consistent', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', repoPath('test/support/manifest-lint.ts')], { cwd: repoPath('.'), encoding: 'utf8' });
    expect(out).toMatch(/the deployment files are consistent\n$/);
  });
});
