import { jsonEqual } from './json-equal.js';
import type { CastSafety, ParamMapping } from './cast-mapping.js';
import type { CastSeedFile, KindSeedFile, SeedFile } from './seed-file.js';

/** A stored system kind, by natural key `code`. */
export interface ExistingKindRow {
  id?: string;
  code: string;
  name: string;
  deleted: boolean;
}

/** A stored system flavor, by natural key `code`. */
export interface ExistingFlavorRow {
  id?: string;
  code: string;
  name: string;
  vendor: string | null;
  versions: string[] | null;
  kind_code: string;
  deleted: boolean;
}

/** A stored data type, by natural key `(flavor_code, code)`. */
export interface ExistingDataTypeRow {
  id?: string;
  flavor_code: string;
  code: string;
  params_schema: unknown;
  render_template: string | null;
  description: string | null;
  deleted: boolean;
}

/** The stored reference data a seed file is compared with (deleted rows included). */
export interface ExistingSeedState {
  kinds: readonly ExistingKindRow[];
  flavors: readonly ExistingFlavorRow[];
  dataTypes: readonly ExistingDataTypeRow[];
}

/** The values a seed file owns for each entity. */
export interface KindValues {
  code: string;
  name: string;
}
export interface FlavorValues {
  code: string;
  name: string;
  vendor: string | null;
  versions: string[];
  kind_code: string;
}
export interface DataTypeValues {
  flavor_code: string;
  code: string;
  params_schema: unknown;
  render_template: string | null;
  /** Absent when the file does not own the description. */
  description?: string | null;
}

/** One row of a plan: what to write, and (for updates and restores) which owned attributes differ. */
export type SeedRowChange =
  | { entity: 'kind'; key: string; existingId?: string; values: KindValues; changed: string[] }
  | { entity: 'flavor'; key: string; existingId?: string; values: FlavorValues; changed: string[] }
  | { entity: 'data_type'; key: string; existingId?: string; values: DataTypeValues; changed: string[] };

/** The diff between stored reference data and a seed file. Nothing is ever deleted. */
export interface SeedPlan {
  inserted: SeedRowChange[];
  updated: SeedRowChange[];
  unchanged: SeedRowChange[];
  /** Soft-deleted rows the file brings back (with its values applied). */
  restored: SeedRowChange[];
  /** e.g. `+3 ~1 =48 restored 1` (kind, flavor and data types together). */
  summary: string;
}

type Status = 'inserted' | 'updated' | 'unchanged' | 'restored';

/**
 * Plans an idempotent seed run (aide-original §5.3): each row of the file is inserted (no row with its
 * natural key), restored (only a soft-deleted row; the file's values are applied), updated (an active
 * row differs on an owned attribute) or unchanged. Owned attributes: kind `name`; flavor `name`,
 * `vendor`, `versions`, kind; data type `params_schema` (compared as JSON, key order ignored),
 * `render_template`, and `description` when the file sets it.
 */
export function planSeed(existing: ExistingSeedState, desired: SeedFile): SeedPlan {
  const plan = emptyPlan();
  const kind = desired.kind;
  // A kind named by code only is owned by its kind file, not by this one.
  if (kind.name !== undefined) addKind(plan, existing.kinds, { code: kind.code, name: kind.name });

  const flavorValues: FlavorValues = { ...desired.flavor, kind_code: kind.code };
  const flavorRow = pick(existing.flavors.filter((row) => row.code === flavorValues.code));
  add(plan, 'flavor', flavorValues.code, flavorRow, flavorValues, (row) =>
    differences([
      ['name', row.name, flavorValues.name],
      ['vendor', row.vendor, flavorValues.vendor],
      ['versions', row.versions ?? [], flavorValues.versions],
      ['kind', row.kind_code, flavorValues.kind_code],
    ]),
  );

  for (const type of desired.types) {
    const values: DataTypeValues = {
      flavor_code: flavorValues.code,
      code: type.code,
      params_schema: type.params_schema,
      render_template: type.render_template,
      ...(type.description !== undefined ? { description: type.description } : {}),
    };
    const rows = existing.dataTypes.filter(
      (row) => row.flavor_code === values.flavor_code && row.code === values.code,
    );
    add(plan, 'data_type', `${values.flavor_code}.${values.code}`, pick(rows), values, (row) =>
      differences([
        ['params_schema', row.params_schema, values.params_schema],
        ['render_template', row.render_template, values.render_template],
        ...(values.description !== undefined
          ? [['description', row.description, values.description] as Comparison]
          : []),
      ]),
    );
  }
  plan.summary = summarize(plan);
  return plan;
}

