// `apply`'s writes, through the registry's batch publish route (the SDK sends it in chunks of at most
// 500 items under the body limit): every version published (`POST /schema-versions/bulk`), a missing
// dataset created with its first version in the same transaction, each dataset on its own and checked
// by the server against the report's base version and, unless the report calls it breaking, refused
// when the registry classes the change breaking.
import type { BulkPublishItem, CreateDataset, PublishColumn } from '@aide/schemas';
import type { AideClient } from '@aide/sdk';
import type { ApplyItem } from '../commands/apply.js';
import type { DatasetDiff } from '../diff/diff.js';
import type { CrawlReport } from '../report/report.js';
import type { CompatibilityCheck } from '@aide/schemas';
import { AideApiError } from '@aide/sdk';
import { CrawlerError, throwIfInterrupted } from '../errors.js';
import { levelCheckOf } from './compatibility.js';
import { registryCall, registryFailure } from './client.js';
import type { TableVersion } from './model.js';

export interface PublishOutcome {
  /**
   * object_name → why it failed (other than a stale base, which turns the item `stale`): the map
   * given, which also holds the failures so far when an interrupt stops the publishing.
   */
  failures: Map<string, string>;
}

/** Flavor code → id, for the placements that name a flavor of their own. */
export type FlavorIds = ReadonlyMap<string, string>;

/**
 * The dataset a `create` item makes: a placed dataset (non-database sources) from its placement — its
 * kind, object_name and the kind's attributes, and the id of its own flavor when it names one — else
 * the rdbms dataset of the table.
 */
export function createBody(
  systemId: string,
  report: CrawlReport,
  diff: DatasetDiff,
  flavorIds: FlavorIds = new Map(),
): CreateDataset {
  const { placement } = diff;
  if (placement !== undefined) {
    // The system's own flavor needs no mention (the dataset inherits it).
    const own = placement.flavor === undefined || placement.flavor === report.system.flavor;
    const flavorId = own ? undefined : flavorIds.get(placement.flavor as string);
    return {
      ...placement.attributes,
      kind: placement.kind,
      system_id: systemId,
      object_name: placement.object_name,
      ...(flavorId === undefined ? {} : { flavor_id: flavorId }),
    } as CreateDataset;
  }
  const kind = diff.target?.table_kind;
  return {
    kind: 'rdbms',
    system_id: systemId,
    object_name: diff.object_name,
    catalog_name: report.source.database === '' ? null : report.source.database,
    schema_name: diff.schema,
    table_name: diff.table,
    is_view: kind === 'view' || kind === 'materialized_view',
    pk_columns: diff.target?.primary_key?.columns ?? null,
  };
}

/** The publish body of a version: every column attribute and the table's structure. */
export function publishBody(version: TableVersion): Omit<BulkPublishItem, 'dataset_id' | 'base_version_num'> {
  return {
    columns: version.columns.map((c): PublishColumn => ({
      name: c.name,
      nullable: c.nullable,
      type: c.type,
      native_type: c.native_type,
      default: c.default,
      comment: c.comment,
      identity: c.identity,
      generated: c.generated,
      collation: c.collation,
    })),
    table_kind: version.table_kind,
    table_comment: version.table_comment,
    view_definition: version.view_definition,
    primary_key: version.primary_key,
    unique_constraints: version.unique_constraints,
    foreign_keys: version.foreign_keys.map((fk) => ({
      name: fk.name,
      columns: fk.columns,
      referenced: {
        schema: fk.referenced.schema,
        table: fk.referenced.table,
        columns: fk.referenced.columns,
      },
      on_update: fk.on_update,
      on_delete: fk.on_delete,
    })),
    indexes: version.indexes,
    check_constraints: version.check_constraints,
  };
}

/**
 * The ids of the flavors the new datasets' placements name (one lookup per distinct code). A flavor the
 * registry does not have fails the datasets naming it (in `failures`), not the apply.
 */
async function placementFlavors(
  client: AideClient,
  created: readonly DatasetDiff[],
  failures: Map<string, string>,
): Promise<FlavorIds> {
  const codes = [
    ...new Set(created.flatMap((d) => (d.placement?.flavor === undefined ? [] : [d.placement.flavor]))),
  ];
  const ids = new Map<string, string>();
  for (const code of codes) {
    const page = await registryCall(`look up flavor '${code}'`, () =>
      client.systemFlavors.list({ code, size: 1 }),
    );
    const flavor = page.items[0];
    if (flavor !== undefined) ids.set(code, flavor.id);
  }
  for (const diff of created) {
    const code = diff.placement?.flavor;
    if (code !== undefined && !ids.has(code)) {
      failures.set(
        diff.object_name,
        `SYSTEM_FLAVOR_NOT_FOUND: the registry has no flavor '${code}' (seed it)`,
      );
    }
  }
  return ids;
}

