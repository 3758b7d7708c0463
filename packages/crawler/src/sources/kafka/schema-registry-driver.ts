// Driver `schema_registry`: a Confluent-compatible Schema Registry over its REST API,
// `schema-registry+http(s)://[user:password@]host:port[/prefix]`. Every subject's latest version is
// read with its references (recursively, by subject and version) and placed by topic (subjects.ts).
// Basic auth from the URL, else AIDE_CRAWLER_SCHEMA_REGISTRY_USER / _PASSWORD; the password never
// appears in output (the URL is printed redacted, library messages are scrubbed).
import { parseFilters, tableSelected } from '../../inspect/filters.js';
import { CrawlerError, ExitCode, throwIfInterrupted } from '../../errors.js';
import type { InspectedDatabase, SourceProblem } from '../../model.js';
import type { SourceDriver, SourceInspectOptions, SourceTarget } from '../source-driver.js';
import { inspectSubjects, type SubjectSchema } from './inspection.js';
import type { ReferencedDocument, SchemaFormat } from './schema-columns.js';
import {
  RegistryHttpError,
  SchemaRegistryClient,
  type RegistryEndpoint,
  type RegistryReference,
  type RegistrySchema,
} from './schema-registry-client.js';
import { placeSubject } from './subjects.js';

export interface SchemaRegistryTarget extends SourceTarget, RegistryEndpoint {
  source: 'schema_registry';
}

const FORMAT_OF_TYPE: Record<string, SchemaFormat> = { AVRO: 'avro', JSON: 'json', PROTOBUF: 'protobuf' };
/** Subjects read at once. */
const CONCURRENCY = 8;

const usage = (message: string) => new CrawlerError(message, { exitCode: ExitCode.USAGE });

