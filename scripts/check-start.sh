#!/usr/bin/env bash
# The README's second command: `pnpm start` in an installed tree (default: this repository) must reach
# /health/ready on the embedded PostgreSQL; it is then stopped, with its PostgreSQL. Its data directory
# is a temporary one (AIDE_DATA_DIR), removed afterwards: a developer's own data is never touched.
# Usage: scripts/check-start.sh [tree]      (run by .ci/run and scripts/check-fresh-install.sh)
set -euo pipefail

tree=$(cd "${1:-$(dirname "${BASH_SOURCE[0]}")/..}" && pwd)
READY_WITHIN_S=${AIDE_FRESH_INSTALL_READY_WITHIN_S:-300}

started=$SECONDS
say() { printf '[start %ss] %s\n' "$((SECONDS - started))" "$*"; }

server_pid=
pg_data=
start_log=$(mktemp)
data_dir=$(mktemp -d "${TMPDIR:-/tmp}/aide-start-data.XXXXXX")
# Embedded PostgreSQL runs as an unprivileged user when started by root: its path must be enterable.
chmod 755 "$data_dir"
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
  # this tree's binaries, and remove its data directory (when root cannot hand AIDE_DATA_DIR to that
  # user, the backend relocates it under /var/lib/aide-metastore/clusters).
  local pid
  for pid in $(pgrep -f -- "$tree/node_modules/" || true); do
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
  done
  case "$pg_data" in "$data_dir"/* | /var/lib/aide-metastore/clusters/?*) rm -rf "$pg_data" ;; esac
}
# The embedded PostgreSQL's data directory: the -D of the postgres running from this tree's binaries.
find_pg_data() {
  local pid
  for pid in $(pgrep -f -- "$tree/node_modules/" || true); do
    tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | sed -n '/^-D$/{n;p;q}' || true
  done | head -n 1
}
cleanup() {
  stop_server
  rm -rf "$start_log" "$data_dir"
}
trap cleanup EXIT

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
cd "$tree"
say "pnpm start in $tree (PORT=$port, embedded PostgreSQL on $pg_port)"
# Its own process group, so that stopping it stops pnpm, node and the embedded PostgreSQL together.
(PORT=$port AIDE_EMBEDDED_PG_PORT=$pg_port AIDE_DATA_DIR=$data_dir exec setsid pnpm start) >"$start_log" 2>&1 &
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
