// pnpm's install hook (https://pnpm.io/pnpmfile). typeorm declares every database driver it supports
// as an optional peer dependency, and pnpm links each one that a workspace package installs: the
// crawler's better-sqlite3 and mysql2 (with @types/node) went into the backend's production install
// (its image), which only speaks PostgreSQL. typeorm's optional peers are cut to `pg` here. (An
// `overrides` entry with "-" removes dependencies, not peers.)
const TYPEORM_PEERS_USED = new Set(['pg']);

function readPackage(manifest) {
  if (manifest.name !== 'typeorm') return manifest;
  const meta = manifest.peerDependenciesMeta ?? {};
  for (const name of Object.keys(manifest.peerDependencies ?? {})) {
    if (meta[name]?.optional === true && !TYPEORM_PEERS_USED.has(name)) {
      delete manifest.peerDependencies[name];
      delete meta[name];
    }
  }
  return manifest;
}

module.exports = { hooks: { readPackage } };
