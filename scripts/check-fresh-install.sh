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

repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse --verify "${1:-HEAD}^{commit}")

started=$SECONDS
say() { printf '[fresh-install %ss] %s\n' "$((SECONDS - started))" "$*"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/aide-fresh-install.XXXXXX")
# Embedded PostgreSQL runs as an unprivileged user when started by root: its path must be enterable.
chmod 755 "$work"
clone="$work/aide-metastore"
trap 'rm -rf "$work"' EXIT

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
  say "pnpm install exited 0; better-sqlite3 was not built (the crawler reads SQLite through node:sqlite or node-sqlite3-wasm)"
fi

bash scripts/check-start.sh "$clone"
say "passed"