/**
 * Publishes the `create` and `publish` items of a plan in one batch route, updating each item with its
 * dataset id, the version written, the registry's classification of the change and, when the server
 * found the base stale, `stale`. A new dataset is created with its first version in one transaction:
 * a version the registry refuses leaves no dataset behind (ADR 0037). An item the report calls
 * compatible is sent with `refuse_breaking`: the registry classifies the change itself and refuses it
 * when it is breaking, so a report whose labels were edited cannot publish a breaking change that its
 * reviewer was shown as compatible. A version its dataset's compatibility level refuses fails with
 * the registry's violations in the item's `level_check`; with `forceReason` (superusers) every item
 * carries it and such a version is published, the reason kept in its history.
 */
export async function applyItems(
  client: AideClient,
  systemId: string,
  report: CrawlReport,
  items: ApplyItem[],
  failures = new Map<string, string>(),
  signal?: AbortSignal,
  forceReason?: string,
): Promise<PublishOutcome> {
  const diffs = new Map(report.datasets.map((d) => [d.object_name, d]));
  const diffOf = (item: ApplyItem) => diffs.get(item.object_name) as DatasetDiff;
  const flavorIds = await placementFlavors(
    client,
    items.filter((i) => i.action === 'create').map(diffOf),
    failures,
  );

  // A `create` whose name was registered since the report was read is sent again, by the id the
  // registry answers with, with no base version: as when it was created first and then published.
  const registered = new Set<ApplyItem>();
  let round = items.filter(
    (i) =>
      (i.action === 'create' || (i.action === 'publish' && i.dataset_id !== null)) &&
      !failures.has(i.object_name),
  );
  while (round.length > 0) {
    const sent = round;
    round = [];
    const published = await publishCall(forceReason, () =>
      client.datasets.bulkPublish(
        sent.map((item): BulkPublishItem => {
          const diff = diffOf(item);
          return {
            ...(item.action === 'create' && !registered.has(item)
              ? { dataset: createBody(systemId, report, diff, flavorIds) }
              : { dataset_id: item.dataset_id as string }),
            base_version_num: item.base_version_num,
            // Only a change the report shows as breaking may be one: never looser than the label.
            refuse_breaking: diff.compatibility !== 'breaking',
            ...publishBody(diff.target as TableVersion),
            ...(forceReason === undefined ? {} : { force_reason: forceReason }),
          };
        }),
      ),
    );
    published.items.forEach((r, i) => {
      const item = sent[i];
      if (r.dataset_id !== null) item.dataset_id = r.dataset_id;
      item.compatibility = r.compatibility;
      const existing = r.error?.details?.['dataset_id'];
      if (r.status === 'created') {
        item.version_num = r.version_num;
      } else if (r.status === 'unchanged') {
        item.action = 'already_applied';
        item.version_num = r.version_num;
      } else if (r.error?.error_code === 'VERSION_CONFLICT') {
        item.action = 'stale';
        item.detail = `the registry moved past the report's base version (${r.error.detail}): crawl again`;
      } else if (
        r.error?.error_code === 'DATASET_ALREADY_EXISTS' &&
        typeof existing === 'string' &&
        !registered.has(item)
      ) {
        item.dataset_id = existing;
        registered.add(item);
        round.push(item);
      } else if (r.error?.error_code === 'DATASET_SCHEMA_BREAKING_CHANGE') {
        item.compatibility = 'breaking';
        failures.set(
          item.object_name,
          `${r.error.error_code}: ${r.error.detail} The report calls the change ` +
            `${diffOf(item).compatibility ?? 'unclassified'}: crawl again and review it`,
        );
      } else if (r.error?.error_code === 'DATASET_SCHEMA_INCOMPATIBLE') {
        // `details` is the check's verdict: the level and every violation.
        const check = r.error.details as CompatibilityCheck | undefined;
        if (check !== undefined && Array.isArray(check.violations)) {
          item.level_check = levelCheckOf(check);
          // The level and each violation are shown from `level_check`.
          failures.set(item.object_name, r.error.error_code);
        } else {
          failures.set(item.object_name, `${r.error.error_code}: ${r.error.detail}`);
        }
      } else if (r.error?.status === 403 && forceReason !== undefined) {
        failures.set(item.object_name, `${r.error.error_code}: ${r.error.detail} ${FORCE_REFUSED}`);
      } else {
        failures.set(item.object_name, `${r.error?.error_code ?? 'FAILED'}: ${r.error?.detail ?? ''}`);
      }
    });
    // A batch in flight is written (each dataset with its version, or not at all); an interrupt stops
    // the apply once it is answered.
    throwIfInterrupted(signal);
  }
  return { failures };
}

const FORCE_REFUSED = '(--force-reason is for superusers only: apply as one, or fix the change)';

/** The publish request; a 403 to a forced publish says that forcing is for superusers. */
async function publishCall<T>(forceReason: string | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const failure = registryFailure('publish the new versions', error);
    const cause = (error as { cause?: unknown }).cause ?? error;
    const forbidden = (e: unknown) => e instanceof AideApiError && e.status === 403;
    if (forceReason !== undefined && (forbidden(error) || forbidden(cause))) {
      throw new CrawlerError(`${failure.message} ${FORCE_REFUSED}`, { cause: error });
    }
    throw failure;
  }
}
