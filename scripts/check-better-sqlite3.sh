#!/usr/bin/env bash
# The crawler's better-sqlite3 engine (ADR 0040). .ci/run installs as a user does, without
# npm_config_nodedir, so better-sqlite3 is not built there and its tests run on node-sqlite3-wasm;
# this covers the other path, in a clean clone of a commit (default HEAD): install with Node's own
# headers (npm_config_nodedir, so that node-gyp builds better-sqlite3 without a download), check that
# it loads, and run the crawler's SQLite engine and inspection tests with that engine forced
# (AIDE_CRAWLER_SQLITE_ENGINE=better-sqlite3: they fail if it does not load).
# Usage: scripts/check-better-sqlite3.sh [commit]      (run by .ci/run; standalone too)
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/clean-clone.sh" better-sqlite3 "${1:-HEAD}"
node_prefix=$(dirname "$(dirname "$(command -v node)")")
nodedir=${npm_config_nodedir:-$node_prefix}

if [ ! -f "$nodedir/include/node/node.h" ]; then
  say "FAILED: no Node.js headers at $nodedir/include/node (set npm_config_nodedir to a Node.js install)"
  exit 1
fi

clean_clone
say "pnpm install --frozen-lockfile (npm_config_nodedir=$nodedir)"
install_or_fail env npm_config_nodedir="$nodedir" pnpm install --frozen-lockfile
if ! better_sqlite3_loads; then
  grep -i 'better-sqlite3' "$install_log" | tail -n 20 >&2
  say "FAILED: better-sqlite3 was not built"
  exit 1
fi

# The backend too: the crawler's Jest global setup prepares a migrated template database with it.
say "building @aide/schemas, @aide/sdk and @aide/backend"
pnpm --filter @aide/schemas --filter @aide/sdk --filter @aide/backend build >/dev/null
say "the crawler's SQLite engine and inspection tests on better-sqlite3"
cd packages/crawler
AIDE_CRAWLER_SQLITE_ENGINE=better-sqlite3 node --experimental-vm-modules node_modules/jest/bin/jest.js \
  test/sqlite-engine.test.ts test/sqlite.test.ts
say "passed"
