import { PassThrough, type Readable } from 'node:stream';
import { createGunzip, createInflate } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';

/** The stream Fastify reads a body from; `receivedEncodedLength` is what it compares with Content-Length. */
type DecodedBody = PassThrough & { receivedEncodedLength: number };

const DECODERS: Readonly<Record<string, () => NodeJS.ReadWriteStream>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
};

/**
 * A `preParsing` hook: a body sent with `Content-Encoding: gzip` (OpenLineage's HTTP transport with
 * `compression: gzip`, ADR 0051) or `deflate` is decoded before any parser reads it. Fastify applies the
 * body limit to the stream returned here, i.e. to the decoded bytes, so a small compressed body that
 * expands beyond `AIDE_BODY_LIMIT_BYTES` (a zip bomb) is 413 `PAYLOAD_TOO_LARGE` once the limit is
 * reached, not decompressed whole; the encoded length is still checked against Content-Length. Other
 * encodings are 415 `UNSUPPORTED_CONTENT_ENCODING`; data that is not what its encoding says is 422.
 */
export function decodeContentEncoding(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Readable,
  done: (error: Error | null, payload?: Readable) => void,
): void {
  const header = request.headers['content-encoding'];
  const encoding = (typeof header === 'string' ? header : '').trim().toLowerCase();
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (header === undefined || encoding === '' || encoding === 'identity' || !hasBody) {
    done(null, payload);
    return;
  }
  const decoder = DECODERS[encoding];
  if (!decoder) {
    done(
      new AppError(
        'UNSUPPORTED_CONTENT_ENCODING',
        `Content-Encoding "${String(header)}" is not supported: send the body as is or gzip-compressed.`,
        { content_encoding: String(header), supported: ['identity', 'gzip', 'deflate'] },
      ),
    );
    return;
  }
  const decoded: DecodedBody = Object.assign(new PassThrough(), { receivedEncodedLength: 0 });
  const decode = decoder();
  payload.on('data', (chunk: Buffer) => (decoded.receivedEncodedLength += chunk.length));
  payload.on('error', (error) => decoded.destroy(error));
  decode.on('error', () =>
    decoded.destroy(new AppError('VALIDATION_ERROR', `The body is not valid ${encoding} data.`)),
  );
  payload.pipe(decode).pipe(decoded);
  done(null, decoded);
}
