// `aide-crawler apply <report.json>`: publishes a reviewed crawl report — the new versions, a new
// dataset created with its first version, through the registry's batch publish route. Each dataset is
// checked against the version the report was computed from: one that moved since is refused on its
// own, the others apply. A dataset that already holds the report's version is skipped, so re-running a
// report does nothing. What is shown and recorded of a change's class is the registry's own
// classification, never the report's label (ADR 0037). A change its dataset's compatibility level
// refuses (ADR 0048) is refused by the registry with every violation, shown here; `--dry-run` asks the
// registry's check route for the same verdicts, and `--force-reason` publishes past them (superusers).
import { readFile } from 'node:fs/promises';
import { diffVersions, type Compatibility, type DatasetDiff } from '../diff/diff.js';
import { CrawlerError, ExitCode, throwIfInterrupted } from '../errors.js';
import { MAX_DIFF_PAYLOAD_BYTES } from './crawl.js';
import { globMatches } from '../inspect/filters.js';
import type { Io } from '../io.js';
import { displayName } from '../output/text.js';
import { connectRegistry, CrawlRunRecord, registryCall, type RegistryFlags } from '../registry/client.js';
import { datasetKey, type DatasetRef, type RegistryDataset } from '../registry/model.js';
import { checkLevels, levelCheckText, violationText, type LevelCheck } from '../registry/compatibility.js';
import { applyItems, type PublishOutcome } from '../registry/publish.js';
import { readReported } from '../registry/snapshot.js';
import { REPORT_FORMAT, REPORT_FORMAT_VERSION, type CrawlReport } from '../report/report.js';

export interface ApplyCommandOptions extends RegistryFlags {
  only?: string;
  dryRun?: boolean;
  /**
   * Read the registry's whole snapshot instead of the fingerprint listing and then only the report's
   * versions (ADR 0032). The same plan; for comparison and old registries.
   */
  fullRegistryRead?: boolean;
  /**
   * Publish even the changes the datasets' compatibility levels refuse, with this reason kept in each
   * version's history (superusers only: the registry answers 403 to anyone else).
   */
  forceReason?: string;
}

/** What happens to one dataset of the report. */
export type ApplyAction =
  | 'create' // a new dataset and its first version
  | 'publish' // a new version of a registered dataset
  | 'already_applied' // the registry already holds the report's version
  | 'stale' // the registry moved past the report's base version: refused
  | 'kept'; // removed from the database: reported only, never deleted

export interface ApplyItem extends DatasetRef {
  action: ApplyAction;
  dataset_id: string | null;
  base_version_num: number | null;
  /** The registry's current version when it is not the base (stale), or the version published. */
  version_num: number | null;
  /** The registry's classification of the change it published (null: nothing published). */
  compatibility: Compatibility | null;
  /**
   * What the dataset's compatibility level makes of the version: the check's verdict (`--dry-run`) or
   * the registry's refusal (DATASET_SCHEMA_INCOMPATIBLE); null when not asked or not refused.
   */
  level_check: LevelCheck | null;
  detail: string | null;
}

export interface ApplyResult {
  crawl_run_id: string | null;
  dry_run: boolean;
  items: ApplyItem[];
  /** `failed` includes `incompatible`: the items refused by their compatibility level. */
  summary: Record<ApplyAction | 'failed' | 'incompatible', number>;
  /** `--dry-run`: why the registry could not check the levels (an older registry), else null. */
  level_check_skipped: string | null;
  /** `--force-reason`: publishes past the compatibility levels (superusers), else null. */
  force_reason: string | null;
}

