// The crawler's sources behind one small interface (DESIGN §5, issue 24 §2): one module per source,
// registered in sources/registry.ts. A driver parses its connection URL, reads the source into the
// versioned inspection model (model.ts) and names the flavor its native types are normalised to.
// Databases report schemas and tables; files, schema registries and lakehouses report datasets as
// tables too, with a `placement` that says which dataset kind and attributes they become.
import type { InspectedDatabase, InspectionFilters } from '../model.js';

/** A parsed connection URL, whatever the source. Never print the raw URL: print `redacted`. */
export interface SourceTarget {
  /** The driver's name (`postgresql`, `files`, `kafka_schemas`, …): the inspection's `dialect`. */
  source: string;
  /** The URL with every secret replaced by `***`. */
  redacted: string;
  /** Secrets that must never appear in output, to scrub from library messages. */
  secrets: string[];
}

export interface SourceInspectOptions {
  filters: InspectionFilters;
  /** Stops the inspection: work in flight is cancelled and the signal's reason thrown. */
  signal?: AbortSignal;
}

/** One source module. Adding a source is one driver plus one line in sources/registry.ts. */
export interface SourceDriver<Target extends SourceTarget = SourceTarget> {
  /** The driver's name, also the inspection's `dialect`. */
  readonly name: string;
  /** The URL schemes it owns, lower case, without `://` (`sftp`, `kafka+file`, `schema-registry+https`). */
  readonly schemes: readonly string[];
  /**
   * The flavors a system crawled through this driver may have (`postgres14`; `storage_files`,
   * `sftp_files`; `avro`, `json_schema`, `protobuf`). The inspection's `flavor` is one of them.
   */
  readonly flavors: readonly string[];
  /** The URL forms for `--help` and the docs, one per line (`file:///path/to/folder`). */
  readonly usage: readonly string[];
  /** Parses a URL of one of its schemes; throws CrawlerError (usage, exit 2) on a malformed one. */
  parse(url: string): Target;
  /** Reads the source; throws CrawlerError (runtime, exit 1) when it cannot be reached at all. */
  inspect(target: Target, options: SourceInspectOptions): Promise<InspectedDatabase>;
}
