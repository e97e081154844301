#!/usr/bin/env bash
# make test-compose: the Docker-only path, run for real where a Docker
# engine can start. It builds the step server from compose/Dockerfile,
# starts PostgreSQL and Redis, seeds, runs the worker, the bench container
# (`workshop bench` against the app container, QUICK) and the step's k6
# script with the bench profile, and checks both in results/: the
# workshop's results JSON (rows without errors, every claim judged) and
# k6's summary (no failed request or check).
#
# No registry may be reachable (CI here reaches only package registries),
# so the pinned third-party images are replaced by LOCAL STAND-INS built
# from Debian packages and tagged like them:
#   debian:bookworm-…-slim  debootstrap --variant=minbase bookworm (the real base, unpinned date)
#   golang:1.25.4-bookworm  that + this machine's Go toolchain (its version, not 1.25.4)
#   postgres:15.10-alpine   that + Debian's PostgreSQL 15, with the official entrypoint's
#                           POSTGRES_HOST_AUTH_METHOD / POSTGRES_DB behaviour and pg_isready
#   redis:7.2.7-alpine      that + Debian's redis-server / redis-cli (7.0, not 7.2), with
#                           the official entrypoint's --protected-mode no
#   grafana/k6 (the tag compose.yaml pins)
#                           that + Debian's nodejs + the repository's Node shim of the
#                           k6 API the scripts use (k6/testdata/shim): NOT k6. k6 itself
#                           is never built here: its Go module is AGPL,
#                           which this workplace's registry marks not-to-use.
# What a stand-in cannot prove: that the real images' entrypoints, users and
# versions behave the same (alpine's musl, postgres' docker-entrypoint.sh
# init scripts), mongo:7.0.16 (not started: steps 1–5 do not need it), and
# the pull of any image. The k6 stand-in proves the compose wiring, the
# scripts' scenarios against the app container, the summary landing in
# results/ and the thresholds as the shim evaluates them; it cannot prove
# what only real k6 does: its JavaScript engine (Sobek, not V8) running the
# scripts and accepting their options and this command line, its metrics
# and threshold evaluation (percentiles, submetrics) and the summary it
# writes (--summary-export's file, handleSummary's data), its HTTP client's
# connection behaviour (Go's transport: keep-alive, dialling, timeouts) and
# its speed, and the real image's entrypoint, user and working directory
# (the stand-in copies them: k6 on PATH, uid 12345, /home/k6). Only a run
# of real k6 proves those: `make step-N bench TOOL=k6` with k6 installed,
# or this test on an engine that has the real image.
# Where an engine already runs with the real images, nothing is replaced:
# existing images are used as they are (a real grafana/k6 too; only a
# stand-in this script built, labelled peakload.standin=k6-shim, is rebuilt
# from the current shim, a cached layer when it is unchanged).
#
# Engine: an answering engine is used; else, as root with dockerd
# installed, one is started (vfs storage, no iptables) on the machine's
# data root, /var/lib/docker (PEAKLOAD_DOCKER_ROOT to change), so the
# images and the build cache stay for the next run — the warm path — and
# it is stopped at the end. Without either, the test says so and passes as
# skipped; with PEAKLOAD_CI_COMPOSE=1 (.ci/run: "required") a skip fails.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/.workshop/docker
mkdir -p "$WORK" results
T0=$(date +%s)
say() { echo "test-compose: [$(($(date +%s) - T0)) s] $*" >&2; }
skip() {
  say "skipped: $*"
  if [ "${PEAKLOAD_CI_COMPOSE:-}" = 1 ]; then
    say "PEAKLOAD_CI_COMPOSE=1 requires this test: failing"
    echo "0 passed, 1 failed"
    exit 1
  fi
  say "(PEAKLOAD_CI_COMPOSE=0 leaves this test out of .ci/run; =1 makes a skip fail)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
}
STARTED_DOCKERD=
cleanup() {
  # Not -v: the seeded catalogue's volume stays for the next run (warm).
  docker compose -f compose/compose.yaml -f "$WORK/override.yaml" --profile bench down >/dev/null 2>&1 || true
  # The vfs storage driver (the one that runs here) keeps every layer as a
  # full copy: drop the images this run replaced, or each run leaves ~0.5 GB.
  docker image prune -f >/dev/null 2>&1 || true
  # BuildKit's cache lives in the same vfs store, each entry a full copy of
  # its root file system: `docker system df` said 6.1 GB of build cache
  # where the disk held 52 GB, growing ~3.4 GB a run. Keep what this run
  # (and any other in the last hour) used, so the next run stays warm.
  docker builder prune -f --filter until=1h >/dev/null 2>&1 || true
  if [ -n "$STARTED_DOCKERD" ]; then
    say "stopping the dockerd this test started (pid $STARTED_DOCKERD)"
    kill "$STARTED_DOCKERD" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$STARTED_DOCKERD" 2>/dev/null || break; sleep 0.2; done
  fi
}
trap cleanup EXIT

