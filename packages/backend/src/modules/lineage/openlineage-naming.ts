// OpenLineage dataset naming (https://openlineage.io/docs/spec/naming) mapped to registered systems and
// datasets; docs/openlineage.md describes the mapping for users.

/** Schemes written two ways by emitters, as OpenLineage names them. */
const SCHEME_ALIASES: Readonly<Record<string, string>> = {
  postgresql: 'postgres',
  'postgresql+psycopg': 'postgres',
  mariadb: 'mysql',
  s3a: 's3',
  s3n: 's3',
};

/**
 * The canonical text of a namespace: scheme and authority lower-cased, known scheme aliases resolved
 * (`postgresql://` → `postgres://`), no trailing slash; a namespace without authority (`bigquery`,
 * `bigquery://`, `file`) is its scheme.
 */
export function normalizeNamespace(namespace: string): string {
  const value = namespace.trim();
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):(\/\/)?(.*)$/s.exec(value);
  if (!match) return value.toLowerCase().replace(/\/+$/, '');
  const scheme = match[1].toLowerCase();
  const canonical = SCHEME_ALIASES[scheme] ?? scheme;
  const rest = (match[3] ?? '').replace(/\/+$/, '');
  if (rest === '') return canonical;
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : rest.slice(slash);
  return `${canonical}://${authority.toLowerCase()}${path}`;
}

/** What a system says about itself in `extra` (docs/openlineage.md). */
export interface SystemNaming {
  id: string;
  code: string;
  extra: Record<string, unknown> | null;
}

/** The namespaces a system answers to: `extra.openlineage_namespace(s)`, and its code. */
export function namespacesOf(system: SystemNaming): string[] {
  const declared: unknown[] = [];
  const extra = system.extra ?? {};
  if (typeof extra['openlineage_namespace'] === 'string') declared.push(extra['openlineage_namespace']);
  const list: unknown = extra['openlineage_namespaces'];
  if (Array.isArray(list)) declared.push(...(list as unknown[]));
  const names = declared.filter((n): n is string => typeof n === 'string' && n.trim() !== '');
  return [...new Set([...names.map(normalizeNamespace), system.code.trim().toLowerCase()])];
}

/** `extra.openlineage_database`: the database part of the names a system's datasets answer to. */
export function databaseOf(system: SystemNaming): string | null {
  const value = system.extra?.['openlineage_database'];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().toLowerCase() : null;
}

/** A dataset name as the lookup uses it: the dotted parts from the end (table, schema, database). */
export interface NameLookup {
  name: string;
  /** `namespace/name` without the slash doubled: a path of object storage or a table location. */
  uri: string;
  /** Object names a dataset may be registered under: the name, then its shorter dotted suffixes. */
  objectNames: string[];
  last: string;
  second: string | null;
  third: string | null;
}

export function lookupOf(namespace: string, name: string): NameLookup {
  const parts = name.split('.');
  const objectNames = parts.map((_, i) => parts.slice(i).join('.')).filter((n) => n !== '');
  const trimmed = name.replace(/^\/+/, '');
  return {
    name,
    uri: `${normalizeNamespace(namespace)}/${trimmed}`,
    objectNames: [...new Set([name, trimmed, ...objectNames])],
    last: parts[parts.length - 1] ?? name,
    second: parts.length >= 2 ? (parts[parts.length - 2] ?? null) : null,
    third: parts.length >= 3 ? (parts[parts.length - 3] ?? null) : null,
  };
}

/**
 * Whether a system with a declared database may hold the named dataset: a name of three parts or more
 * (`database.schema.table`) must start with that database.
 */
export function databaseFits(database: string | null, lookup: NameLookup): boolean {
  return database === null || lookup.third === null || lookup.third.toLowerCase() === database;
}
