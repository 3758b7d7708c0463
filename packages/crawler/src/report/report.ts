// The crawl report: what `crawl` prints (`--format json`) and what `apply` reads. A versioned format
// (REPORT_FORMAT_VERSION; bump it on an incompatible change) holding, per dataset, the base version the
// changes were computed from and the version to publish, so `apply` needs nothing but the registry.
// Since the compatibility levels (ADR 0048), a changed dataset also carries its level's verdict
// (`level_check`) and the report the outcome of the check (`compatibility_check`): both optional
// additions that readers of version 1 ignore, so the format version stays 1.
import { CHANGE_CATEGORIES, type ChangeCategory, type DatasetDiff } from '../diff/diff.js';
import type {
  ApproximateType,
  InspectedDatabase,
  InspectionFilters,
  SourceProblem,
  UnmappedType,
} from '../model.js';
import type { LevelCheck, LevelChecks } from '../registry/compatibility.js';

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

/** A dataset of the report: its diff and, for a changed one, what its compatibility level makes of it. */
export interface ReportDataset extends DatasetDiff {
  /** The registry's verdict on the proposed version; absent for new and removed datasets, or when not checked. */
  level_check?: LevelCheck;
}

/** Whether the registry checked the changed datasets against their compatibility levels, and what it said. */
export interface CompatibilityCheckSummary {
  /** `not_checked`: the registry has no check route (an older registry); `reason` says so. */
  status: 'checked' | 'not_checked';
  reason: string | null;
  /** Changed datasets a publish would pass, would be refused by their level, or that could not be checked. */
  accepted: number;
  refused: number;
  failed: number;
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
  datasets: ReportDataset[];
  /** The compatibility check of the changed datasets (absent from reports of older crawlers). */
  compatibility_check?: CompatibilityCheckSummary;
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
  /** The registry's verdicts on the changed datasets (none asked: the field is left out). */
  levelChecks?: LevelChecks;
  now?: Date;
}

/** The check's outcome over the report's datasets. */
function checkSummary(checks: LevelChecks): CompatibilityCheckSummary {
  if (checks.status === 'not_checked') {
    return { status: 'not_checked', reason: checks.reason, accepted: 0, refused: 0, failed: 0 };
  }
  const summary: CompatibilityCheckSummary = {
    status: 'checked',
    reason: null,
    accepted: 0,
    refused: 0,
    failed: 0,
  };
  for (const check of checks.checks.values()) {
    if (check.accepted === null) summary.failed++;
    else if (check.accepted) summary.accepted++;
    else summary.refused++;
  }
  return summary;
}

export function buildReport(input: BuildReportInput): CrawlReport {
  const { db, levelChecks } = input;
  const verdicts = levelChecks?.status === 'checked' ? levelChecks.checks : undefined;
  const datasets = input.diffs
    .filter((d) => d.status !== 'unchanged')
    .map((d): ReportDataset => {
      const check = d.dataset_id === null ? undefined : verdicts?.get(d.dataset_id);
      return check === undefined ? d : { ...d, level_check: check };
    });
  return {
    format: REPORT_FORMAT,
    format_version: REPORT_FORMAT_VERSION,
    crawler_version: input.crawlerVersion,
    generated_at: (input.now ?? new Date()).toISOString(),
    crawl_run_id: input.crawlRunId,
    system: input.system,
    source: { dialect: db.dialect, server: db.server, database: db.database, filters: db.filters },
    datasets,
    ...(levelChecks === undefined ? {} : { compatibility_check: checkSummary(levelChecks) }),
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

/** Whether a changed dataset's proposed version would be refused by its compatibility level. */
export function refusedByLevel(report: CrawlReport): boolean {
  return report.datasets.some((d) => d.level_check?.accepted === false);
}
