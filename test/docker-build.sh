#!/usr/bin/env bash
# Builds the lab's images and runs docker-compose.yml for real, end to end, once with each Compose
# installed: v2 (`docker compose`) and v1 (`docker-compose`, Debian 12's). Each run, in order:
#   1. the base images: NODE_IMAGE and REDIS_IMAGE (the compose defaults) if they can be pulled;
#      where Docker Hub is out of reach, stand-ins built from Debian with debootstrap: one for Node
#      (Debian's nodejs, npm from the npm registry as the official image bundles it, a user 'node'
#      of uid 1000) and one for Redis (redis-server, working directory '/', so its data stays in the
#      volume only because compose says --dir);
#   2. what stops a bad build before it starts: a base image that cannot be pulled is named
#      (NODE_IMAGE), leaving no network or volume; a build without a commit is refused;
#   3. bin/build-images (the documented build): no build stage left dangling, each image's size
#      printed and at most MAX_IMAGE_MB;
#   4. `up` with a Redis already on this machine's 6379 and WORKERS=3; published on loopback only
#      (not reachable at this machine's other address), and the coordinator refuses BIND_ADDRESS=0.0.0.0
#      without a token, saying so on its first line;
#   5. a sweep submitted with the API token; one worker SIGKILLed at a third of its games (its batch
#      back in the queue within 5 s, measured from the workers' logs) and the coordinator SIGKILLed at
#      half (then started again); every game played once (done = total, no failure, every game id
#      once in the export) and equal to a local play; the provenance names the commit and whether
#      the tree was dirty; the killed worker shows as silent (lost capacity) in /api/workers and
#      /metrics;
#   6. `down` then `up`: three workers again (WORKERS), the sweep still there; `up` under another
#      project name (as without .env) finds the same results; the dashboard serves its pages and
#      passes /api through;
#   7. BIND_ADDRESS=0.0.0.0 with the token: reachable at the other address, a change without the
#      token refused; docker-compose.host-redis.yml publishes Redis on loopback for `npm start`;
#   8. `down -v`: the containers, the network and the results' volume are gone.
# Where no Docker engine (or no compose) answers it says so and exits 0: nothing to check there.
#
#   bash test/docker-build.sh               # needs the repository built (npm ci) for step 5's check
#   NODE_IMAGE=… REDIS_IMAGE=… bash test/docker-build.sh    # your own base images
#   COMPOSE=v1 bash test/docker-build.sh    # one Compose only (v1 or v2)
#   KEEP=1 bash test/docker-build.sh        # leave the last lab running afterwards
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "docker-build: $*" >&2; }
fail() {
  say "FAILED: $*"
  exit 1
}

# The figure issue 58 set: a runtime image at most this big (the platform's onnxruntime only).
MAX_IMAGE_MB=${MAX_IMAGE_MB:-400}

if ! docker info >/dev/null 2>&1; then
  say "skipped: no Docker engine answers (start dockerd, or set DOCKER_HOST)"
  exit 0
