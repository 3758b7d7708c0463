// The first bytes of a text file (CSV, JSON lines) as text: gunzipped when the name ends in `.gz`,
// decoded by its byte-order mark (UTF-8, UTF-16LE/BE) or as UTF-8; a file that is not valid UTF-8 is
// read as ISO-8859-1 and said so. Only whole lines are kept unless the sample reaches the end of the file.
import { constants, gunzipSync } from 'node:zlib';
import type { FileStore, StoredFile } from './file-store.js';

/** How many bytes of a text file are sampled (before decompression). */
export const SAMPLE_BYTES = 1024 * 1024;

export interface TextSample {
  text: string;
  /** Whether the sample holds the whole file (its last line is complete). */
  complete: boolean;
  compression: 'gzip' | 'none';
  notes: string[];
}

export async function readTextSample(
  store: FileStore,
  file: StoredFile,
  signal?: AbortSignal,
): Promise<TextSample> {
  const raw = await store.read(file.path, 0, SAMPLE_BYTES, signal);
  const gzip = /\.gz$/i.test(file.path);
  let bytes: Uint8Array = raw;
  let complete = raw.length >= file.size;
  if (gzip) {
    try {
      // Sync flush: a sample that stops mid-stream gives what it holds instead of failing.
      bytes = gunzipSync(raw, {
        finishFlush: complete ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
        maxOutputLength: 4 * SAMPLE_BYTES,
      });
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'ERR_BUFFER_TOO_LARGE')
        throw new Error(`not a valid gzip file: ${(error as Error).message}`, { cause: error });
      bytes = gunzipSync(raw.subarray(0, Math.floor(raw.length / 8)), {
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      complete = false;
    }
  }
  const notes: string[] = [];
  let text = decode(bytes, notes);
  if (!complete) {
    const end = text.lastIndexOf('\n');
    text = end === -1 ? text : text.slice(0, end + 1);
  }
  return { text, complete, compression: gzip ? 'gzip' : 'none', notes };
}

function decode(bytes: Uint8Array, notes: string[]): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    // stream: true keeps a character cut at the sample's end from counting as invalid.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    notes.push('not valid UTF-8 and no byte-order mark: read as ISO-8859-1');
    return new TextDecoder('latin1').decode(bytes);
  }
}
