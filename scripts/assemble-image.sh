#!/usr/bin/env bash
# The images' filesystems, assembled by the commands the Dockerfile runs: the Dockerfile's build stages
# call this script, and scripts/check-image.mjs calls it outside Docker, so the two cannot drift (ADR 0055).
#
#   scripts/assemble-image.sh <backend|crawler> <outdir>
#       Outside Docker: copies this checkout's files (tracked and untracked, not ignored) to a scratch
#       folder and runs the two steps below there; the checkout's own node_modules are not touched.
#   scripts/assemble-image.sh install <backend|crawler>          (Dockerfile, manifests only)
#   scripts/assemble-image.sh build <backend|crawler> <outdir>   (Dockerfile, sources copied)
#       Run from the root of a workspace: step 1 installs what building the target needs, step 2 builds
#       it and writes the image's /app to <outdir> (which must not exist).
#
# backend: <outdir>/backend (package.json, dist/, seeds/ and node_modules/ with production dependencies
#          only: no embedded PostgreSQL, no pino-pretty) and <outdir>/web/dist (the UI, precompressed),
#          where the backend's default AIDE_WEB_DIR finds it (dist/web-ui.js → ../../web/dist).
# crawler: <outdir>/crawler (package.json, dist/, node_modules/ with production dependencies, no
#          optional ones: SQLite is read through node-sqlite3-wasm, nothing is compiled).
set -euo pipefail

export CI=true

usage() {
  sed -n '4,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The workspace packages each target builds (their workspace dependencies follow from `...`).
filters() {
  case $1 in
    backend) echo "--filter @aide/backend... --filter @aide/web..." ;;
    crawler) echo "--filter @aide/crawler..." ;;
    *) usage ;;
  esac
}

step_install() {
  # shellcheck disable=SC2046 # the filters are words
  pnpm install --frozen-lockfile $(filters "$1")
}

# What a production node_modules holds that Node never loads: type declarations, source maps, the
# TypeScript sources some packages ship, and their READMEs and changelogs (licences stay). They were
# about half of the backend's node_modules on disk (the size budget: docs/operations.md, "Image").
prune_node_modules() {
  find "$1" -type f \( -name '*.map' -o -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
    -o -iname 'readme*' -o -iname 'changelog*' -o -iname 'history.md' \) -delete
  # typeorm's build for browsers (its package.json `browser` field), never loaded by Node.
  rm -rf "$1"/.pnpm/typeorm@*/node_modules/typeorm/browser
}

# `pnpm deploy --prod`: the package with its production dependencies, workspace ones included, into a
# staging folder; only what runs is kept.
deploy_package() { # deploy_package <package> <outdir> <kept paths...>
  local package=$1 out=$2
  shift 2
  local staging
  staging=$(mktemp -d "${TMPDIR:-/tmp}/aide-deploy.XXXXXX")
  rmdir "$staging"
  pnpm --filter "$package" deploy --prod "${DEPLOY_FLAGS[@]}" "$staging"
  mkdir -p "$out"
  for path in package.json node_modules "$@"; do mv "$staging/$path" "$out/"; done
  rm -rf "$staging"
  prune_node_modules "$out/node_modules"
}

step_build() {
  local target=$1 out=$2
  [ ! -e "$out" ] || {
    echo "assemble-image: $out exists" >&2
    exit 1
  }
  # shellcheck disable=SC2046
  pnpm $(filters "$target") build
  case $target in
    backend)
      DEPLOY_FLAGS=()
      deploy_package @aide/backend "$out/backend" dist seeds
      mkdir -p "$out/web"
      cp -R packages/web/dist "$out/web/dist"
      ;;
    crawler)
      # better-sqlite3 is the crawler's one optional dependency, and a native build (ADR 0040).
      DEPLOY_FLAGS=(--no-optional)
      deploy_package @aide/crawler "$out/crawler" dist
      ;;
  esac
  # Read-only to the unprivileged user the image runs as.
  chmod -R a+rX,go-w "$out"
}

# Outside Docker: the same two steps in a scratch copy of the checkout.
assemble_here() {
  local target=$1 out
  filters "$target" >/dev/null
  out=$(realpath -m "$2")
  local repo
  repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --show-toplevel)
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/aide-assemble.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    xargs -0 cp --parents -t "$scratch")
  cd "$scratch"
  step_install "$target"
  step_build "$target" "$out"
}

case ${1:-} in
  install) [ $# -eq 2 ] || usage; step_install "$2" ;;
  build) [ $# -eq 3 ] || usage; step_build "$2" "$3" ;;
  backend | crawler) [ $# -eq 2 ] || usage; assemble_here "$1" "$2" ;;
  *) usage ;;
esac
