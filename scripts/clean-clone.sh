# Sourced by scripts/check-better-sqlite3.sh and scripts/check-fresh-install.sh: progress lines, a clean
# clone of a commit of this repository (in a temporary directory deleted on exit), its install, and
# whether better-sqlite3 loads there.
# Usage: source "$(dirname "${BASH_SOURCE[0]}")/clean-clone.sh" <label> [commit]
# Sets repo, commit (default HEAD) and started; clean_clone sets work and clone and enters the clone.

repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse --verify "${2:-HEAD}^{commit}")
check_label=$1
started=$SECONDS

say() { printf '[%s %ss] %s\n' "$check_label" "$((SECONDS - started))" "$*"; }

clean_clone() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/aide-$check_label.XXXXXX")
  # Embedded PostgreSQL runs as an unprivileged user when started by root: its path must be enterable.
  chmod 755 "$work"
  clone="$work/aide-metastore"
  trap 'rm -rf "$work"' EXIT
  say "clean clone of ${commit:0:12}"
  git clone --quiet --no-checkout "$repo" "$clone"
  git -C "$clone" checkout --quiet --detach "$commit"
  cd "$clone"
}

# Runs the install command given as arguments; on failure shows the end of its log and exits 1.
install_or_fail() {
  install_log="$work/install.log"
  local status=0
  "$@" >"$install_log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 40 "$install_log" >&2
    say "FAILED: pnpm install exited with $status"
    exit 1
  fi
}

better_sqlite3_loads() {
  (cd packages/crawler && node -e "new (require('better-sqlite3'))(':memory:').close()")
}
