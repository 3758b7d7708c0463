// The registry's compatibility check (ADR 0048): would each proposed version be accepted by its
// dataset's level? One bulk request per 500 datasets (`POST /schema-versions/check`), writing nothing.
// `crawl` puts the verdicts in its report, `apply --dry-run` beside its plan. A registry that predates
// the route (404) is not an error: the verdicts are then "not checked".
import type { CompatibilityCheck, CompatibilityLevel, CompatibilityViolation } from '@aide/schemas';
import { AideApiError, AideBatchError, type AideClient } from '@aide/sdk';
import { registryCall } from './client.js';
import { publishBody } from './publish.js';
import type { TableVersion } from './model.js';

/** A violation as the report and `apply` show it: the registry's own, unchanged. */
export type LevelViolation = CompatibilityViolation;

/** What a dataset's compatibility level makes of its proposed version. */
export interface LevelCheck {
  /** The level applied (the effective one); null when the dataset could not be checked. */
  level: CompatibilityLevel | null;
  /** Where the level comes from: the dataset's own, its system's default, or the registry's. */
  source: CompatibilityCheck['source'] | null;
  /** true: a publish would pass the level; false: refused; null: not checked (see `error`). */
  accepted: boolean | null;
  /** The earlier versions compared (the latest, or every one for a _TRANSITIVE level). */
  compared_versions: number[];
  violations: LevelViolation[];
  /** Why the dataset could not be checked (`CODE: detail`), else null. */
  error: string | null;
}

/** The verdicts of one bulk check, by dataset id; or why none was made. */
export type LevelChecks =
  { status: 'checked'; checks: Map<string, LevelCheck> } | { status: 'not_checked'; reason: string };

/** A dataset to check: its id and the version it would be published with. */
export interface LevelCheckItem {
  dataset_id: string;
  version: TableVersion;
}

/** The registry's answer for a route it does not serve: an older registry, without levels. */
function routeMissing(error: unknown): boolean {
  const cause = error instanceof AideBatchError ? error.cause : error;
  return cause instanceof AideApiError && cause.status === 404;
}

export function levelCheckOf(check: CompatibilityCheck): LevelCheck {
  return {
    level: check.level,
    source: check.source,
    accepted: check.accepted,
    compared_versions: check.compared_versions,
    violations: check.violations,
    error: null,
  };
}

/**
 * Asks the registry whether each item's version would be accepted by its dataset's level. An empty
 * list asks nothing. A registry without the route answers `not_checked`; any other failure throws.
 */
export async function checkLevels(
  client: AideClient,
  items: readonly LevelCheckItem[],
  signal?: AbortSignal,
): Promise<LevelChecks> {
  const checks = new Map<string, LevelCheck>();
  if (items.length === 0) return { status: 'checked', checks };
  const result = await registryCall('check the compatibility levels', async () => {
    try {
      return await client.compatibility.checkSchemaVersions(
        items.map((item) => ({ dataset_id: item.dataset_id, ...publishBody(item.version) })),
        { signal },
      );
    } catch (error) {
      if (routeMissing(error)) return null;
      throw error;
    }
  });
  if (result === null) {
    return {
      status: 'not_checked',
      reason:
        'the registry has no compatibility check (POST /api/v1/schema-versions/check): an older version',
    };
  }
  for (const item of result.items) {
    const datasetId = items[item.index]?.dataset_id ?? item.dataset_id;
    checks.set(
      datasetId,
      item.check !== null
        ? levelCheckOf(item.check)
        : {
            level: null,
            source: null,
            accepted: null,
            compared_versions: [],
            violations: [],
            error: `${item.error?.error_code ?? 'FAILED'}: ${item.error?.detail ?? ''}`,
          },
    );
  }
  return { status: 'checked', checks };
}

/** One violation in one line: `v3 backward COLUMN_ADDED_REQUIRED "email": reason`. */
export function violationText(v: LevelViolation): string {
  const name = v.name === null ? '' : ` ${JSON.stringify(v.name)}`;
  return `v${v.version_num} ${v.direction} ${v.rule}${name}: ${v.reason}`;
}

/** A verdict in a few words: `BACKWARD (dataset): refused, 2 violations`. */
export function levelCheckText(check: LevelCheck): string {
  if (check.accepted === null) return `not checked: ${check.error ?? 'no answer'}`;
  const verdict = check.accepted
    ? 'accepted'
    : `REFUSED, ${check.violations.length} violation${check.violations.length === 1 ? '' : 's'}`;
  return `${check.level ?? '?'} (${check.source ?? '?'}): ${verdict}`;
}
