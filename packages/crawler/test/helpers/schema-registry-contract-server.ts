// An implementation of Confluent Schema Registry's documented REST contract, for the endpoints the
// crawler reads: GET /subjects (with offset/limit), GET /subjects/{subject}/versions/{version|latest},
// and POST /subjects/{subject}/versions to register. It is NOT Confluent's server: no real Schema
// Registry runs on these machines (issue 24). It answers as the API reference documents: content type
// application/vnd.schemaregistry.v1+json, `schemaType` omitted for AVRO, `references` as
// {name, subject, version}, errors as {error_code, message} (40401 subject not found, 40402 version not
// found, 401 unauthorized), basic auth when configured, an optional path prefix.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reference {
  name: string;
  subject: string;
  version: number;
}

export interface RegisteredSchema {
  schema: string;
  schemaType?: 'AVRO' | 'JSON' | 'PROTOBUF';
  references?: Reference[];
}

export interface ContractServerOptions {
  /** Basic auth credentials the server requires. */
  credentials?: { user: string; password: string };
  /** A path prefix the API sits under (`/registry`). */
  prefix?: string;
  /** Answer every subject at once, ignoring offset/limit (older registries). */
  ignorePaging?: boolean;
  /** Called once the subjects are listed (a subject deleted while a crawl runs). */
  afterListing?: () => void;
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

export class SchemaRegistryContractServer {
  private readonly server: Server;
  private readonly subjects = new Map<string, { id: number; version: number; body: RegisteredSchema }[]>();
  private nextId = 1;
  /** Every request's method and path (with its query), in order. */
  readonly requests: { method: string; url: string; authorization: string | null }[] = [];

  constructor(private readonly options: ContractServerOptions = {}) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.server.close((e) => (e ? reject(e) : resolve())));
  }

  /** Registers a new version of a subject (as POST /subjects/{subject}/versions does); returns its version. */
  register(subject: string, body: RegisteredSchema): number {
    const versions = this.subjects.get(subject) ?? [];
    const version = versions.length + 1;
    versions.push({ id: this.nextId++, version, body });
    this.subjects.set(subject, versions);
    return version;
  }

  /** Deletes a subject (DELETE /subjects/{subject}): later reads answer 40401. */
  delete(subject: string): void {
    this.subjects.delete(subject);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': CONTENT_TYPE });
    res.end(JSON.stringify(body));
  }

  private error(res: ServerResponse, status: number, errorCode: number, message: string): void {
    this.send(res, status, { error_code: errorCode, message });
  }

  private authorised(req: IncomingMessage): boolean {
    const expected = this.options.credentials;
    if (expected === undefined) return true;
    const header = req.headers.authorization ?? '';
    const [scheme, encoded] = header.split(' ');
    if (scheme !== 'Basic' || encoded === undefined) return false;
    return Buffer.from(encoded, 'base64').toString('utf8') === `${expected.user}:${expected.password}`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization ?? null,
    });
    const url = new URL(req.url ?? '/', 'http://registry');
    const prefix = this.options.prefix ?? '';
    if (!url.pathname.startsWith(`${prefix}/`)) return this.error(res, 404, 404, 'HTTP 404 Not Found');
    if (!this.authorised(req)) return this.error(res, 401, 401, 'Unauthorized');
    const parts = url.pathname.slice(prefix.length).split('/').slice(1).map(decodeURIComponent);
    if (req.method === 'GET' && parts.length === 1 && parts[0] === 'subjects') {
      const all = [...this.subjects.keys()].sort();
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? -1);
      const page =
        this.options.ignorePaging === true || limit < 0
          ? all.slice(this.options.ignorePaging ? 0 : offset)
          : all.slice(offset, offset + limit);
      this.send(res, 200, page);
      return this.options.afterListing?.();
    }
    if (req.method === 'GET' && parts[0] === 'subjects' && parts[2] === 'versions' && parts.length === 4) {
      const versions = this.subjects.get(parts[1]);
      if (versions === undefined) return this.error(res, 404, 40401, `Subject '${parts[1]}' not found.`);
      const found =
        parts[3] === 'latest' ? versions.at(-1) : versions.find((v) => String(v.version) === parts[3]);
      if (found === undefined) return this.error(res, 404, 40402, `Version ${parts[3]} not found.`);
      const { schemaType, ...rest } = found.body;
      return this.send(res, 200, {
        subject: parts[1],
        version: found.version,
        id: found.id,
        ...(schemaType === undefined || schemaType === 'AVRO' ? {} : { schemaType }),
        ...rest,
      });
    }
    if (req.method === 'POST' && parts[0] === 'subjects' && parts[2] === 'versions' && parts.length === 3) {
      return this.post(req, res, parts[1]);
    }
    return this.error(res, 404, 404, 'HTTP 404 Not Found');
  }

  private async post(req: IncomingMessage, res: ServerResponse, subject: string): Promise<void> {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const body = JSON.parse(text) as RegisteredSchema;
    this.register(subject, body);
    const versions = this.subjects.get(subject) ?? [];
    this.send(res, 200, { id: versions.at(-1)?.id });
  }
}
