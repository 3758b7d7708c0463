// A small client of Confluent Schema Registry's REST API (the endpoints the crawler reads):
// GET /subjects (paged with offset/limit where the server supports it), GET
// /subjects/{subject}/versions/{version}. Errors become one clear line (401, 404, not a schema
// registry, unreachable); no message carries the password (the URL is always the redacted one).
import { Agent, request } from 'undici';
import { CrawlerError, interruption } from '../../errors.js';

export interface RegistryEndpoint {
  /** `http(s)://host:port[/prefix]` without credentials or trailing slash. */
  base: string;
  /** The URL as printed (`schema-registry+https://user:***@host/prefix`). */
  redacted: string;
  /** `Basic …`, when credentials were given. */
  authorization: string | null;
}

/** A schema reference as the registry answers it. */
export interface RegistryReference {
  name: string;
  subject: string;
  version: number;
}

/** GET /subjects/{s}/versions/{v}. */
export interface RegistrySchema {
  subject: string;
  version: number;
  id: number;
  /** AVRO when absent (the registry omits it for Avro). */
  schemaType?: 'AVRO' | 'JSON' | 'PROTOBUF';
  schema: string;
  references?: RegistryReference[];
}

/** An answer other than 2xx: status and the registry's own error body, when it sent one. */
export class RegistryHttpError extends Error {
  override name = 'RegistryHttpError';
  constructor(
    readonly status: number,
    readonly errorCode: number | null,
    readonly detail: string,
  ) {
    super(`HTTP ${status}${errorCode === null ? '' : ` (error ${errorCode})`}: ${detail}`);
  }
}

/** Request and read timeouts: a registry answers in milliseconds; a stuck one fails the crawl clearly. */
const TIMEOUT_MS = 30_000;
/** Subjects per page of GET /subjects. */
export const SUBJECT_PAGE = 1000;

export class SchemaRegistryClient {
  private readonly agent = new Agent({
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
  });
  requests = 0;

  constructor(
    private readonly endpoint: RegistryEndpoint,
    private readonly signal?: AbortSignal,
  ) {}

  async close(): Promise<void> {
    await this.agent.close();
  }

  /** GET a path of the API; throws RegistryHttpError for an error answer, CrawlerError when unreachable. */
  async get(path: string): Promise<unknown> {
    this.requests++;
    let response;
    try {
      response = await request(`${this.endpoint.base}${path}`, {
        method: 'GET',
        dispatcher: this.agent,
        signal: this.signal,
        headers: {
          accept: 'application/vnd.schemaregistry.v1+json, application/json',
          ...(this.endpoint.authorization === null ? {} : { authorization: this.endpoint.authorization }),
        },
      });
    } catch (error) {
      if (this.signal?.aborted === true) throw interruption(this.signal);
      const code = (error as { code?: string }).code;
      throw new CrawlerError(
        `Schema Registry at ${this.endpoint.redacted} cannot be reached: ${code ?? (error as Error).message}`,
      );
    }
    const text = await response.body.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.statusCode >= 200 && response.statusCode < 300) {
      if (body === undefined)
        throw new RegistryHttpError(response.statusCode, null, 'the answer is not JSON');
      return body;
    }
    const error = body as { error_code?: unknown; message?: unknown } | undefined;
    throw new RegistryHttpError(
      response.statusCode,
      typeof error?.error_code === 'number' ? error.error_code : null,
      typeof error?.message === 'string'
        ? error.message
        : text.slice(0, 200).replace(/\s+/g, ' ') || 'no details',
    );
  }

  /** Every subject, page by page: a server that ignores offset/limit answers them all at once. */
  async subjects(): Promise<string[]> {
    const all = new Set<string>();
    for (let offset = 0; ; offset += SUBJECT_PAGE) {
      const page = await this.getSubjectsPage(offset);
      const before = all.size;
      for (const subject of page) all.add(subject);
      if (page.length < SUBJECT_PAGE || all.size === before) break;
    }
    return [...all];
  }

  private async getSubjectsPage(offset: number): Promise<string[]> {
    let body: unknown;
    try {
      body = await this.get(`/subjects?offset=${offset}&limit=${SUBJECT_PAGE}`);
    } catch (error) {
      throw this.explain(error, 'GET /subjects');
    }
    if (!Array.isArray(body) || !body.every((s) => typeof s === 'string')) {
      throw new CrawlerError(
        `${this.endpoint.redacted} is not a Schema Registry: GET /subjects did not answer a JSON list of subjects`,
      );
    }
    return body;
  }

  /** One version of a subject (`latest` or a number). */
  async version(subject: string, version: number | 'latest'): Promise<RegistrySchema> {
    const body = await this.get(`/subjects/${encodeURIComponent(subject)}/versions/${version}`);
    const schema = body as Partial<RegistrySchema>;
    if (typeof schema.schema !== 'string') {
      throw new RegistryHttpError(200, null, `the answer for ${subject} version ${version} holds no schema`);
    }
    return { subject, version: Number(schema.version), id: Number(schema.id), ...schema } as RegistrySchema;
  }

  /** A failure of the first call as one clear line: credentials, not a registry, the registry's own error. */
  explain(error: unknown, call: string): Error {
    if (!(error instanceof RegistryHttpError)) return error as Error;
    const at = `Schema Registry at ${this.endpoint.redacted}`;
    if (error.status === 401 || error.status === 403) {
      const credentials =
        this.endpoint.authorization === null
          ? 'no credentials were given: put user:password in the URL or set AIDE_CRAWLER_SCHEMA_REGISTRY_USER and AIDE_CRAWLER_SCHEMA_REGISTRY_PASSWORD'
          : 'check the user and password';
      return new CrawlerError(
        `${at} refused the request (${error.status} ${error.status === 401 ? 'Unauthorized' : 'Forbidden'}): ${credentials}`,
        { cause: error },
      );
    }
    if (error.status === 404 || error.errorCode === null) {
      return new CrawlerError(
        `${this.endpoint.redacted} is not a Schema Registry: ${call} answered ${error.message}`,
        { cause: error },
      );
    }
    return new CrawlerError(`${at}: ${call} failed: ${error.message}`, { cause: error });
  }
}