# --- the engine ----------------------------------------------------------
if ! command -v docker >/dev/null 2>&1; then
  skip "no docker CLI here (apt-get install docker.io gives the CLI and dockerd)"
fi
if ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v dockerd >/dev/null 2>&1; then
    skip "no Docker engine answers and none can be started here (root + dockerd needed)"
  fi
  root=${PEAKLOAD_DOCKER_ROOT:-/var/lib/docker}
  # Its sockets under a short path: a Unix socket's path has ~100 bytes.
  run=$(mktemp -d /tmp/peakload-docker.XXXXXX)
  say "starting dockerd (vfs, no iptables; images in $root, kept for the next run)"
  dockerd --storage-driver=vfs --iptables=false --data-root "$root" --exec-root "$run/exec" \
    --pidfile "$run/dockerd.pid" --host "unix://$run/docker.sock" >"$WORK/dockerd.log" 2>&1 &
  STARTED_DOCKERD=$!
  export DOCKER_HOST=unix://$run/docker.sock
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  if ! docker info >/dev/null 2>&1; then
    skip "dockerd did not start ($(tail -1 "$WORK/dockerd.log"))"
  fi
fi
# vfs copies every layer whole: the images of two steps need a few GB, and a
# full disk shows up only as BuildKit's "no space left on device".
droot=$(docker info --format '{{.DockerRootDir}}' 2>/dev/null || echo /var/lib/docker)
free_mb=$(df -Pm "$droot" 2>/dev/null | awk 'NR == 2 {print $4}')
if [ -n "$free_mb" ] && [ "$free_mb" -lt 6000 ]; then
  say "warning: only $free_mb MB free under $droot; the vfs storage driver needs ~6 GB here (docker image prune / docker builder prune free some)"
fi