fi
composes=()
if [ "${COMPOSE:-v2}" = v2 ] && docker compose version >/dev/null 2>&1; then composes+=(v2); fi
if [ "${COMPOSE:-v1}" = v1 ] && command -v docker-compose >/dev/null 2>&1; then composes+=(v1); fi
if [ ${#composes[@]} = 0 ]; then
  say "skipped: neither 'docker compose' nor 'docker-compose' is installed${COMPOSE:+ (COMPOSE=$COMPOSE)}"
  exit 0
fi

NODE_STANDIN=wonderlab-standin-node:trixie
REDIS_STANDIN=wonderlab-standin-redis:trixie
# Debian 13's nodejs is 20.x (Debian 12's is 18, too old for the lab).
SUITE=${STANDIN_SUITE:-trixie}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

in_root() { chroot "$1" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "${@:2}"; }

# Installs Debian packages into a debootstrapped root (apt resolves what debootstrap's --include
# does not follow); no service may start in the chroot meanwhile.
apt_into() {
  local root=$1 status=0
  shift
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod +x "$root/usr/sbin/policy-rc.d"
  mount -t proc proc "$root/proc"
  in_root "$root" apt-get install -y --no-install-recommends "$@" >/dev/null || status=$?
  umount "$root/proc"
  rm -f "$root/usr/sbin/policy-rc.d"
  in_root "$root" apt-get clean
  rm -rf "$root"/var/lib/apt/lists/*
  [ "$status" = 0 ] || fail "installing $* in the stand-in failed"
}

# Two base images from Debian, standing in for the official ones. The Node one is what the
# Dockerfile needs of NODE_IMAGE (node, npm, a user 'node' of uid 1000) and nothing else — npm as
# the official image has it, from the npm registry (Debian's npm package brings 170 MB of Debian
# node-* packages and build tools no image of the lab uses, which would misstate its size). The
# Redis one has what compose needs of REDIS_IMAGE (redis-server and redis-cli on PATH, /data).
build_standins() {
  if docker image inspect "$NODE_STANDIN" >/dev/null 2>&1 && docker image inspect "$REDIS_STANDIN" >/dev/null 2>&1; then return; fi
  command -v debootstrap >/dev/null 2>&1 || fail "debootstrap is needed to build stand-in base images (apt-get install debootstrap)"
  [ "$(id -u)" = 0 ] || fail "building stand-in base images needs root (debootstrap)"
  local work
  work=$(mktemp -d)
  say "building $NODE_STANDIN and $REDIS_STANDIN from Debian $SUITE ($MIRROR) in $work"
  debootstrap --variant=minbase "$SUITE" "$work/base" "$MIRROR" >/dev/null
  cp -a "$work/base" "$work/redis"
  mv "$work/base" "$work/node"

  apt_into "$work/node" nodejs ca-certificates
  local tarball
  tarball=$(cd "$work" && npm pack npm@10 --silent | tail -1)
  mkdir -p "$work/node/usr/local/lib/node_modules" "$work/node/usr/local/bin"
  tar -xzf "$work/$tarball" -C "$work/node/usr/local/lib/node_modules"
  mv "$work/node/usr/local/lib/node_modules/package" "$work/node/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr/local/bin/npx"
  in_root "$work/node" useradd --uid 1000 --create-home --shell /bin/bash node
  # Where this machine reaches the npm registry through a TLS proxy of its own (NODE_EXTRA_CA_CERTS),
  # the stand-in trusts the same certificates, or npm ci in the build cannot fetch a package.
  local env_ca=()
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    cp "$NODE_EXTRA_CA_CERTS" "$work/node/usr/local/share/extra-ca-certificates.crt"
    env_ca=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca-certificates.crt')
  fi
  tar -C "$work/node" -c . | docker import --change 'WORKDIR /' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "${env_ca[@]}" - "$NODE_STANDIN" >/dev/null

  apt_into "$work/redis" redis-server
  mkdir -p "$work/redis/data"
  # Working directory '/': a Redis that is not told --dir would write its data outside the volume.
  tar -C "$work/redis" -c . | docker import --change 'WORKDIR /' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - "$REDIS_STANDIN" >/dev/null
  rm -rf "$work"
  say "$NODE_STANDIN: node $(docker run --rm "$NODE_STANDIN" node --version), npm $(docker run --rm "$NODE_STANDIN" npm --version), $(mb "$NODE_STANDIN") MB; $REDIS_STANDIN: $(docker run --rm "$REDIS_STANDIN" redis-server --version | cut -d' ' -f3), $(mb "$REDIS_STANDIN") MB"
}

available() { docker image inspect "$1" >/dev/null 2>&1 || docker pull "$1" >/dev/null 2>&1; }
mb() { docker image inspect --format '{{.Size}}' "$1" | awk '{ printf "%d", $1 / 1e6 + 0.5 }'; }

export NODE_IMAGE=${NODE_IMAGE:-node:20-bookworm-slim}
export REDIS_IMAGE=${REDIS_IMAGE:-redis:7.2-alpine}
if ! available "$NODE_IMAGE"; then
  say "$NODE_IMAGE cannot be pulled: using a stand-in"
  build_standins
  NODE_IMAGE=$NODE_STANDIN
fi
if ! available "$REDIS_IMAGE"; then
  say "$REDIS_IMAGE cannot be pulled: using a stand-in"
  build_standins
  REDIS_IMAGE=$REDIS_STANDIN
fi

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
json() { node -e 'let t="";process.stdin.on("data",d=>t+=d).on("end",()=>{const v=JSON.parse(t);console.log(eval("v"+process.argv[1]))})' "$1"; }
now_ms() { date +%s%3N; }
# This machine's first address that is not loopback: where the network would reach the lab.
OTHER_ADDRESS=$(hostname -I | tr ' ' '\n' | grep -E '^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$' | grep -v '^127\.' | head -1)
[ -n "$OTHER_ADDRESS" ] || fail "this machine has no IPv4 address but loopback: nothing to check reachability from"
answers() { curl -s -o /dev/null -m 3 -w '%{http_code}' "$1" 2>/dev/null || true; }

# The code version the images carry (bin/build-images takes the same from git).
COMMIT=$(git rev-parse HEAD)
DIRTY=$(git diff --quiet HEAD -- && echo false || echo true)
SPEC='{"name":"docker-build","players":3,"seats":["mcts(it=300)","rulebased","random"],"deals":{"count":150}}'

scenario() {
  local which=$1
  if [ "$which" = v2 ]; then compose() { docker compose "$@"; }; else compose() { docker-compose "$@"; }; fi
  local started project
  started=$(date +%s)
  project=wonderlab-build-test-$which
  export COMPOSE_PROJECT_NAME=$project REDIS_VOLUME=${project}_results
  COORDINATOR_PORT=$(free_port) DASHBOARD_PORT=$(free_port)
  export COORDINATOR_PORT DASHBOARD_PORT API_TOKEN=build-test-token WORKERS=3 WORKER_SLOTS=1 SHUTDOWN_GRACE_MS=20000 LOG_LEVEL=info
  unset BIND_ADDRESS WONDERLAB_COMMIT WONDERLAB_DIRTY
  API=http://127.0.0.1:$COORDINATOR_PORT
  say "[$which] compose $(compose version --short 2>/dev/null || echo '?'), project $project"
  trap 'cleanup' EXIT

  # 2. Stopped before anything is built or created.
  local before_networks out dangling_start
  dangling_start=$(docker images -q --filter dangling=true | sort -u)
  before_networks=$(docker network ls -q | sort)
  out=$(NODE_IMAGE=registry.invalid/wonderlab/node:20 bin/build-images 2>&1) && fail "bin/build-images built on a base image that cannot be pulled"
  grep -q 'NODE_IMAGE=registry.invalid/wonderlab/node:20 is not on this machine and cannot be pulled' <<<"$out" || fail "an unpullable base image was not named: $out"
  [ "$(docker network ls -q | sort)" = "$before_networks" ] && ! docker volume inspect "$REDIS_VOLUME" >/dev/null 2>&1 || fail "the refused build left a network or a volume behind"
  say "[$which] an unpullable base image stops the build at once, named: $(tail -1 <<<"$out" | cut -c1-140)…"
  local dangling_then
  dangling_then=$(docker images -q --filter dangling=true | sort -u)
  # --force-rm: a classic builder keeps the failed step's container otherwise.
  out=$(compose build --force-rm coordinator 2>&1) && fail "compose build without a commit built an image"
  grep -q 'WONDERLAB_COMMIT is empty' <<<"$out" || fail "compose build without a commit failed, but not saying why: $(tail -5 <<<"$out")"
  comm -13 <(echo "$dangling_then") <(docker images -q --filter dangling=true | sort -u) | xargs -r docker rmi >/dev/null
  say "[$which] a build without a commit is refused: WONDERLAB_COMMIT is empty"

  # 3. The documented build.
  local dangling_before build_log
  dangling_before=$(docker images -q --filter dangling=true | sort -u)
  build_log=$(mktemp)
  bin/build-images >"$build_log" 2>&1 || { tail -40 "$build_log" >&2; fail "bin/build-images failed"; }
  local engine_warnings
  engine_warnings=$(grep -c EBADENGINE "$build_log" || true)
  rm -f "$build_log"
  [ "$engine_warnings" = 0 ] || fail "npm ci in the build warned EBADENGINE $engine_warnings times"
  [ -z "$(docker images -q --filter dangling=true --filter label=org.wonderlab.stage=build)" ] || fail "a build stage is left behind: $(docker images --filter dangling=true --filter label=org.wonderlab.stage=build)"
  local new_dangling
  new_dangling=$(comm -13 <(echo "$dangling_before") <(docker images -q --filter dangling=true | sort -u))
  [ -z "$new_dangling" ] || fail "the build left dangling images: $new_dangling (before: ${dangling_before:-none}): $(docker images --filter dangling=true)"
  local images=() sizes=""
  mapfile -t images < <(docker image ls --format '{{.Repository}}:{{.Tag}}' | grep -E "^${project}[-_](coordinator|worker|dashboard):")
  [ ${#images[@]} = 3 ] || fail "expected 3 images of $project, found: ${images[*]}"
  for image in "${images[@]}"; do
    sizes+="$image $(mb "$image") MB; "
    [ "$(mb "$image")" -le "$MAX_IMAGE_MB" ] || fail "$image is $(mb "$image") MB, over $MAX_IMAGE_MB MB"
  done
  say "[$which] built in $(($(date +%s) - started)) s, no dangling image: ${sizes}base $NODE_IMAGE $(mb "$NODE_IMAGE") MB"

  # 4. Up beside a Redis of this machine's own, with the fleet of .env (WORKERS=3).
  local host_redis=""
  if ! node -e 'require("net").connect(6379,"127.0.0.1").on("connect",()=>process.exit(0)).on("error",()=>process.exit(1))'; then
    host_redis=$(docker run -d --rm -p 127.0.0.1:6379:6379 "$REDIS_IMAGE" redis-server --protected-mode no)
  fi
  compose up -d >/dev/null || fail "up failed with a Redis already on this machine's port 6379"
  [ -z "$host_redis" ] || docker stop "$host_redis" >/dev/null
  wait_for "$API/readyz" coordinator 90
  say "[$which] up beside this machine's own Redis on 6379: $(containers --format '{{.Label "com.docker.compose.service"}}' | sort | uniq -c | tr -s ' \n' ' ')"
  [ "$(running_workers)" = 3 ] || fail "$(running_workers) workers run, not WORKERS=3"
  [ "$(compose exec -T coordinator id -u)" = 1000 ] || fail "the coordinator does not run as uid 1000"
  [ "$(answers "$API/healthz")" = 200 ] && [ "$(answers "http://127.0.0.1:$DASHBOARD_PORT/dashboard/healthz")" = 200 ] || fail "not reachable on loopback"
  for port in "$COORDINATOR_PORT" "$DASHBOARD_PORT"; do
    [ "$(answers "http://$OTHER_ADDRESS:$port/healthz")" = 000 ] || fail "the default deployment answers at $OTHER_ADDRESS:$port"
  done
  say "[$which] published on loopback only: $OTHER_ADDRESS:$COORDINATOR_PORT and :$DASHBOARD_PORT do not answer"
  local refused code
  refused=$(BIND_ADDRESS=0.0.0.0 API_TOKEN='' compose run --rm --no-deps -T coordinator 2>&1) && code=0 || code=$?
  [ "$code" = 2 ] || fail "the coordinator, open and without a token, exited $code: $refused"
  refused=$(grep -m1 'coordinator:' <<<"$refused")
  [[ "$refused" == "coordinator: refusing to start: reachable beyond this machine (PUBLISHED_ADDRESS=0.0.0.0"*"API_TOKEN is not set"* ]] || fail "the refusal does not say why: $refused"
  say "[$which] BIND_ADDRESS=0.0.0.0 without API_TOKEN: exit 2, '$(cut -c1-120 <<<"$refused")…'"

  # 5. A sweep through a killed worker and a killed coordinator.
  [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$API/api/sweeps" -H 'content-type: application/json' -d "$SPEC")" = 401 ] || fail "a POST without the token was not refused"
  id=$(curl -fsS -X POST "$API/api/sweeps" -H 'content-type: application/json' -H "authorization: Bearer $API_TOKEN" -d "$SPEC" | json .id)
  say "[$which] sweep $id submitted"
  wait_done 50
  local victim killed_at back_at silent_file
  victim=$(containers --filter 'label=com.docker.compose.service=worker' --format '{{.ID}}' | head -1)
  docker kill --signal KILL "$victim" >/dev/null
  # The moment the container died, by Docker's clock (the same as the logs'): not the command's.
  killed_at=$(node -e 'console.log(Date.parse(process.argv[1]))' "$(docker inspect --format '{{.State.FinishedAt}}' "$victim")")
  say "[$which] worker $victim SIGKILLed at $(done_now) of 150 games done"
  # When the dashboard's source first counts it lost, watched from now on (the coordinator's kill below included).
  silent_file=$(mktemp)
  (for _ in $(seq 200); do
    [ "$(curl -fsS -m 2 "$API/api/workers" 2>/dev/null | json .silent.length 2>/dev/null)" = 1 ] && { now_ms >"$silent_file"; exit 0; }
    sleep 0.5
  done) &
  back_at=""
  for _ in $(seq 300); do
    back_at=$(stalled_since "$killed_at")
    [ -z "$back_at" ] || break
    sleep 0.1
  done
  [ -n "$back_at" ] || fail "no worker logged the killed worker's job back in the queue within 30 s"
  local back_ms=$((back_at - killed_at))
  say "[$which] the killed worker's batch went back to the queue $back_ms ms after the kill"
  [ "$back_ms" -le 5000 ] || fail "the killed worker's batch took $back_ms ms to go back to the queue, over 5000"
  wait_done 75
  docker kill --signal KILL "$(containers --filter 'label=com.docker.compose.service=coordinator' --format '{{.ID}}')" >/dev/null
  say "[$which] coordinator SIGKILLed at $(redis_done) of 150 games done"
  # A container killed by hand stays down under `restart: unless-stopped` (docker-compose.yml): start it.
  sleep 3
  compose start coordinator >/dev/null
  wait_for "$API/readyz" coordinator 90
  say "[$which] coordinator back at $(redis_done) games done"
  for _ in $(seq 240); do [ "$(curl -fsS "$API/api/sweeps/$id" | json .status)" = done ] && break; sleep 1; done
  local detail total done_ failed
  detail=$(curl -fsS "$API/api/sweeps/$id")
  total=$(json .counts.total <<<"$detail")
  done_=$(json .counts.done <<<"$detail")
  failed=$(json .counts.failed <<<"$detail")
  say "[$which] sweep: $(json .status <<<"$detail"), $done_ of $total done, $failed failed"
  [ "$done_" = "$total" ] && [ "$failed" = 0 ] || fail "not every game was played once"
  local recorded workers_at
  recorded=$(json '.provenance.code.commit + " " + v.provenance.code.dirty' <<<"$detail")
  workers_at=$(json '.provenance.workers.map((w) => w.commit + " " + w.dirty).filter((x, i, all) => all.indexOf(x) === i).join(",")' <<<"$detail")
  say "[$which] provenance: coordinator at $recorded, workers at $workers_at"
  [ "$recorded" = "$COMMIT $DIRTY" ] || fail "the sweep records '$recorded', the images were built from $COMMIT (dirty: $DIRTY)"
  [ "$workers_at" = "$COMMIT $DIRTY" ] || fail "a worker recorded another code version: $workers_at"
  check_export "$id"
  # Lost capacity: the killed worker never said it stopped.
  wait
  [ -s "$silent_file" ] || fail "/api/workers never counted the killed worker as silent"
  local shown silent metrics
  shown=$(($(cat "$silent_file") - killed_at))
  rm -f "$silent_file"
  silent=$(curl -fsS "$API/api/workers" | json '.silent.length + " " + v.seen.length + " " + v.slots')
  [ "$silent" = "1 2 2" ] || fail "/api/workers says silent, seen, slots = $silent, not 1 2 2"
  metrics=$(curl -fsS "$API/metrics" | grep -E '^wonderlab_(workers_seen|worker_slots_seen|workers_silent) ' | tr '\n' ' ')
  [ "$metrics" = "wonderlab_workers_seen 2 wonderlab_worker_slots_seen 2 wonderlab_workers_silent 1 " ] || fail "/metrics: $metrics"
  say "[$which] lost capacity shown $((shown / 1000)) s after the kill (a minute's silence): /api/workers 1 silent, 2 seen, 2 slots; /metrics ${metrics% }"

  # 6. Down and up: the fleet's size and the results are kept; under another project name too.
  compose down >/dev/null
  compose up -d >/dev/null
  wait_for "$API/readyz" coordinator 90
  [ "$(running_workers)" = 3 ] || fail "after down/up $(running_workers) workers run, not WORKERS=3"
  [ "$(curl -fsS "$API/api/sweeps/$id" | json .counts.done)" = "$total" ] || fail "after down/up the sweep lost games"
  say "[$which] after down/up: 3 workers, $total of $total games kept"
  compose down >/dev/null
  # Images are named after the project (the volume is not): the renamed project gets the same ones.
  for image in "${images[@]}"; do docker tag "$image" "${image/#$project/$project-renamed}"; done
  COMPOSE_PROJECT_NAME=$project-renamed compose up -d >/dev/null
  wait_for "$API/readyz" coordinator 90
  [ "$(curl -fsS "$API/api/sweeps/$id" | json .counts.done)" = "$total" ] || fail "under another project name the results are gone"
  wait_for "http://127.0.0.1:$DASHBOARD_PORT/dashboard/healthz" dashboard 60
  local page through
  page=$(curl -fsS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$DASHBOARD_PORT/sweeps/$id")
  through=$(curl -fsS "http://localhost:$DASHBOARD_PORT/api/sweeps/$id" | json .counts.done)
  [ "$page" = 200 ] && [ "$through" = "$total" ] || fail "dashboard: page $page, /api through it: $through games"
  say "[$which] as project $project-renamed (no .env): volume $REDIS_VOLUME, $total games kept; dashboard page $page, /api through it $through games"
  COMPOSE_PROJECT_NAME=$project-renamed compose down >/dev/null
  for image in "${images[@]}"; do docker rmi "${image/#$project/$project-renamed}" >/dev/null; done

  # 7. Opened on purpose, with the token; Redis published for `npm start` by the override file.
  BIND_ADDRESS=0.0.0.0 compose up -d >/dev/null
  wait_for "http://$OTHER_ADDRESS:$COORDINATOR_PORT/readyz" "coordinator at $OTHER_ADDRESS" 90
  local open_code
  open_code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "http://$OTHER_ADDRESS:$COORDINATOR_PORT/api/sweeps/$id/cancel" -H 'content-type: application/json')
  [ "$open_code" = 401 ] || fail "opened with BIND_ADDRESS=0.0.0.0, a change without the token got $open_code"
  say "[$which] BIND_ADDRESS=0.0.0.0 with API_TOKEN: answers at $OTHER_ADDRESS:$COORDINATOR_PORT, a change without the token is a 401"
  local redis_port ping
  redis_port=$(free_port)
  REDIS_PORT=$redis_port compose -f docker-compose.yml -f docker-compose.host-redis.yml up -d redis >/dev/null
  ping=$(node -e 'const s=require("net").connect(+process.argv[1],"127.0.0.1",()=>s.write("PING\r\n"));s.on("data",d=>{console.log(String(d).trim());s.end()})' "$redis_port")
  [ "$ping" = +PONG ] || fail "docker-compose.host-redis.yml: Redis at 127.0.0.1:$redis_port answers '$ping'"
  say "[$which] with docker-compose.host-redis.yml, Redis answers at 127.0.0.1:$redis_port for npm start"

  # 8. Down with the volume.
  compose -f docker-compose.yml -f docker-compose.host-redis.yml down -v >/dev/null
  ! docker volume inspect "$REDIS_VOLUME" >/dev/null 2>&1 || fail "down -v left the volume $REDIS_VOLUME"
  [ -z "$(docker ps -aq --filter "label=com.docker.compose.project=$project")" ] || fail "down -v left containers"
  trap - EXIT
  if [ "${KEEP:-}" != 1 ]; then docker rmi "${images[@]}" >/dev/null; fi
  [ -z "$(comm -13 <(echo "$dangling_start") <(docker images -q --filter dangling=true | sort -u))" ] || fail "the run left dangling images: $(docker images --filter dangling=true)"
  say "[$which] passed in $(($(date +%s) - started)) s, leaving no container, volume or dangling image"
}

cleanup() {
  local status=$?
  if [ "${KEEP:-}" = 1 ]; then
    say "left running (KEEP=1): API $API, dashboard http://127.0.0.1:$DASHBOARD_PORT/"
  else
    for name in "$COMPOSE_PROJECT_NAME" "$COMPOSE_PROJECT_NAME-renamed"; do
      COMPOSE_PROJECT_NAME=$name compose -f docker-compose.yml -f docker-compose.host-redis.yml down -v --remove-orphans >/dev/null 2>&1 || true
    done
    docker volume rm "$REDIS_VOLUME" >/dev/null 2>&1 || true
    docker image ls --format '{{.Repository}}:{{.Tag}}' | grep -E "^${COMPOSE_PROJECT_NAME}(-renamed)?[-_](coordinator|worker|dashboard):" | xargs -r docker rmi >/dev/null 2>&1 || true
  fi
  exit $status
}

wait_for() { # url, what, seconds
  for _ in $(seq "$3"); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 1; done
  compose logs --tail 50 >&2
  fail "$2 did not answer at $1"
}
containers() { docker ps --filter "label=com.docker.compose.project=$COMPOSE_PROJECT_NAME" "$@"; }
running_workers() { containers --filter 'label=com.docker.compose.service=worker' -q | wc -l | tr -d ' '; }
done_now() { curl -fsS "$API/api/sweeps/$id" | json .counts.done; }
# Games done, read from Redis itself (while the coordinator is down).
redis_done() { compose exec -T redis redis-cli HGET "wl:sweep:$id" done | tr -d '\r'; }
wait_done() {
  for _ in $(seq 1200); do [ "$(done_now)" -ge "$1" ] && return 0; sleep 0.2; done
  fail "the sweep did not reach $1 games"
}
# When a worker (a live one: the stalled check runs on every worker) logged a stalled job after `since` (ms), or nothing.
stalled_since() {
  compose logs --no-color worker 2>/dev/null | sed -n 's/^[^|]*| //p' | node -e '
    const since = Number(process.argv[1]);
    let t = "";
    process.stdin.on("data", (d) => (t += d)).on("end", () => {
      const times = t.split("\n").flatMap((l) => { try { const j = JSON.parse(l); return j.msg === "job stalled; it goes back to the queue" && j.time >= since ? [j.time] : []; } catch { return []; } });
      if (times.length) console.log(Math.min(...times));
    });' "$1"
}
# Every game once, and each equal to the same game played here (timings aside).
check_export() {
  local file
  file=$(mktemp)
  curl -fsS "$API/api/sweeps/$1/export?format=jsonl" >"$file"
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
  ' "$file" "$SPEC"
  rm -f "$file"
}

say "code version $COMMIT (dirty: $DIRTY); base images $NODE_IMAGE and $REDIS_IMAGE; this machine's other address $OTHER_ADDRESS"
for which in "${composes[@]}"; do scenario "$which"; done
say "passed with Compose ${composes[*]}"
