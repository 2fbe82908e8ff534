#!/usr/bin/env bash
# Builds the lab's images and runs docker-compose.yml for real, end to end, with Compose v2
# (`docker compose`) or v1 (`docker-compose`, Debian 12's), whichever is installed:
#   1. the base images: NODE_IMAGE and REDIS_IMAGE (the compose defaults) if they can be pulled;
#      where Docker Hub is out of reach, one stand-in built from Debian with debootstrap (Debian's
#      nodejs and npm, redis-server, a user 'node' of uid 1000), used for both; its working
#      directory is '/', so Redis keeps its data in the volume only because compose says --dir;
#   2. `compose build` with NODE_IMAGE and the commit (WONDERLAB_COMMIT, WONDERLAB_DIRTY) as the
#      Dockerfile's build arguments, then `up` with three workers;
#   3. a sweep submitted with the API token; one worker SIGKILLed at a third of its games and the
#      coordinator SIGKILLed at half (then started again); every game played once (done = total,
#      no failure, every game id once in the export) and equal to a local play; the sweep's
#      provenance names the commit the images were built from;
#   4. `down` then `up`: the sweep is still there (the Redis volume kept it); the dashboard serves
#      its pages and passes /api through;
#   5. `down -v`.
# Where no Docker engine (or no compose) answers it says so and exits 0: nothing to check there.
#
#   bash test/docker-build.sh               # needs the repository built (npm ci) for step 3's check
#   NODE_IMAGE=… REDIS_IMAGE=… bash test/docker-build.sh    # your own base images
#   KEEP=1 bash test/docker-build.sh        # leave the lab running afterwards
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "docker-build: $*" >&2; }

if ! docker info >/dev/null 2>&1; then
  say "skipped: no Docker engine answers (start dockerd, or set DOCKER_HOST)"
  exit 0
fi
if docker compose version >/dev/null 2>&1; then
  compose() { docker compose "$@"; }
  say "compose: $(docker compose version --short 2>/dev/null || echo v2)"
elif command -v docker-compose >/dev/null 2>&1; then
  # Compose v1 (Debian 12's docker-compose 1.29) reads the same file: it has no v2-only key.
  compose() { docker-compose "$@"; }
  say "compose: $(docker-compose version --short 2>/dev/null || echo v1)"
else
  say "skipped: neither 'docker compose' nor 'docker-compose' is installed"
  exit 0
fi

STANDIN=wonderlab-standin-base:trixie
# Debian 13's nodejs is 20.x (Debian 12's is 18, too old for the lab).
SUITE=${STANDIN_SUITE:-trixie}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