# --- Compose v2, as a CLI plugin, from the Go module proxy ---------------
if ! docker compose version >/dev/null 2>&1; then
  v=v2.40.3
  say "building docker compose $v from its Go module (cold: 10–30 min on two busy CPUs; once per machine)"
  src=$(GOFLAGS=-mod=mod go mod download -json "github.com/docker/compose/v2@$v" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
  rm -rf "$WORK/compose-src" && cp -r "$src" "$WORK/compose-src" && chmod -R u+w "$WORK/compose-src"
  # Built as its own main module: its go.mod's exclude lines then apply.
  (cd "$WORK/compose-src" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -o "$WORK/docker-compose" ./cmd)
  mkdir -p "$HOME/.docker/cli-plugins"
  install -m 0755 "$WORK/docker-compose" "$HOME/.docker/cli-plugins/docker-compose"
  say "docker compose $v installed in $HOME/.docker/cli-plugins"
fi
docker compose version >&2

# --- stand-ins for the pinned images that cannot be pulled ---------------
image_of() { sed -n "s/^ARG $1=//p" compose/Dockerfile; }
have() { docker image inspect "$1" >/dev/null 2>&1; }
RUNTIME=$(image_of RUNTIME_IMAGE) GOLANG=$(image_of GO_IMAGE)
PG=$(sed -n 's/^ *image: \(postgres:.*\)/\1/p' compose/compose.yaml)
REDIS=$(sed -n 's/^ *image: \(redis:.*\)/\1/p' compose/compose.yaml)
K6=$(sed -n 's/^ *image: \(grafana\/k6:.*\)/\1/p' compose/compose.yaml)
# k6: a stand-in is needed when the pinned tag is absent, and rebuilt when
# the tag is one this script built (its label), so it runs the current shim.
K6_STANDIN=
if ! have "$K6" || [ "$(docker image inspect -f '{{index .Config.Labels "peakload.standin"}}' "$K6")" = k6-shim ]; then
  K6_STANDIN=1
fi
rootfs=$WORK/rootfs
if ! have "$RUNTIME" || ! have "$PG" || ! have "$REDIS" || ! have "$GOLANG" || { [ -n "$K6_STANDIN" ] && ! have peakload-standin-node; }; then
  if [ ! -f "$rootfs/.done" ]; then
    command -v debootstrap >/dev/null || apt-get install -y -qq --no-install-recommends debootstrap >&2
    say "debootstrap bookworm (minbase) for the stand-in images (~2–4 min, once per machine)"
    rm -rf "$rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1
    touch "$rootfs/.done"
  fi
  tarof() { tar -C "$1" -c --exclude="./proc/*" --exclude="./sys/*" --exclude="./dev/*" --exclude=./.done --exclude=./.apt .; }
  # with_packages DIR WHAT PACKAGE...: DIR, a copy of the base with Debian's
  # packages installed, once (DIR/.apt marks it done).
  with_packages() {
    local dir=$1 what=$2
    shift 2
    [ -f "$dir/.apt" ] && return
    rm -rf "$dir" && cp -a "$rootfs" "$dir" && rm -f "$dir/.done"
    say "installing Debian's $what"
    chroot "$dir" /bin/sh -c "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $* && apt-get clean" >"$dir.apt.log" 2>&1
    touch "$dir/.apt"
  }
  have "$RUNTIME" || { tarof "$rootfs" | docker import - "$RUNTIME" >/dev/null; say "stand-in $RUNTIME"; }
  if ! have "$PG" || ! have "$REDIS"; then
    db=$WORK/rootfs-db
    with_packages "$db" "PostgreSQL 15 and Redis into the database stand-in" postgresql-15 redis-server
    cat >"$db/usr/local/bin/docker-entrypoint.sh" <<'EOF'
#!/bin/sh
# Stand-in for the official postgres entrypoint: what compose.yaml relies
# on (POSTGRES_HOST_AUTH_METHOD, POSTGRES_DB, a `postgres -c …` command run
# as the postgres user); redis-server gets --protected-mode no, as there.
set -e
if [ "$1" = postgres ]; then
  export PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
  mkdir -p "$PGDATA" /var/run/postgresql && chown -R postgres "$PGDATA" /var/run/postgresql
  if [ ! -s "$PGDATA/PG_VERSION" ]; then
    su postgres -c "initdb -D $PGDATA --auth=${POSTGRES_HOST_AUTH_METHOD:-trust} -U postgres" >/dev/null
    echo "host all all all ${POSTGRES_HOST_AUTH_METHOD:-trust}" >>"$PGDATA/pg_hba.conf"
    su postgres -c "pg_ctl -D $PGDATA -o '-c listen_addresses=' -w start" >/dev/null
    [ -n "$POSTGRES_DB" ] && su postgres -c "createdb $POSTGRES_DB"
    su postgres -c "pg_ctl -D $PGDATA -m fast -w stop" >/dev/null
  fi
  shift
  exec su postgres -c "exec postgres -D $PGDATA -c listen_addresses=* $*"
fi
if [ "$1" = redis-server ]; then
  exec "$@" --protected-mode no
fi
exec "$@"
EOF
    chmod +x "$db/usr/local/bin/docker-entrypoint.sh"
    ln -sf /usr/lib/postgresql/15/bin/pg_isready "$db/usr/local/bin/pg_isready"
    tarof "$db" | docker import -c 'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]' - peakload-standin-db >/dev/null
    have "$PG" || { docker tag peakload-standin-db "$PG"; say "stand-in $PG"; }
    have "$REDIS" || { docker tag peakload-standin-db "$REDIS"; say "stand-in $REDIS"; }
  fi
  if ! have "$GOLANG"; then
    goroot=$(go env GOROOT)
    # The real image has CA certificates (go mod download fetches over TLS): this machine's.
    printf 'FROM %s\nCOPY go /usr/local/go\nCOPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt\nENV PATH=/usr/local/go/bin:/root/go/bin:$PATH GOPATH=/root/go\n' "$RUNTIME" >"$WORK/Dockerfile.golang"
    rm -rf "$WORK/golang-ctx" && mkdir -p "$WORK/golang-ctx" && cp -a "$goroot" "$WORK/golang-ctx/go"
    cp /etc/ssl/certs/ca-certificates.crt "$WORK/golang-ctx/"
    say "stand-in $GOLANG: this machine's Go toolchain on the Debian base"
    docker build -q -t "$GOLANG" -f "$WORK/Dockerfile.golang" "$WORK/golang-ctx" >/dev/null 2>&1
    rm -rf "$WORK/golang-ctx" # a copy of GOROOT: gofmt -l . would read it
    say "stand-in $GOLANG (Go $(go env GOVERSION) from this machine)"
  fi
  if [ -n "$K6_STANDIN" ] && ! have peakload-standin-node; then
    node=$WORK/rootfs-node
    with_packages "$node" "nodejs into the k6 stand-in's base (the shim runs on it)" nodejs
    # The user the real image runs as (k6, uid 12345), for a run without `user:`.
    chroot "$node" id k6 >/dev/null 2>&1 || chroot "$node" useradd -m -u 12345 k6
    tarof "$node" | docker import -c "LABEL peakload.node=$(chroot "$node" node --version)" - peakload-standin-node >/dev/null
  fi
fi
if [ -n "$K6_STANDIN" ]; then
  # The shim as the image's k6, entrypoint, user and directory as the real
  # image has them; rebuilt every run from k6/testdata/shim (cached when
  # unchanged). It is Node, not k6: see this file's header.
  rm -rf "$WORK/k6-ctx" && mkdir -p "$WORK/k6-ctx" && cp -r k6/testdata/shim "$WORK/k6-ctx/shim"
  printf '%s\n' 'FROM peakload-standin-node' 'LABEL peakload.standin=k6-shim' 'COPY shim /usr/lib/k6-shim' \
    'ENV PATH=/usr/lib/k6-shim:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    'USER 12345' 'WORKDIR /home/k6' 'ENTRYPOINT ["k6"]' >"$WORK/k6-ctx/Dockerfile"
  docker build -q -t "$K6" "$WORK/k6-ctx" >/dev/null 2>&1
  say "stand-in $K6: the Node k6 shim (k6/testdata/shim) on Debian's nodejs $(docker image inspect -f '{{index .Config.Labels "peakload.node"}}' peakload-standin-node) — NOT k6"
fi

# The image build downloads modules from the Go module proxy; an engine
# without outbound NAT (--iptables=false) builds on the host's network.
cat >"$WORK/override.yaml" <<'EOF'
services:
  seed: {build: {network: host}}
  worker: {build: {network: host}}
  app: {build: {network: host}}
EOF

# --- the path itself -----------------------------------------------------
# Free loopback ports for the published ones: a native stack or another
# learner's server may hold the defaults (15432, 16379, 17017, 8080).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export PEAKLOAD_PG_PORT=$(free_port) PEAKLOAD_REDIS_PORT=$(free_port) PEAKLOAD_MONGO_PORT=$(free_port) PEAKLOAD_APP_PORT=$(free_port)
export PEAKLOAD_USER="$(id -u):$(id -g)" # the results files belong to the caller
compose() { docker compose -f compose/compose.yaml -f "$WORK/override.yaml" --profile bench "$@"; }
passed=0 failed=0
# k6's users: a smoke test (the bench container measures). 10, not 50: the
# shim starts a Node worker per user of every scenario at once (a warm-up,
# a window and a meter per variant), and at 50 step 1's 202 workers took it
# past the k6 service's 1 GiB (killed by the kernel, measured here).
K6_VUS=10
k6_exited() {
  case $1 in
  99) echo "the k6 container exited 99: a threshold failed (the thresholds are above)" ;;
  137) echo "the k6 container exited 137: killed, e.g. past its memory limit" ;;
  *) echo "the k6 container exited $1" ;;
  esac
}
for step in ${TEST_COMPOSE_STEPS:-01-direct-db 02-cache-aside}; do
  n=$((10#${step%%-*}))
  rm -f "results/k6-$step.json" "results/step-$n/latest.json"
  say "STEP=$step SOLUTION=1: build, seed, worker, server; the bench container (QUICK); k6"
  t0=$(date +%s)
  log=$WORK/run-$step.log
  if STEP=$step SOLUTION=1 QUICK=1 compose run --rm --build bench >"$log" 2>&1 &&
     python3 - "results/step-$n/latest.json" <<'EOF2' &&
import json, sys
r = json.load(open(sys.argv[1]))
assert r["machine"]["stack"] == "compose-bench", f"stack {r['machine']['stack']!r}, want compose-bench"
assert r["params"].get("solution") is True, "the results file does not say SOLUTION=1"
runs = r["runs"]
assert runs, "no row"
for x in runs:
    assert x["requests"] > 0, f"{x['variant']}: no request"
    assert x["errors"] == 0, f"{x['variant']}: {x['errors']} errors ({x.get('first_error', '')})"
claims = r["claims"]
assert claims and all(c["reproduced"] is not None for c in claims), "a claim was not judged"
verdicts = ", ".join(f"{c['id']} {'REPRODUCED' if c['reproduced'] else 'NOT reproduced'}" for c in claims)
print(f"    bench: {len(runs)} rows, {sum(x['requests'] for x in runs)} requests, 0 errors; {verdicts} (QUICK: a smoke test)")
EOF2
     { STEP=$step SOLUTION=1 VUS=$K6_VUS DURATION=3s compose run --rm k6 >>"$log" 2>&1 ||
       { k6_exited $? >>"$log"; false; }; } &&
     K6_STANDIN=$K6_STANDIN python3 - "results/k6-$step.json" <<'EOF2'
import json, os, sys
s = json.load(open(sys.argv[1]))
m = s["metrics"]
reqs, failed = m["http_reqs"]["count"], m["http_req_failed"]["value"]
checks = m["checks"]
assert reqs > 0, "no request"
assert failed == 0, f"{failed:.1%} of requests failed"
assert checks["fails"] == 0, f"{checks['fails']} checks failed"
by = " (the Node shim standing in for k6: not k6's engine, metrics, summary or HTTP client)" if os.environ.get("K6_STANDIN") else ""
print(f"    k6: {reqs} requests, 0 failed, {checks['passes']} checks passed{by}")
EOF2
  then
    passed=$((passed + 1)); say "ok   $step ($(($(date +%s) - t0)) s)"
  else
    failed=$((failed + 1)); say "FAIL $step: last lines of $log:"; tail -20 "$log" >&2
  fi
  STEP=$step SOLUTION=1 compose down >/dev/null 2>&1 || true
done
if [ -n "$K6_STANDIN" ]; then
  say "k6 here was $K6's stand-in, the Node shim: it proves the k6 service's wiring, the scripts'"
  say "  scenarios and thresholds as the shim evaluates them and the summary in results/, not real k6's"
  say "  JavaScript engine, metrics and threshold evaluation, summary format, HTTP client's connections,"
  say "  nor the image's entrypoint and user (this file's header says more)"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
