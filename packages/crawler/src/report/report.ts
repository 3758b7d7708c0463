// The crawl report: what `crawl` prints (`--format json`) and what `apply` reads. A versioned format
// (REPORT_FORMAT_VERSION; bump it on an incompatible change) holding, per dataset, the base version the
// changes were computed from and the version to publish, so `apply` needs nothing but the registry.
import { CHANGE_CATEGORIES, type ChangeCategory, type DatasetDiff } from '../diff/diff.js';
import type {
  ApproximateType,
  InspectedDatabase,
  InspectionFilters,
  SourceProblem,
  UnmappedType,
} from '../model.js';

export const REPORT_FORMAT = 'aide-crawler.report';
export const REPORT_FORMAT_VERSION = 1;

export interface ReportSystem {
  id: string;
  code: string;
  /** The system's flavor code: one of its source driver's flavors. */
  flavor: string;
}

export interface ReportSummary {
  datasets: { new: number; changed: number; removed: number; unchanged: number };
  changes: { total: number; compatible: number; breaking: number };
  /** Changes per category, only the categories that occur. */
  by_category: Partial<Record<ChangeCategory, number>>;
  unmapped_columns: number;
}

export interface CrawlReport {
  format: typeof REPORT_FORMAT;
  format_version: typeof REPORT_FORMAT_VERSION;
  crawler_version: string;
  generated_at: string;
  /** The crawl run that produced the report (the audit record `apply` adds to). */
  crawl_run_id: string | null;
  system: ReportSystem;
  source: {
    /** The source driver's name (`postgresql`, …). */
    dialect: string;
    server: InspectedDatabase['server'];
    database: string;
    filters: InspectionFilters;
  };
  /** Datasets with differences (new, changed, removed), sorted by schema then table. */
  datasets: DatasetDiff[];
  unmapped_types: UnmappedType[];
  approximate_types: ApproximateType[];
  /** What the source could not read (a corrupt file), as the inspection reported it; absent when none. */
  problems?: SourceProblem[];
  summary: ReportSummary;
}

export function summarize(diffs: readonly DatasetDiff[], unmappedColumns: number): ReportSummary {
  const summary: ReportSummary = {
    datasets: { new: 0, changed: 0, removed: 0, unchanged: 0 },
    changes: { total: 0, compatible: 0, breaking: 0 },
    by_category: {},
    unmapped_columns: unmappedColumns,
  };
  const counts = new Map<ChangeCategory, number>();
  for (const diff of diffs) {
    summary.datasets[diff.status]++;
    for (const change of diff.changes) {
      summary.changes.total++;
      summary.changes[change.compatibility]++;
      counts.set(change.category, (counts.get(change.category) ?? 0) + 1);
    }
  }
  for (const category of CHANGE_CATEGORIES) {
    const n = counts.get(category);
    if (n !== undefined) summary.by_category[category] = n;
  }
  return summary;
}

export interface BuildReportInput {
  db: InspectedDatabase;
  system: ReportSystem;
  crawlRunId: string | null;
  diffs: readonly DatasetDiff[];
  crawlerVersion: string;
  now?: Date;
}

export function buildReport(input: BuildReportInput): CrawlReport {
  const { db } = input;
  return {
    format: REPORT_FORMAT,
    format_version: REPORT_FORMAT_VERSION,
    crawler_version: input.crawlerVersion,
    generated_at: (input.now ?? new Date()).toISOString(),
    crawl_run_id: input.crawlRunId,
    system: input.system,
    source: { dialect: db.dialect, server: db.server, database: db.database, filters: db.filters },
    datasets: input.diffs.filter((d) => d.status !== 'unchanged'),
    unmapped_types: db.unmapped_types,
    approximate_types: db.approximate_types,
    ...(db.problems === undefined || db.problems.length === 0 ? {} : { problems: db.problems }),
    summary: summarize(input.diffs, db.summary.unmapped_columns),
  };
}

/** Whether the report has anything for `--check` to fail on. */
export function hasDifferences(report: CrawlReport): boolean {
  return report.datasets.length > 0;
}