/** Reads and checks a report file. */
export async function readReport(path: string): Promise<CrawlReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CrawlerError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  let report: Partial<CrawlReport>;
  try {
    report = JSON.parse(text) as Partial<CrawlReport>;
  } catch {
    throw new CrawlerError(`${path} is not JSON: write the report with crawl --format json -o ${path}`);
  }
  if (report.format !== REPORT_FORMAT) {
    throw new CrawlerError(`${path} is not a crawl report (crawl --format json writes one)`);
  }
  if (report.format_version !== REPORT_FORMAT_VERSION) {
    throw new CrawlerError(
      `${path} has report format version ${String(report.format_version)}; this aide-crawler reads version ` +
        `${REPORT_FORMAT_VERSION}: crawl again with this version`,
    );
  }
  if (!Array.isArray(report.datasets) || typeof report.system?.id !== 'string') {
    throw new CrawlerError(`${path} is an incomplete crawl report`);
  }
  return report as CrawlReport;
}

/** The datasets `--only` selects (object names or globs, comma-separated); every pattern must match. */
function selectDatasets(report: CrawlReport, only: string | undefined): DatasetDiff[] {
  if (only === undefined) return report.datasets;
  const patterns = only
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const unmatched = patterns.filter((p) => !report.datasets.some((d) => globMatches(p, d.object_name)));
  if (unmatched.length > 0) {
    throw new CrawlerError(`--only names datasets the report has no changes for: ${unmatched.join(', ')}`, {
      exitCode: ExitCode.USAGE,
    });
  }
  return report.datasets.filter((d) => patterns.some((p) => globMatches(p, d.object_name)));
}

/** Decides, from the registry's current state, what to do with each selected dataset. */
export function planApply(
  datasets: readonly DatasetDiff[],
  registry: readonly RegistryDataset[],
): ApplyItem[] {
  const current = new Map(registry.map((d) => [datasetKey(d), d]));
  return datasets.map((diff): ApplyItem => {
    const now = current.get(datasetKey(diff));
    const base = {
      ...(diff.kind === undefined ? {} : { kind: diff.kind }),
      object_name: diff.object_name,
      schema: diff.schema,
      table: diff.table,
      dataset_id: now?.dataset_id ?? diff.dataset_id,
      base_version_num: diff.base_version_num,
      compatibility: null,
      level_check: null,
    };
    if (diff.target === null) {
      return {
        ...base,
        action: 'kept',
        version_num: now?.version_num ?? null,
        detail: 'apply never deletes',
      };
    }
    if (
      now?.version !== undefined &&
      now.version !== null &&
      diffVersions(now.version, diff.target).length === 0
    ) {
      return { ...base, action: 'already_applied', version_num: now.version_num, detail: null };
    }
    const currentNum = now?.version_num ?? null;
    if (currentNum !== diff.base_version_num) {
      const from = diff.base_version_num === null ? 'no version' : `v${diff.base_version_num}`;
      const to = currentNum === null ? 'no version' : `v${currentNum}`;
      return {
        ...base,
        action: 'stale',
        version_num: currentNum,
        detail: `the registry moved from ${from} (the report's base) to ${to}: crawl again`,
      };
    }
    return { ...base, action: now === undefined ? 'create' : 'publish', version_num: null, detail: null };
  });
}

/**
 * The apply run's `diff_payload`: each dataset's outcome and version; past MAX_DIFF_PAYLOAD_BYTES
 * (10,000 datasets would pass the server's body limit) only the refused and failed ones, marked truncated.
 */
export function appliedPayload(
  items: readonly ApplyItem[],
  failures: ReadonlyMap<string, string>,
): Record<string, unknown> {
  const entry = (i: ApplyItem) => ({
    object_name: i.object_name,
    action: i.action,
    dataset_id: i.dataset_id,
    version_num: i.version_num,
    compatibility: i.compatibility,
    level_check:
      i.level_check === null
        ? null
        : {
            level: i.level_check.level,
            accepted: i.level_check.accepted,
            violations: i.level_check.violations.length,
          },
    failed: failures.get(i.object_name) ?? null,
  });
  const all = { applied: items.map(entry) };
  if (JSON.stringify(all).length <= MAX_DIFF_PAYLOAD_BYTES) return all;
  const problems = items.filter((i) => i.action === 'stale' || failures.has(i.object_name)).slice(0, 1000);
  return { applied: problems.map(entry), truncated: true };
}

