// Which source reads a connection URL: its scheme names a registered driver (ADR 0046). The registry
// holds what `--help` and URL dispatch need of each source; a driver's module is imported only when a
// URL of its scheme is used, so `--help` and `--version` load none of them (ADR 0041).
import { CrawlerError, ExitCode } from '../errors.js';
import type { InspectionFilters } from '../model.js';
import { redact } from './redact.js';
import type { SourceDriver, SourceTarget } from './source-driver.js';

/** A registered source: the driver's description, and its module, imported when first used. */
export interface RegisteredSource extends Pick<SourceDriver, 'name' | 'schemes' | 'flavors' | 'usage'> {
  load(): Promise<SourceDriver>;
}

/** The sources a command can read; commands take another list only in tests (an explicit parameter). */
export type SourceList = readonly RegisteredSource[];

/**
 * Every source of the crawler. Adding one is its driver module and one entry here, with the same
 * name, schemes, flavors and usage as the driver (test/source-registry.test.ts checks that they agree).
 */
export const SOURCES: SourceList = [
  {
    name: 'postgresql',
    schemes: ['postgresql', 'postgres'],
    flavors: ['postgres14'],
    usage: [
      'postgresql://user:password@host:5432/db   (also postgres://, postgresql+psycopg://; ?sslmode=…)',
    ],
    load: async () => (await import('./postgresql.js')).postgresqlDriver,
  },
  {
    name: 'mysql',
    schemes: ['mysql', 'mariadb'],
    flavors: ['mysql8'],
    usage: ['mysql://user:password@host:3306/db        (also mariadb://, mysql+pymysql://)'],
    load: async () => (await import('./mysql.js')).mysqlDriver,
  },
  {
    name: 'sqlite',
    schemes: ['sqlite'],
    flavors: ['sqlite3'],
    usage: ['sqlite:///relative/path.db, sqlite:////absolute/path.db'],
    load: async () => (await import('./sqlite.js')).sqliteDriver,
  },
  {
    name: 'files',
    schemes: ['file'],
    flavors: ['storage_files', 'sftp_files'],
    usage: [
      'file:///path/to/folder  (Parquet, Avro, CSV, JSON-lines files; Hive-style partition folders)',
      'file:///path/to/file.parquet',
    ],
    load: async () => (await import('./files/driver.js')).filesDriver,
  },
  {
    name: 'sftp',
    schemes: ['sftp'],
    flavors: ['sftp_files', 'storage_files'],
    usage: [
      'sftp://user[:password]@host[:port]/path[?identity=/path/to/key&known_hosts=/path&strict_host_key=no]',
    ],
    load: async () => (await import('./files/remote-sources.js')).sftpDriver,
  },
  {
    name: 's3',
    schemes: ['s3'],
    flavors: ['storage_files', 'sftp_files'],
    usage: ['s3://bucket/prefix[?region=eu-west-1&endpoint=http://host:port&force_path_style=true]'],
    load: async () => (await import('./files/remote-sources.js')).s3Driver,
  },
  {
    name: 'kafka_schemas',
    schemes: ['kafka+file'],
    flavors: ['avro', 'json_schema', 'protobuf'],
    usage: ['kafka+file:///path/to/folder (.avsc, .json, .proto files; <topic>-value / <topic>-key names)'],
    load: async () => (await import('./kafka/kafka-schemas-driver.js')).kafkaSchemasDriver,
  },
  {
    name: 'schema_registry',
    schemes: ['schema-registry+http', 'schema-registry+https'],
    flavors: ['avro', 'json_schema', 'protobuf'],
    usage: ['schema-registry+https://[user:password@]host:8081[/prefix] (Confluent-compatible REST API)'],
    load: async () => (await import('./kafka/schema-registry-driver.js')).schemaRegistryDriver,
  },
  {
    name: 'lakehouse',
    schemes: ['lakehouse+file', 'lakehouse+s3', 'lakehouse+sftp'],
    flavors: ['spark_sql', 'iceberg_v2'],
    usage: [
      'lakehouse+file:///warehouse  (Delta Lake and Iceberg tables; metadata only)',
      'lakehouse+s3://bucket/warehouse  (Delta Lake and Iceberg tables; metadata only)',
      'lakehouse+sftp://user@host/warehouse  (Delta Lake and Iceberg tables; metadata only)',
    ],
    load: async () => (await import('./lakehouse/lakehouse-source.js')).lakehouseDriver,
  },
];

/** The registered source of that name (the database drivers take their description from here). */
export function registeredSource(name: string, sources: SourceList = SOURCES): RegisteredSource {
  const found = sources.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no source '${name}' is registered`);
  return found;
}

/** Schemes people try that no driver reads yet, with what they name. */
const NOT_YET_SUPPORTED: Readonly<Record<string, string>> = { mssql: 'SQL Server', sqlserver: 'SQL Server' };

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

const usage = (message: string) => new CrawlerError(message, { exitCode: ExitCode.USAGE });

/**
 * The source of a URL: the one registering its scheme, else (SQLAlchemy's `dialect+driver://` forms,
 * `postgresql+psycopg://`) the one registering the part before the first `+`, whose `parse` decides.
 *
 * @throws CrawlerError (usage, exit 2) for a URL without a scheme or of a scheme no source registers;
 * the message lists the registered schemes.
 */
export function sourceOf(rawUrl: string, sources: SourceList = SOURCES): RegisteredSource {
  const url = rawUrl.trim();
  const match = SCHEME.exec(url);
  const schemes = sources.flatMap((s) => s.schemes.map((scheme) => `${scheme}://`)).join(', ');
  if (match === null) {
    throw usage(`invalid connection URL '${redact(url)}': expected <scheme>://…, one of ${schemes}`);
  }
  const scheme = match[1].toLowerCase();
  const base = scheme.split('+')[0];
  const found =
    sources.find((s) => s.schemes.includes(scheme)) ?? sources.find((s) => s.schemes.includes(base));
  if (found !== undefined) return found;
  const product = NOT_YET_SUPPORTED[base];
  if (product !== undefined) {
    throw usage(`${product} is not supported yet (${redact(url)}); supported: ${schemes}`);
  }
  throw usage(`unsupported connection URL scheme '${match[0]}' (${redact(url)}); expected one of ${schemes}`);
}

/** A URL's driver, loaded, and the URL parsed by it (usage errors before any connection). */
export interface OpenedSource {
  driver: SourceDriver;
  target: SourceTarget;
}

export async function openSource(url: string, sources: SourceList = SOURCES): Promise<OpenedSource> {
  const driver = await sourceOf(url, sources).load();
  return { driver, target: driver.parse(url.trim()) };
}

/** Filters with every field present (the flags' defaults). */
export function completeFilters(filters: Partial<InspectionFilters> = {}): InspectionFilters {
  return {
    schemas: filters.schemas ?? [],
    exclude_schemas: filters.exclude_schemas ?? [],
    tables: filters.tables ?? [],
    exclude_tables: filters.exclude_tables ?? [],
    include_partitions: filters.include_partitions ?? false,
  };
}
