// SQL roots (reference §4.3–§4.4): normalization of provider- and Driver-declared `sql_base_path`
// values, `artifact:/…` component roots, folder prefixes and the agreement rule.
import { casefold, ConfigurationError } from '@aide/schemas/datacoolie';

/** One normalized root: its path (or deferred `artifact:/…` text) and its folder prefix. */
export interface SqlRoot {
  readonly path: string;
  readonly prefix: string;
}

/** The public form of roots: null, one path, or several (in declaration order). */
export type SqlBasePath = string | readonly string[] | null;

const ROOT_PATH = /^(?:\/|[A-Za-z]:\/|[A-Za-z][A-Za-z0-9+.-]*:\/\/\/?|[A-Za-z][A-Za-z0-9+.-]*:\/)$/;

/** Backslashes → `/`, repeated slashes collapsed (keeping `scheme://`), trailing `/` stripped except on roots. */
export function normalizePath(path: string): string {
  const text = path.trim().replace(/\\/g, '/');
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(text);
  const head = scheme ? scheme[0] : '';
  let result = head + text.slice(head.length).replace(/\/{2,}/g, '/');
  while (result.endsWith('/') && !ROOT_PATH.test(result)) result = result.slice(0, -1);
  return result;
}

const UNSAFE_RELATIVE =
  /(?:^|\/)\.\.(?:\/|$)|[?#\\]|%2f|%5c|[\u0000-\u001f\u007f]|^[A-Za-z][A-Za-z0-9+.-]*:/i;

function artifactRelative(entry: string): string {
  if (!/^artifact:\/(?!\/)/.test(entry)) {
    throw new ConfigurationError(`artifact component root must use artifact:/<relative-path>: '${entry}'`);
  }
  const relative = entry.slice('artifact:/'.length);
  if (relative.trim() === '' || UNSAFE_RELATIVE.test(relative)) {
    throw new ConfigurationError(`invalid artifact component root: '${entry}'`);
  }
  return normalizePath(relative);
}

function folderPrefix(path: string, entry: string): string {
  const prefix = path.split('/').pop() ?? '';
  if (prefix === '' || prefix === '.' || prefix === '..' || /^[A-Za-z0-9+.-]*:$/.test(prefix)) {
    throw new ConfigurationError(`component root has no usable folder prefix: '${entry}'`);
  }
  return prefix;
}

export interface SqlRootOptions {
  /** Resolves `artifact:/…` roots; without it they stay deferred (if allowed) or fail. */
  artifactBasePath?: string | null;
  /** Provider construction keeps unresolved `artifact:/…` roots; context resolution does not. */
  allowDeferred?: boolean;
}

/** Normalizes one declaration of SQL roots; null means "no roots". */
export function normalizeSqlRoots(value: unknown, options: SqlRootOptions = {}): SqlRoot[] | null {
  if (value === null || value === undefined) return null;
  let entries: readonly unknown[];
  if (typeof value === 'string') entries = [value];
  else if (Array.isArray(value)) entries = value;
  else throw new ConfigurationError('sql_base_path must be a path string or a sequence of path strings');
  if (entries.length === 0) throw new ConfigurationError('sql_base_path must contain at least one path');
  const roots: SqlRoot[] = [];
  entries.forEach((entry, index) => {
    if (typeof entry !== 'string' || entry.trim() === '') {
      throw new ConfigurationError(`sql_base_path[${index}] must be a non-empty path`);
    }
    const text = entry.trim();
    let path: string;
    if (text.startsWith('artifact:')) {
      const relative = artifactRelative(text);
      const base = options.artifactBasePath;
      if (base !== null && base !== undefined) path = normalizePath(`${base}/${relative}`);
      else if (options.allowDeferred) path = `artifact:/${relative}`;
      else throw new ConfigurationError(`component root '${text}' requires artifact_base_path`);
    } else {
      path = normalizePath(text);
    }
    roots.push({ path, prefix: folderPrefix(path, text) });
  });
  const seen = new Map<string, SqlRoot>();
  for (const root of roots) {
    const key = casefold(root.prefix);
    const other = seen.get(key);
    if (other) {
      throw new ConfigurationError(
        `sql_base_path roots have duplicate folder prefix '${root.prefix}': '${other.path}' and '${root.path}'`,
      );
    }
    seen.set(key, root);
  }
  return roots;
}

export function publicSqlBasePath(roots: readonly SqlRoot[] | null): SqlBasePath {
  if (roots === null) return null;
  if (roots.length === 1) return roots[0]!.path;
  return Object.freeze(roots.map((root) => root.path));
}

/** Whether two root lists name the same (prefix, path) pairs, in any order. */
export function sameSqlRoots(a: readonly SqlRoot[], b: readonly SqlRoot[]): boolean {
  const pairs = (roots: readonly SqlRoot[]) =>
    new Set(roots.map((root) => JSON.stringify([casefold(root.prefix), root.path])));
  const left = pairs(a);
  const right = pairs(b);
  return left.size === right.size && [...left].every((pair) => right.has(pair));
}
