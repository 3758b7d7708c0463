#!/usr/bin/env bash
# The README's quick start on a machine that reaches the npm registry but neither GitHub nor nodejs.org
# (issue 23 §5, ADR 0038, ADR 0040), in a clean clone of a commit (default HEAD):
#   1. `pnpm install --frozen-lockfile` with no npm_config_nodedir must exit 0 — better-sqlite3's
#      install script cannot download a prebuilt binary nor Node's headers there, and the crawler
#      depends on it optionally, so pnpm warns and goes on (the crawler reads SQLite through
#      node:sqlite or node-sqlite3-wasm then);
#   2. `pnpm start` must reach /health/ready on the embedded PostgreSQL (scripts/check-start.sh).
# The pnpm store of this machine is reused (fast, offline), but not its cache of packages built
# earlier (a fresh machine has none), so better-sqlite3's install script really runs.
# .ci/run does the same in its own clean clone (its main install, then scripts/check-start.sh).
# Usage: scripts/check-fresh-install.sh [commit]
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/clean-clone.sh" fresh-install "${1:-HEAD}"
clean_clone

say "pnpm install --frozen-lockfile (no npm_config_nodedir, no cache of built packages)"
install_or_fail env -u npm_config_nodedir -u NPM_CONFIG_NODEDIR pnpm_config_side_effects_cache=false \
  pnpm install --frozen-lockfile
if better_sqlite3_loads 2>/dev/null; then
  say "pnpm install exited 0; better-sqlite3 was built (the crawler reads SQLite through it)"
else
  say "pnpm install exited 0; better-sqlite3 was not built (the crawler reads SQLite through node:sqlite or node-sqlite3-wasm)"
fi

bash scripts/check-start.sh "$clone"
say "passed"