/** An item a compatibility level refuses: by the registry's publish, or by its check in a dry run. */
export const refusedByLevel = (item: ApplyItem): boolean => item.level_check?.accepted === false;

/** A dry run's item that its level would refuse, with no `--force-reason` to publish it anyway. */
const wouldBeRefused = (item: ApplyItem, dryRun: boolean, forced: boolean): boolean =>
  dryRun && !forced && refusedByLevel(item);

function summarizeApply(
  items: readonly ApplyItem[],
  failures: ReadonlyMap<string, string>,
  dryRun: boolean,
  forced: boolean,
): ApplyResult['summary'] {
  const summary = {
    create: 0,
    publish: 0,
    already_applied: 0,
    stale: 0,
    kept: 0,
    failed: 0,
    incompatible: 0,
  };
  for (const item of items) {
    // A dry run's refusals are the check's verdicts: nothing failed, but the apply would refuse them.
    if (wouldBeRefused(item, dryRun, forced)) summary.incompatible++;
    else if (failures.has(item.object_name)) {
      summary.failed++;
      if (refusedByLevel(item)) summary.incompatible++;
    } else summary[item.action]++;
  }
  return summary;
}

const ACTION_TEXT: Record<ApplyAction, string> = {
  create: 'created',
  publish: 'published',
  already_applied: 'already applied',
  stale: 'REFUSED (stale)',
  kept: 'kept',
};

function renderApply(result: ApplyResult, failures: ReadonlyMap<string, string>): string {
  const lines: string[] = [];
  for (const item of result.items) {
    const name = displayName(item);
    const failure = failures.get(item.object_name);
    const action =
      failure !== undefined
        ? 'FAILED'
        : wouldBeRefused(item, result.dry_run, result.force_reason !== null)
          ? 'would be REFUSED (level)'
          : result.dry_run
            ? `would be ${ACTION_TEXT[item.action]}`
            : ACTION_TEXT[item.action];
    const version = item.version_num === null ? '' : ` v${item.version_num}`;
    // The registry's class of what it published (or refused), never the report's label.
    const compatibility = item.compatibility === null ? '' : ` (${item.compatibility})`;
    const level = item.level_check === null ? null : `level ${levelCheckText(item.level_check)}`;
    const detail = [failure ?? item.detail, level].filter((d) => d !== null).join('; ');
    lines.push(
      `${action.padEnd(18)} ${name}${version}${compatibility}${detail === '' ? '' : `  — ${detail}`}`,
    );
    for (const v of item.level_check?.violations ?? [])
      lines.push(`${''.padEnd(18)}   violation  ${violationText(v)}`);
  }
  if (result.level_check_skipped !== null) {
    lines.push('', `Compatibility not checked: ${result.level_check_skipped}`);
  }
  const s = result.summary;
  lines.push(
    '',
    `${result.dry_run ? 'Dry run (nothing written): ' : ''}${s.create} created, ${s.publish} published, ` +
      `${s.already_applied} already applied, ${s.stale} refused as stale, ${s.failed} failed, ${s.kept} removed datasets kept`,
  );
  if (s.incompatible > 0) {
    lines.push(
      `${s.incompatible} ${result.dry_run ? 'would be ' : ''}refused by their compatibility level ` +
        '(a superuser may publish them with --force-reason)',
    );
  }
  return `${lines.join('\n')}\n`;
}

export interface ApplyOutcome {
  result: ApplyResult;
  exitCode: ExitCode;
  /** HTTP requests sent to the registry (the benchmark reports them). */
  registryRequests: number;
}

