# One image, one target per service: coordinator, worker, dashboard (and lab: all in one).
#   docker build --target worker -t wonderlab-worker .
# The build stage compiles the TypeScript and keeps only production dependencies; the runtime
# stages copy the result into a fresh copy of the same base image and run as its unprivileged
# 'node' user (uid 1000, as the k8s manifests' runAsUser expects).
#
# NODE_IMAGE is the base of both: any image with Node.js 20+, npm and a user 'node' of uid 1000.
# The official image is the default; where Docker Hub is out of reach, pass another
# (test/docker-build.sh builds one from Debian):
#   docker build --build-arg NODE_IMAGE=registry.example.com/node:20 --target worker .
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
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

FROM ${NODE_IMAGE} AS runtime
# The code version the image carries into every sweep's provenance (there is no git inside):
#   docker build --build-arg WONDERLAB_COMMIT=$(git rev-parse HEAD) …
# and WONDERLAB_DIRTY=true when the tree had changes (false when known clean; empty: unknown).
ARG WONDERLAB_COMMIT=
ARG WONDERLAB_DIRTY=
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
USER node

FROM runtime AS coordinator
ENV PORT=8080
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
ENV PORT=8081
EXPOSE 8081
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s CMD ["node", "bin/healthcheck.mjs", "PORT", "/dashboard/healthz"]
CMD ["node", "services/dashboard/dist/src/main.js"]

# Everything in one container (needs REDIS_URL): what `npm start` runs.
FROM runtime AS lab
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
CMD ["node", "--single-threaded-gc", "bin/wonderlab.mjs", "serve"]
