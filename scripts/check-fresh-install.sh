#!/usr/bin/env bash
# The README's quick start on a machine that reaches the npm registry but neither GitHub nor nodejs.org
# (issue 23 §5, ADR 0038), in a clean clone of a commit (default HEAD):
#   1. `pnpm install --frozen-lockfile` with no npm_config_nodedir must exit 0 — better-sqlite3's
#      install script cannot download a prebuilt binary nor Node's headers there, and the crawler
#      depends on it optionally, so pnpm warns and goes on;
#   2. `pnpm start` must reach /health/ready on the embedded PostgreSQL; it is then stopped.
# The pnpm store of this machine is reused (fast, offline), but not its cache of packages built
# earlier (a fresh machine has none), so better-sqlite3's install script really runs.
# Usage: scripts/check-fresh-install.sh [commit]      (run by .ci/run; standalone too)
set -euo pipefail

repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse --verify "${1:-HEAD}^{commit}")
READY_WITHIN_S=${AIDE_FRESH_INSTALL_READY_WITHIN_S:-300}

started=$SECONDS
say() { printf '[fresh-install %ss] %s\n' "$((SECONDS - started))" "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/aide-fresh-install.XXXXXX")
# Embedded PostgreSQL runs as an unprivileged user when started by root: its path must be enterable.
chmod 755 "$work"
clone="$work/aide-metastore"
server_pid=
pg_data=
stop_server() {
  [ -n "$server_pid" ] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  wait "$server_pid" 2>/dev/null || true
  server_pid=
  # The embedded PostgreSQL runs as its own user, outside the process group: stop what still runs from
  # this clone's binaries, and remove its data directory (root's is under /var/lib/aide-metastore).
  local pid
  for pid in $(pgrep -f -- "$clone/node_modules/" || true); do
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
  done
  case "$pg_data" in "$clone"/* | /var/lib/aide-metastore/clusters/?*) rm -rf "$pg_data" ;; esac
}
# The embedded PostgreSQL's data directory: the -D of the postgres running from this clone's binaries.
find_pg_data() {
  local pid
  for pid in $(pgrep -f -- "$clone/node_modules/" || true); do
    tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | sed -n '/^-D$/{n;p;q}' || true
  done | head -n 1
}

cleanup() {
  stop_server
  rm -rf "$work"
}
trap cleanup EXIT

say "clean clone of ${commit:0:12}"
git clone --quiet --no-checkout "$repo" "$clone"
git -C "$clone" checkout --quiet --detach "$commit"
cd "$clone"

say "pnpm install --frozen-lockfile (no npm_config_nodedir, no cache of built packages)"
install_log="$work/install.log"
install_status=0
env -u npm_config_nodedir -u NPM_CONFIG_NODEDIR pnpm_config_side_effects_cache=false \
  pnpm install --frozen-lockfile >"$install_log" 2>&1 || install_status=$?
if [ "$install_status" -ne 0 ]; then
  tail -n 40 "$install_log" >&2
  say "FAILED: pnpm install exited with $install_status"
  exit 1
fi
if (cd packages/crawler && node -e "new (require('better-sqlite3'))(':memory:').close()") 2>/dev/null; then
  say "pnpm install exited 0; better-sqlite3 was built (the crawler reads SQLite through it)"
else
  say "pnpm install exited 0; better-sqlite3 was not built (the crawler reads SQLite through node:sqlite on Node >= 22.13, else says what to install)"
fi

# A free port below the ephemeral range (32768+), so that no client socket opened meanwhile takes it
# during the build that precedes the listen.
free_port() {
  node -e "
    const net = require('node:net');
    const tryPort = () => {
      const port = 20000 + Math.floor(Math.random() * 12000);
      const s = net.createServer().once('error', tryPort);
      s.listen(port, '0.0.0.0', () => s.close(() => console.log(port)));
    };
    tryPort();"
}
port=$(free_port)
pg_port=$(free_port)
say "pnpm start (PORT=$port, embedded PostgreSQL on $pg_port)"
start_log="$work/start.log"
# Its own process group, so that stopping it stops pnpm, node and the embedded PostgreSQL together.
(PORT=$port AIDE_EMBEDDED_PG_PORT=$pg_port exec setsid pnpm start) >"$start_log" 2>&1 &
server_pid=$!
ready=false
for _ in $(seq 1 "$READY_WITHIN_S"); do
  if node -e "fetch('http://127.0.0.1:$port/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    ready=true
    break
  fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 1
done
if [ "$ready" != true ]; then
  tail -n 40 "$start_log" >&2
  say "FAILED: pnpm start did not reach /health/ready within ${READY_WITHIN_S} s"
  exit 1
fi
pg_data=$(find_pg_data)
say "/health/ready answered 200; stopping the server"
stop_server
say "passed"
