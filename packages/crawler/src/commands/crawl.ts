// `aide-crawler crawl`: inspect the database while the registry's view of the system is read (a few
// bulk requests, after the run record), diff, ask the registry whether each changed dataset's level
// would accept its proposed version (one request per 500 datasets), report. It writes nothing to the
// registry but the crawl-run audit record; `apply` publishes a reviewed report.
import { diffSystem, type DatasetDiff } from '../diff/diff.js';
import { ExitCode, throwIfInterrupted } from '../errors.js';
import { VERSION } from '../version.js';
import { parseFilters, schemaSelected, tableSelected } from '../inspect/filters.js';
import type { Io } from '../io.js';
import type { InspectedDatabase } from '../model.js';
import { createProgress } from '../progress.js';
import { openSource, SOURCES, type SourceList } from '../sources/registry.js';
import { connectRegistry, CrawlRunRecord, resolveSystem, type RegistryFlags } from '../registry/client.js';
import type { DatasetRef, RegistryDataset } from '../registry/model.js';
import { checkLevels, type LevelChecks } from '../registry/compatibility.js';
import { readChanged, readRegistrySide } from '../registry/snapshot.js';
import { buildReport, hasDifferences, refusedByLevel, type CrawlReport } from '../report/report.js';
import { renderReportText } from '../report/text.js';
import {
  connectionUrlOf,
  filtersOf,
  jsonLayoutOf,
  writeJsonOutput,
  writeOutput,
  type DatabaseOptions,
  type OutputOptions,
} from './shared.js';

/** The options commander parsed for `crawl`. */
export interface CrawlCommandOptions extends DatabaseOptions, OutputOptions, RegistryFlags {
  systemCode: string;
  check?: boolean;
  /**
   * Read every registered version in full (the snapshot route) instead of the fingerprints first and
   * then only the versions that differ (ADR 0032). Same report; for comparison and old registries.
   */
  fullRegistryRead?: boolean;
}

/** What a crawl did, besides its report (the benchmark reads the counts). */
export interface CrawlOutcome {
  report: CrawlReport;
  exitCode: ExitCode;
  catalogQueries: number;
  registryRequests: number;
  /** Registry versions read in full: all of them with `fullRegistryRead`, else those whose fingerprint differed. */
  versionsRead: number;
  /**
   * Milliseconds of each phase. The inspection and the registry side (login, system lookup, run
   * record, then the fingerprints, or every version with `fullRegistryRead`) run at the same time,
   * each timed from the crawl's start; then the versions whose fingerprint differs are read (`fetch`,
   * 0 when none), then the diff.
   */
  timings: { inspect: number; registry: number; fetch: number; diff: number };
}

/** Beyond this size the crawl run keeps the summary counts only, not the changes. */
export const MAX_DIFF_PAYLOAD_BYTES = 256 * 1024;

/** The crawl run's `diff_payload`: each dataset's changes by category and class (the report has the values). */
function diffPayload(report: CrawlReport): Record<string, unknown> {
  const datasets = report.datasets.map((d) => ({
    object_name: d.object_name,
    status: d.status,
    dataset_id: d.dataset_id,
    base_version_num: d.base_version_num,
    compatibility: d.compatibility,
    level_check:
      d.level_check === undefined
        ? null
        : {
            level: d.level_check.level,
            accepted: d.level_check.accepted,
            violations: d.level_check.violations.length,
          },
    changes: d.changes.map((c) => ({ category: c.category, name: c.name, compatibility: c.compatibility })),
  }));
  const payload = { format: report.format, format_version: report.format_version, datasets };
  if (JSON.stringify(payload).length <= MAX_DIFF_PAYLOAD_BYTES) return payload;
  return { format: report.format, format_version: report.format_version, truncated: true };
}

/**
 * Registered datasets the crawl looked at: a table in an inspected schema and passing the table
 * filters; a dataset of another kind (named by its object_name alone) when no filter narrowed the crawl.
 */
function scopeOf(db: InspectedDatabase): (dataset: DatasetRef) => boolean {
  const filters = parseFilters(db.filters);
  const schemas = new Set(db.schemas);
  const { schemas: s, exclude_schemas: xs, tables: t, exclude_tables: xt } = db.filters;
  const unfiltered = s.length + xs.length + t.length + xt.length === 0;
  return ({ kind, schema, table }) =>
    kind !== undefined && kind !== 'rdbms'
      ? unfiltered
      : schemas.has(schema) && schemaSelected(filters, schema) && tableSelected(filters, schema, table);
}

