// The FileStore of an S3 bucket or S3-compatible store (AWS SDK v3): ListObjectsV2 pages (S3 lists
// keys in UTF-8 byte order, which is code-point order), GetObject with a Range header. A read from the
// end uses the size the listing gave, checked against the answer's Content-Range (a file replaced
// since is read again at its new size); unlisted, a suffix range `bytes=-N`.
// The SDK is imported when a store opens: the CLI's start-up does not load it (ADR 0041).
import type {
  GetObjectCommandOutput,
  HeadObjectCommandOutput,
  ListObjectsV2CommandOutput,
  S3Client,
} from '@aws-sdk/client-s3';
import { CrawlerError, interruption, throwIfInterrupted } from '../../errors.js';
import type { FileStore, StoredFile } from './file-store.js';
import type { S3Target } from './s3-url.js';

type Sdk = typeof import('@aws-sdk/client-s3');

/** Checks the root (bucket, credentials, prefix or single object) and returns its store. */
export async function openS3Store(target: S3Target, signal?: AbortSignal): Promise<FileStore> {
  throwIfInterrupted(signal);
  const env = process.env;
  // The SDK warns on stderr, once per process, that its releases from 2027 on need Node 22: nothing a
  // crawler user can act on (the crawler's lockfile pins the SDK), so it is not printed.
  env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
  const sdk = await import('@aws-sdk/client-s3');
  const region =
    target.region ??
    (env['AWS_REGION'] ||
      env['AWS_DEFAULT_REGION'] ||
      (target.endpoint === undefined ? undefined : 'us-east-1'));
  const client = new sdk.S3Client({
    ...(region === undefined ? {} : { region }),
    ...(target.endpoint === undefined ? { followRegionRedirects: true } : { endpoint: target.endpoint }),
    forcePathStyle: target.forcePathStyle,
  });
  const store = new S3Store(target, client, sdk);
  try {
    await store.open(signal);
  } catch (error) {
    client.destroy();
    throw error;
  }
  return store;
}

class S3Store implements FileStore {
  readonly display: string;
  bytesRead = 0;
  private closed = false;
  /** The key prefix paths are relative to. */
  private base: string;
  private single: string | undefined;
  /** Sizes the listing gave, for reads from the end. */
  private readonly sizes = new Map<string, number>();

  constructor(
    private readonly target: S3Target,
    private readonly client: S3Client,
    private readonly sdk: Sdk,
  ) {
    this.display = target.display;
    this.base = folderPrefix(target.prefix);
  }

  /** `s3://bucket/prefix` is a folder when keys lie under `prefix/`, else the object `prefix`. */
  async open(signal?: AbortSignal): Promise<void> {
    const { prefix } = this.target;
    const page = await this.send<ListObjectsV2CommandOutput>(
      new this.sdk.ListObjectsV2Command({ Bucket: this.target.bucket, Prefix: this.base, MaxKeys: 1 }),
      '',
      signal,
    );
    if ((page.KeyCount ?? 0) > 0 || this.base === '' || prefix.endsWith('/')) return;
    const head = await this.send<HeadObjectCommandOutput>(
      new this.sdk.HeadObjectCommand({ Bucket: this.target.bucket, Key: prefix }),
      '',
      signal,
    );
    const slash = prefix.lastIndexOf('/');
    this.base = prefix.slice(0, slash + 1);
    this.single = prefix.slice(slash + 1);
    this.sizes.set(this.single, head.ContentLength ?? 0);
  }

