# One image, one target per service: coordinator, worker, dashboard (and lab: all in one).
# Build with bin/build-images (compose's images, or one image with --tag): it checks the base images,
# passes the commit and removes the build stage a classic builder leaves behind. By hand:
#   docker build --build-arg WONDERLAB_COMMIT=$(git rev-parse HEAD) --build-arg WONDERLAB_DIRTY=false --target worker .
# The build stage compiles the TypeScript and keeps only production dependencies; the runtime
# stages copy the result into a fresh copy of the same base image and run as its unprivileged
# 'node' user (uid 1000, as the k8s manifests' runAsUser expects).
#
# NODE_IMAGE is the base of both: any image with Node.js 20+, npm and a user 'node' of uid 1000.
# The official image is the default; where Docker Hub is out of reach, pass another
# (test/docker-build.sh builds one from Debian):
#   docker build --build-arg NODE_IMAGE=registry.example.com/node:20 --target worker .
ARG NODE_IMAGE=node:20-bookworm-slim

# The code version every sweep's provenance records from these images (there is no git inside):
# the commit, and whether the tree had changes. Checked first, so that a build without them stops
# at once instead of making images that record no commit.
FROM ${NODE_IMAGE} AS code-version
ARG WONDERLAB_COMMIT=
ARG WONDERLAB_DIRTY=
RUN if [ -z "$WONDERLAB_COMMIT" ]; then echo "WONDERLAB_COMMIT is empty: these images would record no code version in the sweeps they play. Build with bin/build-images (it passes git's commit), or pass --build-arg WONDERLAB_COMMIT=<commit> --build-arg WONDERLAB_DIRTY=<true|false>." >&2; exit 1; fi; \
    case "$WONDERLAB_DIRTY" in true|false) ;; *) echo "WONDERLAB_DIRTY is '$WONDERLAB_DIRTY': it must be true (the tree had changes) or false, beside WONDERLAB_COMMIT." >&2; exit 1 ;; esac

FROM ${NODE_IMAGE} AS build
# Marks this stage's images: the classic builder keeps them, untagged (dangling, over 1 GB);
# bin/build-images removes them by this label after a build. BuildKit keeps none.
LABEL org.wonderlab.stage=build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY shared/package.json shared/tsconfig.json shared/
COPY services/coordinator/package.json services/coordinator/tsconfig.json services/coordinator/
COPY services/worker/package.json services/worker/tsconfig.json services/worker/
COPY services/dashboard/package.json services/dashboard/tsconfig.json services/dashboard/
COPY services/serve/package.json services/serve/tsconfig.json services/serve/
# --ignore-scripts: 'prepare' would build before the sources are copied.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY shared shared
COPY services services
COPY bin bin
RUN npx tsc -b && npm prune --omit=dev --no-audit --no-fund
# onnxruntime-node ships its native library for every OS and processor (about 290 MB): keep this
# platform's only (45 MB on linux/x64), and stop if it is not there.
RUN keep="$(node -p 'process.platform + "/" + process.arch')" \
 && for dir in node_modules/onnxruntime-node/bin/napi-v*/*/*; do case "$dir" in */"$keep") ;; *) rm -rf "$dir" ;; esac; done \
 && find node_modules/onnxruntime-node/bin -type d -empty -delete \
 && ls node_modules/onnxruntime-node/bin/napi-v*/"$keep"/onnxruntime_binding.node >/dev/null