/** Plans an idempotent run of a kind seed file: each kind inserted, updated (`name`), restored or unchanged. */
export function planKindSeed(existing: readonly ExistingKindRow[], desired: KindSeedFile): SeedPlan {
  const plan = emptyPlan();
  for (const kind of desired.kinds) addKind(plan, existing, kind);
  plan.summary = summarize(plan);
  return plan;
}

function addKind(plan: SeedPlan, existing: readonly ExistingKindRow[], kind: KindValues): void {
  const row = pick(existing.filter((r) => r.code === kind.code));
  add(plan, 'kind', kind.code, row, { code: kind.code, name: kind.name }, (r) =>
    r.name === kind.name ? [] : ['name'],
  );
}

/** A stored cast rule, by natural key (source flavor, source code, target flavor, target code). */
export interface ExistingCastRuleRow {
  id?: string;
  source: { flavor: string; code: string };
  target: { flavor: string; code: string };
  safety: CastSafety;
  param_mapping: ParamMapping;
}

/** One cast rule of a cast plan. */
export interface CastRuleChange {
  key: string;
  existingId?: string;
  values: {
    source: { flavor: string; code: string };
    target: { flavor: string; code: string };
    safety: CastSafety;
    param_mapping: ParamMapping;
  };
  changed: string[];
}

/** The diff between stored cast rules and a cast seed file (cast rules are not soft-deleted). */
export interface CastSeedPlan {
  inserted: CastRuleChange[];
  updated: CastRuleChange[];
  unchanged: CastRuleChange[];
  /** e.g. `cast rules: +2 ~0 =21`. */
  summary: string;
}

/** Plans an idempotent cast-rule seed run: upsert by (source, target), `safety` and `param_mapping` owned. */
export function planCastSeed(existing: readonly ExistingCastRuleRow[], desired: CastSeedFile): CastSeedPlan {
  const plan: CastSeedPlan = { inserted: [], updated: [], unchanged: [], summary: '' };
  const byKey = new Map(existing.map((row) => [castKey(row), row]));
  for (const rule of desired.mappings) {
    const key = castKey(rule);
    const row = byKey.get(key);
    const change: CastRuleChange = { key, values: rule, changed: [] };
    if (row === undefined) {
      plan.inserted.push(change);
      continue;
    }
    if (row.id !== undefined) {
      change.existingId = row.id;
    }
    change.changed = differences([
      ['safety', row.safety, rule.safety],
      ['param_mapping', row.param_mapping, rule.param_mapping],
    ]);
    (change.changed.length > 0 ? plan.updated : plan.unchanged).push(change);
  }
  plan.summary = `cast rules: +${plan.inserted.length} ~${plan.updated.length} =${plan.unchanged.length}`;
  return plan;
}

type Comparison = [string, unknown, unknown];

interface AnyExistingRow {
  id?: string;
  deleted: boolean;
}

function add<Row extends AnyExistingRow, E extends SeedRowChange['entity']>(
  plan: SeedPlan,
  entity: E,
  key: string,
  row: Row | undefined,
  values: Extract<SeedRowChange, { entity: E }>['values'],
  diff: (row: Row) => string[],
): void {
  const change = { entity, key, values, changed: [] as string[] } as Extract<SeedRowChange, { entity: E }>;
  let status: Status;
  if (row === undefined) {
    status = 'inserted';
  } else {
    if (row.id !== undefined) {
      change.existingId = row.id;
    }
    change.changed = diff(row);
    status = row.deleted ? 'restored' : change.changed.length > 0 ? 'updated' : 'unchanged';
  }
  plan[status].push(change);
}

/** The active row if there is one, else a soft-deleted one (to restore). */
function pick<Row extends AnyExistingRow>(rows: readonly Row[]): Row | undefined {
  return rows.find((row) => !row.deleted) ?? rows[0];
}

function differences(comparisons: Comparison[]): string[] {
  return comparisons.filter(([, stored, wanted]) => !jsonEqual(stored, wanted)).map(([name]) => name);
}

function castKey(rule: {
  source: { flavor: string; code: string };
  target: { flavor: string; code: string };
}): string {
  return `${rule.source.flavor}.${rule.source.code} -> ${rule.target.flavor}.${rule.target.code}`;
}

function emptyPlan(): SeedPlan {
  return { inserted: [], updated: [], unchanged: [], restored: [], summary: '' };
}

function summarize(plan: SeedPlan): string {
  return `+${plan.inserted.length} ~${plan.updated.length} =${plan.unchanged.length} restored ${plan.restored.length}`;
}