/** Crawls the source the URL names (its driver from `sources`: the registry, or a test's list). */
export async function crawl(
  options: CrawlCommandOptions,
  io: Io,
  sources: SourceList = SOURCES,
): Promise<CrawlOutcome> {
  const connectionUrl = connectionUrlOf(options, io);
  const filters = filtersOf(options);
  // Usage errors (patterns, URL) before anything is recorded.
  parseFilters(filters);
  const { driver, target } = await openSource(connectionUrl, sources);
  const registry = connectRegistry(options, io);
  const { client } = registry;
  const progress = createProgress(io);
  const { signal } = io;
  try {
    // The database is inspected from the start: the registry's fixed costs (login, system lookup,
    // the run record) and its read run meanwhile. A crawl waits for the slower side, not their sum.
    progress.phase('inspecting the database and reading the registry', 2);
    const started = performance.now();
    let inspected = started;
    let read = started;
    let done = 0;
    // Stops the inspection when the registry side fails first (an unknown system: nothing recorded).
    const stopInspection = new AbortController();
    const inspectSignal =
      signal === undefined ? stopInspection.signal : AbortSignal.any([stopInspection.signal, signal]);
    // A database that cannot be read stops the registry read (not the run record: it is then marked
    // failed). An interrupt stops both; the catalog statement in flight is cancelled on the server.
    const registryRead = new AbortController();
    const registrySignal =
      signal === undefined ? registryRead.signal : AbortSignal.any([registryRead.signal, signal]);
    const inspection = driver
      .inspect(target, { filters, signal: inspectSignal })
      .catch((error: unknown) => {
        registryRead.abort();
        throw error;
      })
      .finally(() => {
        inspected = performance.now();
        progress.update(++done);
      });
    // Awaited when the registry side fails before the run is recorded, so that the inspection is not
    // left running; until the inspection is awaited below, it also handles the inspection's failure.
    const inspectionSettled = inspection.then(
      () => undefined,
      () => undefined,
    );
    let system: Awaited<ReturnType<typeof resolveSystem>>;
    let run: CrawlRunRecord;
    try {
      system = await resolveSystem(client, options.systemCode, driver);
      // Interrupted before anything is recorded: nothing to mark. A run whose record was requested
      // is marked failed below, however the interrupt falls.
      throwIfInterrupted(signal);
      run = await CrawlRunRecord.start(client, system.id, {
        connection_url: target.redacted,
        dialect: driver.name,
        filters,
        check: options.check ?? false,
      });
    } catch (error) {
      stopInspection.abort();
      await inspectionSettled;
      progress.stop();
      throw error;
    }
    try {
      // An interrupt by now has aborted the registry read: it fails at once.
      const [settled, snapshot] = await Promise.allSettled([
        inspection,
        readRegistrySide(client, system.id, options.fullRegistryRead === true, registrySignal).finally(() => {
          read = performance.now();
          progress.update(++done);
        }),
      ]);
      // Both settled, nothing left running: an interrupt first, then the database's failure, as when
      // they ran in turn.
      throwIfInterrupted(signal);
      if (settled.status === 'rejected') throw settled.reason;
      if (snapshot.status === 'rejected') throw snapshot.reason;
      const db = settled.value;
      const inScope = scopeOf(db);
      const fetchStarted = performance.now();
      let registered: RegistryDataset[];
      let versionsRead: number;
      if ('full' in snapshot.value) {
        registered = snapshot.value.full;
        versionsRead = registered.filter((d) => d.version !== null).length;
      } else {
        // Only the versions whose fingerprint differs from the inspected table's are read in full.
        const { heads } = snapshot.value;
        const changed = await readChanged(client, system.id, heads, db.tables, inScope, signal);
        registered = changed.registered;
        versionsRead = changed.fetched;
      }
      const compared = performance.now();
      progress.phase('comparing', 1);
      const diffs: DatasetDiff[] = diffSystem(db.tables, registered, inScope);
      const diffed = performance.now();
      throwIfInterrupted(signal);
      const levelChecks = await checkChanged(client, diffs, signal);
      const timings = {
        inspect: inspected - started,
        registry: read - started,
        fetch: compared - fetchStarted,
        diff: diffed - compared,
        check: performance.now() - diffed,
      };
      progress.stop();
      throwIfInterrupted(signal);
      const report = buildReport({
        db,
        system,
        crawlRunId: run.id,
        diffs,
        crawlerVersion: VERSION,
        levelChecks,
      });
      if (options.format === 'json')
        writeJsonOutput(options.output, report, 'Report', io, jsonLayoutOf(options));
      else await writeOutput(options.output, renderReportText(report), 'Report', io);
      // Counted before the run's own update, so a re-run with the same count is comparable.
      const registryRequests = registry.requests() + 1;
      await run.complete(
        {
          ...report.summary,
          catalog_queries: db.summary.catalog_queries,
          registry_requests: registryRequests,
        },
        diffPayload(report),
      );
      return {
        report,
        exitCode: checkExitCode(options, report),
        catalogQueries: db.summary.catalog_queries,
        registryRequests,
        versionsRead,
        timings,
      };
    } catch (error) {
      progress.stop();
      await run.fail(error, io);
      throw error;
    }
  } finally {
    await registry.close();
  }
}

/**
 * The registry's verdict on each changed dataset's proposed version: new datasets (nothing to be
 * compatible with) and removed ones (never deleted) are not asked about.
 */
function checkChanged(
  client: Parameters<typeof checkLevels>[0],
  diffs: readonly DatasetDiff[],
  signal: AbortSignal | undefined,
): Promise<LevelChecks> {
  const items = diffs.flatMap((d) =>
    d.status === 'changed' && d.dataset_id !== null && d.target !== null
      ? [{ dataset_id: d.dataset_id, version: d.target }]
      : [],
  );
  return checkLevels(client, items, signal);
}

/** `--check`: 4 when a level refuses a change, else 3 when there are differences; without it, 0. */
function checkExitCode(options: CrawlCommandOptions, report: CrawlReport): ExitCode {
  if (options.check !== true) return ExitCode.OK;
  if (refusedByLevel(report)) return ExitCode.INCOMPATIBLE;
  return hasDifferences(report) ? ExitCode.DIFFERENCES : ExitCode.OK;
}

export async function runCrawl(
  options: CrawlCommandOptions,
  io: Io,
  sources: SourceList = SOURCES,
): Promise<ExitCode> {
  return (await crawl(options, io, sources)).exitCode;
}