  async *list(signal?: AbortSignal): AsyncIterable<StoredFile> {
    if (this.single !== undefined) {
      yield { path: this.single, size: this.sizes.get(this.single)!, modified: null };
      return;
    }
    let token: string | undefined;
    do {
      const page = await this.send<ListObjectsV2CommandOutput>(
        new this.sdk.ListObjectsV2Command({
          Bucket: this.target.bucket,
          Prefix: this.base,
          ContinuationToken: token,
        }),
        '',
        signal,
      );
      for (const object of page.Contents ?? []) {
        const path = object.Key!.slice(this.base.length);
        if (path === '' || path.endsWith('/')) continue; // folder markers
        const size = object.Size ?? 0;
        this.sizes.set(path, size);
        yield { path, size, modified: object.LastModified ?? null };
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  async read(path: string, start: number, end?: number, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfInterrupted(signal);
    const known = this.sizes.get(path);
    if ((start < 0 || (end !== undefined && end < 0)) && (known !== undefined || end !== undefined)) {
      const size = known ?? (await this.size(path, signal));
      const range = clamp(start, end, size);
      const answer = await this.get(path, range, signal);
      // Replaced since it was listed: read the same range of the file as it is now.
      if (answer.total !== undefined && answer.total !== size) {
        this.sizes.set(path, answer.total);
        return this.get(path, clamp(start, end, answer.total), signal).then((again) => again.bytes);
      }
      return answer.bytes;
    }
    if (start < 0) {
      const answer = await this.get(path, { suffix: -start }, signal);
      // A server that misreads suffix ranges (s3rver) says so in Content-Range: ask again, explicitly.
      if (answer.total !== undefined && answer.first !== Math.max(0, answer.total + start)) {
        return this.get(path, clamp(start, end, answer.total), signal).then((again) => again.bytes);
      }
      return answer.bytes;
    }
    return (await this.get(path, { from: start, to: end }, signal)).bytes;
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.client.destroy();
    }
    return Promise.resolve();
  }

  private async size(path: string, signal?: AbortSignal): Promise<number> {
    const head = await this.send<HeadObjectCommandOutput>(
      new this.sdk.HeadObjectCommand({ Bucket: this.target.bucket, Key: this.base + path }),
      path,
      signal,
    );
    return head.ContentLength ?? 0;
  }

  /** One GET of a byte range; an unsatisfiable range (past the end, an empty object) is no bytes. */
  private async get(
    path: string,
    range: { from: number; to?: number | undefined } | { suffix: number },
    signal?: AbortSignal,
  ): Promise<{ bytes: Uint8Array; first?: number; total?: number }> {
    if ('from' in range && range.to !== undefined && range.to <= range.from)
      return { bytes: new Uint8Array() };
    if ('suffix' in range && range.suffix === 0) return { bytes: new Uint8Array() };
    const header =
      'suffix' in range
        ? `bytes=-${range.suffix}`
        : `bytes=${range.from}-${range.to === undefined ? '' : range.to - 1}`;
    let answer: GetObjectCommandOutput;
    try {
      answer = await this.send<GetObjectCommandOutput>(
        new this.sdk.GetObjectCommand({ Bucket: this.target.bucket, Key: this.base + path, Range: header }),
        path,
        signal,
        true,
      );
    } catch (error) {
      if (error instanceof Unsatisfiable) return { bytes: new Uint8Array() };
      throw error;
    }
    const bytes = await answer.Body!.transformToByteArray();
    this.bytesRead += bytes.length;
    const served = /^bytes (\d+)-\d+\/(\d+)$/.exec(answer.ContentRange ?? '');
    if (served === null) {
      // The whole object came back (a server that ignores Range): keep the requested part.
      const from = 'suffix' in range ? Math.max(0, bytes.length - range.suffix) : range.from;
      const to = 'suffix' in range ? bytes.length : (range.to ?? bytes.length);
      return { bytes: bytes.subarray(from, to), first: from, total: bytes.length };
    }
    return { bytes, first: Number(served[1]), total: Number(served[2]) };
  }

  /** Sends a command; failures become one CrawlerError line naming the object, without secrets. */
  private async send<Output>(
    command: { input: object },
    path: string,
    signal?: AbortSignal,
    ranged = false,
  ): Promise<Output> {
    throwIfInterrupted(signal);
    if (this.closed) throw new CrawlerError(`${this.display} is closed`);
    try {
      return (await this.client.send(command as never, { abortSignal: signal })) as Output;
    } catch (error) {
      if (signal?.aborted === true) throw interruption(signal);
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (ranged && (status === 416 || (error as Error).name === 'InvalidRange')) throw new Unsatisfiable();
      const location = path === '' ? this.display : `${this.display.replace(/\/$/, '')}/${path}`;
      let message = s3Message(error, location, this.target);
      for (const secret of this.target.secrets) message = message.split(secret).join('***');
      throw new CrawlerError(message);
    }
  }
}

/** A range past the end of the object (or any range of an empty one): no bytes, not a failure. */
class Unsatisfiable extends Error {}

/** A key prefix that names a folder: '' or ending with '/'. */
function folderPrefix(prefix: string): string {
  return prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
}

/** `[start, end)` with negative ends counted from `size`, clamped to it. */
function clamp(start: number, end: number | undefined, size: number): { from: number; to: number } {
  const at = (n: number) => Math.min(size, n < 0 ? Math.max(0, size + n) : n);
  return { from: at(start), to: end === undefined ? size : at(end) };
}

function s3Message(error: unknown, location: string, target: S3Target): string {
  const e = error as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  switch (e.name) {
    case 'NoSuchBucket':
      return `no such bucket: s3://${target.bucket}`;
    case 'NoSuchKey':
    case 'NotFound':
      return `no such object: ${location}`;
    case 'InvalidAccessKeyId':
    case 'SignatureDoesNotMatch':
      return `the AWS credentials were rejected for ${location} (${e.name})`;
    case 'AccessDenied':
    case 'Forbidden':
      return `access denied: ${location}`;
    case 'CredentialsProviderError':
      return `no AWS credentials found for ${location}: set AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE, or run where a role provides them`;
  }
  if (status === 404) return `no such object: ${location}`;
  if (status === 403) return `access denied: ${location}`;
  if (/region is missing/i.test(e.message)) {
    return `no AWS region for ${location}: pass ?region= or set AWS_REGION`;
  }
  if (e.code !== undefined && /^E[A-Z]+$/.test(e.code)) {
    return `cannot connect to ${target.endpoint ?? 'S3'} for ${location}: ${e.code}`;
  }
  return `S3 failed on ${location}: ${e.message}`;
}