# A base image from Debian: what the Dockerfile needs of NODE_IMAGE (node, npm, user 'node' of uid
# 1000) and what compose needs of REDIS_IMAGE (redis-server and redis-cli on PATH, data in /data).
build_standin() {
  if docker image inspect "$STANDIN" >/dev/null 2>&1; then return; fi
  command -v debootstrap >/dev/null 2>&1 || { say "debootstrap is needed to build a stand-in base image (apt-get install debootstrap)"; exit 1; }
  [ "$(id -u)" = 0 ] || { say "building a stand-in base image needs root (debootstrap)"; exit 1; }
  local root
  root=$(mktemp -d)
  say "building $STANDIN from Debian $SUITE ($MIRROR) in $root"
  debootstrap --variant=minbase "$SUITE" "$root" "$MIRROR" >/dev/null
  # apt inside the new system resolves npm's many dependencies (debootstrap's --include does not
  # follow all of them); no service may start in the chroot meanwhile.
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod +x "$root/usr/sbin/policy-rc.d"
  mount -t proc proc "$root/proc"
  local status=0
  # A clean environment: the chroot has no TMPDIR of the caller's, nor its locale.
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs npm redis-server ca-certificates >/dev/null || status=$?
  umount "$root/proc"
  [ "$status" = 0 ] || { say "installing nodejs, npm and redis-server in the stand-in failed"; exit 1; }
  rm -f "$root/usr/sbin/policy-rc.d"
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin useradd --uid 1000 --create-home --shell /bin/bash node
  mkdir -p "$root/data"
  chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin apt-get clean
  rm -rf "$root"/var/lib/apt/lists/*
  # Where this machine reaches the npm registry through a TLS proxy of its own (NODE_EXTRA_CA_CERTS),
  # the stand-in trusts the same certificates, or npm ci in the build cannot fetch a package.
  local env_ca=()
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    cp "$NODE_EXTRA_CA_CERTS" "$root/usr/local/share/extra-ca-certificates.crt"
    env_ca=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca-certificates.crt')
  fi
  # Working directory '/': a Redis that is not told --dir would write its data outside the volume.
  tar -C "$root" -c . | docker import --change 'WORKDIR /' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "${env_ca[@]}" - "$STANDIN" >/dev/null
  rm -rf "$root"
  say "$STANDIN: $(docker run --rm "$STANDIN" node --version), npm $(docker run --rm "$STANDIN" npm --version), $(docker run --rm "$STANDIN" redis-server --version | cut -d' ' -f3)"
}

available() { docker image inspect "$1" >/dev/null 2>&1 || docker pull "$1" >/dev/null 2>&1; }

export NODE_IMAGE=${NODE_IMAGE:-node:20-bookworm-slim}
export REDIS_IMAGE=${REDIS_IMAGE:-redis:7.2-alpine}
if ! available "$NODE_IMAGE"; then
  say "$NODE_IMAGE cannot be pulled: using a stand-in"
  build_standin
  NODE_IMAGE=$STANDIN
fi
if ! available "$REDIS_IMAGE"; then
  say "$REDIS_IMAGE cannot be pulled: using a stand-in"
  build_standin
  REDIS_IMAGE=$STANDIN
fi

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
export COMPOSE_PROJECT_NAME=wonderlab-build-test
export COORDINATOR_PORT=$(free_port) DASHBOARD_PORT=$(free_port) REDIS_PORT=$(free_port)
export API_TOKEN=build-test-token WORKER_SLOTS=1 SHUTDOWN_GRACE_MS=20000 LOG_LEVEL=info
API=http://127.0.0.1:$COORDINATOR_PORT

cleanup() {
  local status=$?
  if [ "${KEEP:-}" = 1 ]; then
    say "left running (KEEP=1): API $API, dashboard http://127.0.0.1:$DASHBOARD_PORT/"
  else
    compose down -v --remove-orphans >/dev/null 2>&1 || true
  fi
  exit $status
}
trap cleanup EXIT

# The code version the images carry (the sweep's provenance must name it).
export WONDERLAB_COMMIT=$(git rev-parse HEAD)
export WONDERLAB_DIRTY=$(git diff --quiet HEAD && echo false || echo true)

started=$(date +%s)
say "building the images on $NODE_IMAGE at $WONDERLAB_COMMIT (dirty: $WONDERLAB_DIRTY)"
build_log=$(mktemp)
compose build >"$build_log" 2>&1 || { tail -40 "$build_log" >&2; exit 1; }
engine_warnings=$(grep -c EBADENGINE "$build_log" || true)
rm -f "$build_log"
[ "$engine_warnings" = 0 ] || { say "npm ci in the build warned EBADENGINE $engine_warnings times"; exit 1; }
say "built in $(( $(date +%s) - started )) s: $(docker image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep "^$COMPOSE_PROJECT_NAME" | tr '\n' ' ')"

wait_for() { # url, what, seconds
  for _ in $(seq "$3"); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 1; done
  say "$2 did not answer at $1"; compose logs --tail 50 >&2; return 1
}
json() { node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const v=JSON.parse(t);console.log(eval("v"+process.argv[1]))})' "$1"; }

# Games done, read from Redis itself (while the coordinator is down).
redis_done() { node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1",()=>s.write(`HGET ${process.argv[2]} done\r\n`));s.on("data",(d)=>{const m=/^\$\d+\r\n(\d+)/.exec(String(d));console.log(m?m[1]:"?");s.end()})' "$REDIS_PORT" "wl:sweep:$id"; }
containers() { docker ps --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME" "$@"; }
compose up -d --scale worker=3 >/dev/null
wait_for "$API/readyz" coordinator 90
say "up: $(containers --format '{{.Label "com.docker.compose.service"}}' | sort | uniq -c | tr -s ' \n' ' ')"
uid=$(compose exec -T coordinator id -u)
[ "$uid" = 1000 ] || { say "the coordinator runs as uid $uid, not 1000"; exit 1; }

SPEC='{"name":"docker-build","players":3,"seats":["mcts(it=300)","rulebased","random"],"deals":{"count":150}}'
unauth=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$API/api/sweeps" -H 'content-type: application/json' -d "$SPEC")
[ "$unauth" = 401 ] || { say "a POST without the token got $unauth, not 401"; exit 1; }
id=$(curl -fsS -X POST "$API/api/sweeps" -H 'content-type: application/json' -H "authorization: Bearer $API_TOKEN" -d "$SPEC" | json .id)
say "sweep $id submitted"
done_now() { curl -fsS "$API/api/sweeps/$id" | json .counts.done; }
wait_done() { for _ in $(seq 1200); do [ "$(done_now)" -ge "$1" ] && return 0; sleep 0.2; done; say "the sweep did not reach $1 games"; exit 1; }

# A worker SIGKILLed at a third of the games, while it plays; then the coordinator at half.
wait_done 50
victim=$(containers --filter 'label=com.docker.compose.service=worker' --format '{{.ID}}' | head -1)
docker kill --signal KILL "$victim" >/dev/null
say "worker $victim SIGKILLed at $(done_now) of 150 games done"
wait_done 75
coordinator=$(containers --filter 'label=com.docker.compose.service=coordinator' --format '{{.ID}}')
docker kill --signal KILL "$coordinator" >/dev/null
say "coordinator SIGKILLed at $(redis_done) of 150 games done"
# A container killed by hand stays down under `restart: unless-stopped` (docker-compose.yml): start it.
sleep 3
compose start coordinator >/dev/null
wait_for "$API/readyz" coordinator 90
say "coordinator back at $(done_now) games done"

for _ in $(seq 240); do [ "$(curl -fsS "$API/api/sweeps/$id" | json .status)" = done ] && break; sleep 1; done
detail=$(curl -fsS "$API/api/sweeps/$id")
total=$(echo "$detail" | json .counts.total)
done_=$(echo "$detail" | json .counts.done)
failed=$(echo "$detail" | json .counts.failed)
say "sweep: $(echo "$detail" | json .status), $done_ of $total done, $failed failed"
[ "$done_" = "$total" ] && [ "$failed" = 0 ] || { say "not every game was played once"; exit 1; }
commit=$(echo "$detail" | json .provenance.code.commit)
workers=$(echo "$detail" | json '.provenance.workers.map((w) => w.commit).join(",")')
say "provenance: coordinator at $commit, workers at $workers"
[ "$commit" = "$WONDERLAB_COMMIT" ] || { say "the sweep records commit '$commit', the images were built from $WONDERLAB_COMMIT"; exit 1; }
[ -n "$workers" ] && [ -z "$(echo "$workers" | tr ',' '\n' | grep -v "^$WONDERLAB_COMMIT$" || true)" ] || { say "a worker recorded another commit: $workers"; exit 1; }
export_file=$(mktemp)
curl -fsS "$API/api/sweeps/$id/export?format=jsonl" >"$export_file"
# Every game once, and each equal to the same game played here (timings aside).
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { Sweep, parseSweepSpec, playGame } from "@wonderlab/shared";
  const [file, specText] = process.argv.slice(1);
  const games = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const sweep = new Sweep(parseSweepSpec(JSON.parse(specText)));
  const ids = new Set(games.map((g) => g.id));
  if (games.length !== sweep.size || ids.size !== sweep.size) throw new Error(`${games.length} lines, ${ids.size} ids, ${sweep.size} games`);
  const strip = (g) => JSON.stringify({ ...g, sweep: undefined, cell: undefined, players: g.players.map((p) => ({ ...p, decisionMs: 0 })) });
  let differ = 0;
  for (const g of games) if (strip(g) !== strip({ ...playGame(sweep.game(g.index)), record: undefined })) differ++;
  console.error(`docker-build: export: ${games.length} games, ${ids.size} distinct ids, ${differ} differing from a local play`);
  if (differ) process.exit(1);
' "$export_file" "$SPEC"
rm -f "$export_file"

# Down and up again: the volume keeps the results.
compose down >/dev/null
compose up -d --scale worker=1 >/dev/null
wait_for "$API/readyz" coordinator 90
again=$(curl -fsS "$API/api/sweeps/$id" | json .counts.done)
[ "$again" = "$total" ] || { say "after down/up the sweep has $again games, not $total"; exit 1; }
say "after down/up: $again of $total games kept"
wait_for "http://127.0.0.1:$DASHBOARD_PORT/dashboard/healthz" dashboard 60
page=$(curl -fsS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$DASHBOARD_PORT/sweeps/$id")
through=$(curl -fsS "http://127.0.0.1:$DASHBOARD_PORT/api/sweeps/$id" | json .counts.done)
say "dashboard: page $page, /api through it: $through games"
[ "$page" = 200 ] && [ "$through" = "$total" ] || exit 1
# Redis is on this machine's port for `npm start`.
redis_ping=$(node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1",()=>s.write("PING\r\n"));s.on("data",d=>{console.log(String(d).trim());s.end()})' "$REDIS_PORT")
say "Redis at 127.0.0.1:$REDIS_PORT answers $redis_ping"
[ "$redis_ping" = +PONG ] || exit 1
say "passed in $(( $(date +%s) - started )) s"
