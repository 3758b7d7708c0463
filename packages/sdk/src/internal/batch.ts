import { AideApiError, AideBatchError, AideError, AideUserAbortError } from '../core/errors.js';

/** The part of a `createMany` input that one `POST /batch` request carries: `items.slice(start, end)`. */
export interface BatchChunk {
  /** 0-based position of the chunk among the requests. */
  index: number;
  /** Index in the input of its first item. */
  start: number;
  /** Index in the input after its last item. */
  end: number;
}

/** `{"items":[` and `]}` around the items, and the commas between them. */
// UTF-8 byte lengths through TextEncoder (Node and browsers alike; Buffer is Node-only).
const utf8 = new TextEncoder();
const ENVELOPE_BYTES = utf8.encode('{"items":[]}').length;

/**
 * Splits the input into chunks of at most `maxItems` items whose request body (`{"items":[...]}` as
 * JSON) is at most `maxBytes`. An item that alone exceeds `maxBytes` is refused before anything is sent.
 */
export function planChunks(items: readonly unknown[], maxItems: number, maxBytes: number): BatchChunk[] {
  const chunks: BatchChunk[] = [];
  let start = 0;
  let bytes = ENVELOPE_BYTES;
  items.forEach((item, i) => {
    const size = utf8.encode(JSON.stringify(item) ?? 'null').length;
    if (ENVELOPE_BYTES + size > maxBytes) {
      throw new RangeError(
        `Item ${i} is ${size} bytes as JSON: no request of at most ${maxBytes} bytes can carry it (maxChunkBytes)`,
      );
    }
    const count = i - start;
    const added = size + (count > 0 ? 1 : 0);
    if (count > 0 && (count === maxItems || bytes + added > maxBytes)) {
      chunks.push({ index: chunks.length, start, end: i });
      start = i;
      bytes = ENVELOPE_BYTES + size;
    } else {
      bytes += added;
    }
  });
  if (start < items.length) chunks.push({ index: chunks.length, start, end: items.length });
  return chunks;
}

/**
 * The input positions of the rows a chunk's error names, made absolute: a `VALIDATION_ERROR`'s issues
 * (`items.<i>....`), or the `indexes` of two items with the same key. Empty when the server named none
 * (e.g. a duplicate of an existing row).
 */
export function failedRows(error: unknown, chunk: BatchChunk): number[] {
  if (!(error instanceof AideApiError) || !error.details) return [];
  const local = new Set<number>();
  const { issues, indexes } = error.details as { issues?: unknown; indexes?: unknown };
  if (Array.isArray(issues)) {
    for (const issue of issues as { path?: unknown }[]) {
      const path = Array.isArray(issue?.path) ? issue.path : [];
      if (String(path[0]) === 'items' && /^\d+$/.test(String(path[1]))) local.add(Number(path[1]));
    }
  }
  if (Array.isArray(indexes)) {
    for (const index of indexes) if (Number.isInteger(index)) local.add(index as number);
  }
  return [...local]
    .filter((i) => i >= 0 && i < chunk.end - chunk.start)
    .sort((a, b) => a - b)
    .map((i) => chunk.start + i);
}

/**
 * What to throw when a chunk's request fails: an `AideBatchError` naming the chunk, its rows at fault,
 * the chunks committed before it and what they gave; an abort or a closed client as it is (not about
 * the batch's content).
 */
export function chunkFailure<Read>(
  error: unknown,
  chunk: BatchChunk,
  committed: readonly BatchChunk[],
  created: readonly Read[],
): unknown {
  if (error instanceof AideUserAbortError || !(error instanceof AideError)) return error;
  return new AideBatchError({
    cause: error,
    failedChunk: chunk,
    rowIndexes: failedRows(error, chunk),
    committed: [...committed],
    created: [...created],
  });
}