# Built on the checked code version (an empty layer): a build without it stops before this.
FROM code-version AS runtime
ARG WONDERLAB_COMMIT
ARG WONDERLAB_DIRTY
ENV NODE_ENV=production WONDERLAB_COMMIT=${WONDERLAB_COMMIT} WONDERLAB_DIRTY=${WONDERLAB_DIRTY}
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules node_modules
COPY --from=build --chown=node:node /app/shared/package.json shared/package.json
COPY --from=build --chown=node:node /app/shared/dist shared/dist
# The store's Lua scripts, which the compiled store reads from the sources (tsc copies no .lua).
COPY --from=build --chown=node:node /app/shared/src/store/lua shared/src/store/lua
COPY --from=build --chown=node:node /app/services/coordinator/package.json services/coordinator/package.json
COPY --from=build --chown=node:node /app/services/coordinator/dist services/coordinator/dist
COPY --from=build --chown=node:node /app/services/worker/package.json services/worker/package.json
COPY --from=build --chown=node:node /app/services/worker/dist services/worker/dist
COPY --from=build --chown=node:node /app/services/dashboard/package.json services/dashboard/package.json
COPY --from=build --chown=node:node /app/services/dashboard/dist services/dashboard/dist
COPY --from=build --chown=node:node /app/services/dashboard/public services/dashboard/public
COPY --from=build --chown=node:node /app/services/dashboard/pages services/dashboard/pages
COPY --from=build --chown=node:node /app/services/serve/package.json services/serve/package.json
COPY --from=build --chown=node:node /app/services/serve/dist services/serve/dist
COPY --from=build --chown=node:node /app/bin bin
COPY --chown=node:node presets presets
# Outside agents (docs/agent-protocol.md): the lab's Python package, on every agent's PYTHONPATH,
# and the agents installed with the code (AGENTS_DIR's default, /app/agents; compose mounts the
# host's folder over it). Python itself is in the worker-python target.
COPY --chown=node:node python/wonderlab python/wonderlab
COPY --chown=node:node agents agents
USER node

# The services listen on every interface of the container (their default is loopback): Docker
# publishes the port where BIND_ADDRESS says, and PUBLISHED_ADDRESS tells them so.
FROM runtime AS coordinator
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD ["node", "bin/healthcheck.mjs", "PORT", "/readyz"]
CMD ["node", "services/coordinator/dist/src/main.js"]

FROM runtime AS worker
# One game per core keeps every core busy; V8's parallel GC helpers would only compete with games.
ENV HEALTH_PORT=9090
EXPOSE 9090
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD ["node", "bin/healthcheck.mjs", "HEALTH_PORT", "/readyz"]
STOPSIGNAL SIGTERM
CMD ["node", "--single-threaded-gc", "services/worker/dist/src/main.js"]

FROM runtime AS dashboard
ENV HOST=0.0.0.0 PORT=8081
EXPOSE 8081
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD ["node", "bin/healthcheck.mjs", "PORT", "/dashboard/healthz"]
CMD ["node", "services/dashboard/dist/src/main.js"]

# Everything in one container (needs REDIS_URL): what `npm start` runs.
FROM runtime AS lab
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
CMD ["node", "--single-threaded-gc", "bin/wonderlab.mjs", "serve"]

# The worker with Python 3, NumPy and onnxruntime, for outside agents written in Python (agents/py-policy
# needs all three; agents/py-random Python alone). Debian's python3 and numpy; onnxruntime Debian's where
# the base's release packages it (Debian 13 on: no registry but Debian's needed), else from pip (Debian 12,
# the official node:20-bookworm-slim, packages none); PYTHON_PACKAGES set to anything else: pip installs it.
# Compose builds it for the workers with WORKER_TARGET=worker-python (.env); in Kubernetes, build an image
# FROM it that copies your agents into /app/agents.
# The last stage: the classic builder (no BuildKit) builds every stage before its target, so a stage
# here, before the dashboard's or the lab's, would install Python into every build of theirs.
FROM worker AS worker-python
ARG PYTHON_PACKAGES=onnxruntime
USER root
RUN apt-get update \
 && if [ "$PYTHON_PACKAGES" = onnxruntime ] && apt-cache show python3-onnxruntime >/dev/null 2>&1; then \
      apt-get install -y --no-install-recommends python3 python3-numpy python3-onnxruntime; \
    else \
      apt-get install -y --no-install-recommends python3 python3-numpy python3-pip \
      && pip3 install --no-cache-dir --break-system-packages ${PYTHON_PACKAGES} \
      && apt-get purge -y python3-pip && apt-get autoremove -y; \
    fi \
 && apt-get clean && rm -rf /var/lib/apt/lists/* \
 && python3 -c 'import numpy, onnxruntime'
USER node