export async function apply(reportPath: string, options: ApplyCommandOptions, io: Io): Promise<ApplyOutcome> {
  const report = await readReport(reportPath);
  const selected = selectDatasets(report, options.only);
  const forceReason = forceReasonOf(options);
  const registry = connectRegistry(options, io);
  const { client } = registry;
  const { signal } = io;
  try {
    const system = await registryCall(`read system '${report.system.code}'`, () =>
      client.systems.get(report.system.id, { signal }),
    ).catch(interrupted(signal));
    const registered = await readReported(
      client,
      system.id,
      selected,
      options.fullRegistryRead === true,
      signal,
    ).catch(interrupted(signal));
    const items = planApply(selected, registered);
    // Interrupted before anything is written: nothing to record.
    throwIfInterrupted(signal);
    const failures = new Map<string, string>();
    const dryRun = options.dryRun ?? false;
    let levelCheckSkipped: string | null = null;
    if (dryRun) {
      // What the datasets' levels make of the versions, as the publish would find it (nothing written).
      const published = items.filter(
        (i) => i.action === 'publish' && i.dataset_id !== null && i.base_version_num !== null,
      );
      const diffs = new Map(selected.map((d) => [d.object_name, d]));
      const checks = await checkLevels(
        client,
        published.flatMap((i) => {
          const target = diffs.get(i.object_name)?.target;
          return target === null || target === undefined
            ? []
            : [{ dataset_id: i.dataset_id as string, version: target }];
        }),
        signal,
      ).catch(interrupted(signal));
      if (checks.status === 'not_checked') levelCheckSkipped = checks.reason;
      else
        for (const item of published) item.level_check = checks.checks.get(item.dataset_id as string) ?? null;
    }
    let run: CrawlRunRecord | null = null;
    if (!dryRun && items.some((i) => i.action === 'create' || i.action === 'publish')) {
      run = await CrawlRunRecord.start(client, system.id, {
        command: 'apply',
        report_crawl_run_id: report.crawl_run_id,
        only: options.only ?? null,
        ...(forceReason === undefined ? {} : { force_reason: forceReason }),
      });
      try {
        // A batch in flight is not cut short (its datasets are written or not, each on its own);
        // an interrupt stops the apply before the next batch. After the last one, it completes.
        const outcome: PublishOutcome = await applyItems(
          client,
          system.id,
          report,
          items,
          failures,
          signal,
          forceReason,
        );
        for (const [name, message] of outcome.failures) failures.set(name, message);
      } catch (error) {
        await run.fail(error, io, appliedPayload(items, failures));
        throw error;
      }
    }
    const result: ApplyResult = {
      crawl_run_id: run?.id ?? null,
      dry_run: dryRun,
      items,
      summary: summarizeApply(items, failures, dryRun, forceReason !== undefined),
      level_check_skipped: levelCheckSkipped,
      force_reason: forceReason ?? null,
    };
    if (run !== null) {
      try {
        await run.complete(
          { ...result.summary, report_crawl_run_id: report.crawl_run_id },
          appliedPayload(items, failures),
        );
      } catch (error) {
        await run.fail(error, io);
        throw error;
      }
    }
    io.stdout(renderApply(result, failures));
    // A dry run's refusals by level fail it too (CI of a migration), unless they are to be forced.
    const incompatible = result.summary.incompatible > 0;
    const refused = result.summary.stale > 0 || failures.size > 0;
    return {
      result,
      exitCode: incompatible ? ExitCode.INCOMPATIBLE : refused ? ExitCode.FAILURE : ExitCode.OK,
      registryRequests: registry.requests(),
    };
  } finally {
    await registry.close();
  }
}

/** `--force-reason`, trimmed; an empty one is a usage error (the registry would refuse it). */
function forceReasonOf(options: ApplyCommandOptions): string | undefined {
  if (options.forceReason === undefined) return undefined;
  const reason = options.forceReason.trim();
  if (reason === '' || reason.length > 2000) {
    throw new CrawlerError('--force-reason needs a reason of 1 to 2000 characters', {
      exitCode: ExitCode.USAGE,
    });
  }
  return reason;
}

/** Rethrows a failure as the interrupt when the signal caused it (an aborted registry read). */
function interrupted(signal: AbortSignal | undefined): (error: unknown) => never {
  return (error) => {
    throwIfInterrupted(signal);
    throw error;
  };
}

export async function runApply(reportPath: string, options: ApplyCommandOptions, io: Io): Promise<ExitCode> {
  return (await apply(reportPath, options, io)).exitCode;
}
