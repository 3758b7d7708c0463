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
  // A JDBC URL (`jdbc:postgresql://host:5432/db`, Flink's and Spark's JDBC relations) is its URL.
  const value = namespace.trim().replace(/^jdbc:/i, '');
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

/** The schema a JDBC connection reads a table of when its name gives none (`search_path`, `dbo`). */
const JDBC_DEFAULT_SCHEMA: Readonly<Record<string, string>> = {
  postgres: 'public',
  redshift: 'public',
  sqlserver: 'dbo',
};

/**
 * A table named by a JDBC URL namespace (`jdbc:postgresql://postgres:5432/db` + `source_event`, as Flink's
 * JDBC connector names it) as the naming spec writes it: the server's namespace (`postgres://postgres:5432`)
 * and `database.schema.table` — the schema the database's default when the name has none (PostgreSQL
 * `public`); MySQL's database is the schema (`database.table`). Null for any other namespace, or when
 * the URL names no database.
 */
export function jdbcIdentityOf(namespace: string, name: string): { namespace: string; name: string } | null {
  const url = /^jdbc:([a-z][a-z0-9+.-]*):\/\/([^/?;]+)\/([^/?;]+)/i.exec(namespace.trim());
  if (!url) return null;
  const server = normalizeNamespace(`${url[1]}://${url[2]}`);
  const scheme = server.slice(0, server.indexOf(':'));
  const database = decodeURIComponent(url[3] ?? '');
  const parts = name.split('.');
  if (scheme === 'mysql')
    return { namespace: server, name: parts.length === 1 ? `${database}.${name}` : name };
  if (parts.length >= 3) return { namespace: server, name };
  if (parts.length === 2) return { namespace: server, name: `${database}.${name}` };
  const schema = JDBC_DEFAULT_SCHEMA[scheme];
  return schema ? { namespace: server, name: `${database}.${schema}.${name}` } : null;
}
