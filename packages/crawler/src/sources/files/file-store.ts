// Where files are read from: the local file system, an SFTP server or an S3-compatible bucket, behind
// one interface so that the format readers (Parquet footers, Avro headers, CSV/JSON-lines samples,
// Delta/Iceberg metadata) never know which. Reads are ranged: a Parquet footer is read without its data
// pages, whatever the transport.

/** A file found under the store's root. */
export interface StoredFile {
  /** The path relative to the store's root, `/`-separated, no leading slash (`dt=2026-12-01/part-0.parquet`). */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Last modification time, when the store knows it. */
  modified: Date | null;
}

export interface FileStore {
  /** The root as shown to people (the URL without secrets: `sftp://drop@host:2222/in`). */
  readonly display: string;
  /** Every file under the root, recursively, in code-point order of `path`; directories are not listed. */
  list(signal?: AbortSignal): AsyncIterable<StoredFile>;
  /**
   * Bytes `[start, end)` of a file (end clamped to its size). A negative `start` counts from the end
   * (`read(p, -8)` is the last 8 bytes), as Parquet's footer is found.
   */
  read(path: string, start: number, end?: number, signal?: AbortSignal): Promise<Uint8Array>;
  /** Bytes read so far through this store (the benchmark's bytes-per-file figure). */
  readonly bytesRead: number;
  /** Releases connections; safe to call twice. */
  close(): Promise<void>;
}