function parse(url: string, env: NodeJS.ProcessEnv = process.env): SchemaRegistryTarget {
  const match = /^schema-registry\+(https?):\/\/(.*)$/i.exec(url);
  let parsed: URL;
  try {
    if (match === null) throw new Error('scheme');
    parsed = new URL(`${match[1].toLowerCase()}://${match[2]}`);
  } catch {
    throw usage('Schema Registry URL must be schema-registry+http(s)://[user:password@]host:port[/prefix]');
  }
  if (parsed.hostname === '') throw usage('Schema Registry URL names no host');
  const user = decodeURIComponent(parsed.username) || env['AIDE_CRAWLER_SCHEMA_REGISTRY_USER'] || '';
  const password = decodeURIComponent(parsed.password) || env['AIDE_CRAWLER_SCHEMA_REGISTRY_PASSWORD'] || '';
  if (password !== '' && user === '') throw usage('Schema Registry URL has a password but no user');
  const base = `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  const shownUser =
    parsed.username === '' ? '' : `${parsed.username}${parsed.password === '' ? '' : ':***'}@`;
  return {
    source: 'schema_registry',
    base,
    redacted: `schema-registry+${parsed.protocol}//${shownUser}${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`,
    secrets: password === '' ? [] : [password, encodeURIComponent(password)],
    authorization: user === '' ? null : `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
  };
}

/** Runs `work` on every item, `CONCURRENCY` at a time, in order of the results. */
async function pooled<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

const isNotFound = (error: unknown) => error instanceof RegistryHttpError && error.status === 404;

/** Reads subjects and their references, each subject@version once. */
class SubjectReader {
  private readonly versions = new Map<string, Promise<RegistrySchema>>();

  constructor(private readonly client: SchemaRegistryClient) {}

  private read(subject: string, version: number | 'latest'): Promise<RegistrySchema> {
    const key = `${subject}@${version}`;
    let pending = this.versions.get(key);
    if (pending === undefined) {
      pending = this.client.version(subject, version);
      this.versions.set(key, pending);
    }
    return pending;
  }

  /** The references of a schema, transitively, dependencies before dependants, each name once. */
  private async references(
    refs: readonly RegistryReference[],
    seen: Set<string>,
    out: ReferencedDocument[],
  ): Promise<void> {
    for (const ref of refs) {
      if (seen.has(ref.name)) continue;
      seen.add(ref.name);
      let schema: RegistrySchema;
      try {
        schema = await this.read(ref.subject, ref.version);
      } catch (error) {
        if (isNotFound(error)) {
          throw new Error(
            `reference '${ref.name}' (subject ${ref.subject} version ${ref.version}) not found`,
            { cause: error },
          );
        }
        throw error;
      }
      await this.references(schema.references ?? [], seen, out);
      out.push({ name: ref.name, path: `${ref.subject} version ${ref.version}`, text: schema.schema });
    }
  }

  /** A subject's latest schema as a document; a problem when it (or a reference) cannot be read. */
  async subject(subject: string): Promise<SubjectSchema | SourceProblem> {
    try {
      const latest = await this.read(subject, 'latest');
      const format = FORMAT_OF_TYPE[latest.schemaType ?? 'AVRO'];
      if (format === undefined) return { path: subject, reason: `unknown schemaType '${latest.schemaType}'` };
      const references: ReferencedDocument[] = [];
      await this.references(latest.references ?? [], new Set(), references);
      return {
        subject,
        document: { format, path: `${subject} version ${latest.version}`, text: latest.schema, references },
      };
    } catch (error) {
      if (error instanceof RegistryHttpError && (error.status === 401 || error.status === 403)) {
        throw this.client.explain(error, `GET /subjects/${subject}/versions/latest`);
      }
      if (error instanceof CrawlerError) throw error;
      const reason = isNotFound(error)
        ? `not found (deleted while the crawl ran?): ${(error as Error).message}`
        : (error as Error).message;
      return { path: subject, reason };
    }
  }
}

/** Replaces every secret in a message. */
const scrub = (message: string, secrets: readonly string[]) =>
  secrets.reduce((text, secret) => (secret === '' ? text : text.split(secret).join('***')), message);

async function inspect(
  target: SchemaRegistryTarget,
  options: SourceInspectOptions,
): Promise<InspectedDatabase> {
  const client = new SchemaRegistryClient(target, options.signal);
  try {
    const filters = parseFilters(options.filters);
    const subjects = (await client.subjects()).filter((s) =>
      tableSelected(filters, '', placeSubject(s, null).dataset),
    );
    const reader = new SubjectReader(client);
    const read = await pooled(subjects, (subject) => {
      throwIfInterrupted(options.signal);
      return reader.subject(subject);
    });
    const problems = read
      .filter((r): r is SourceProblem => 'reason' in r)
      .map((p) => ({ ...p, reason: scrub(p.reason, target.secrets) }));
    return inspectSubjects(
      { driver: 'schema_registry', product: 'Schema Registry', version: '', database: target.redacted },
      read.filter((r): r is SubjectSchema => 'document' in r),
      problems,
      options.filters,
      client.requests,
    );
  } catch (error) {
    if (error instanceof CrawlerError) {
      const clean = scrub(error.message, target.secrets);
      throw clean === error.message ? error : new CrawlerError(clean, { exitCode: error.exitCode });
    }
    throw new CrawlerError(
      scrub(`Schema Registry at ${target.redacted}: ${(error as Error).message}`, target.secrets),
    );
  } finally {
    await client.close();
  }
}

export const schemaRegistryDriver: SourceDriver<SchemaRegistryTarget> = {
  name: 'schema_registry',
  schemes: ['schema-registry+http', 'schema-registry+https'],
  flavors: ['avro', 'json_schema', 'protobuf'],
  usage: ['schema-registry+https://[user:password@]host:8081[/prefix] (Confluent-compatible REST API)'],
  parse: (url) => parse(url),
  inspect,
};

export { parse as parseSchemaRegistryUrl };
