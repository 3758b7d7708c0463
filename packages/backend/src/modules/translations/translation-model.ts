// The translation model (ADR 0049): a stored version cast, node by node, into the target flavor through
// the cast rules. Pure: the service loads the version and the rules (a fixed number of queries for the
// whole version) and this turns them into the `TranslatedTable` every renderer reads, with the wire's
// per-column report and the omissions that do not depend on the output format.
import type { SchemaVersion, TranslatedColumn as WireColumn, TypeInstanceTree } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';
import {
  type CastCandidate,
  type CastGaps,
  type CastOutcome,
  resolveCast,
} from '../cast-rules/cast-resolver.js';
import { renderTypeText, type TypeTreeNode } from '../type-instances/type-tree.js';
import type { DataTypeEntity } from '../data-types/data-type.entity.js';
import { paramNamesOf, type ParamsJsonSchema } from '../type-system/params-schema.js';
import { RenderBudget } from '../type-system/render-budget.js';
import type { Omissions, TranslatedColumn, TranslatedTable, TranslatedType } from './translated-table.js';

/** The dataset the version belongs to, as the output names it. */
export interface TranslationTarget {
  name: string;
  namespace: string | null;
  flavor: string;
  partition_columns: string[];
}

export interface TranslationModel {
  table: TranslatedTable;
  /** Every column in order, its nested fields after it (the wire's `columns`). */
  columns: WireColumn[];
}

/** The cast rules into the target flavor, by source data type, and its "no mapping" reasons. */
export interface CastRules {
  bySource: ReadonlyMap<string, CastCandidate[]>;
  gaps: CastGaps;
}

/** A column without a mapping is an omission, never an error: these are the cast's "no mapping" answers. */
const NO_MAPPING = new Set([
  'CAST_RULE_NOT_RESOLVABLE',
  'CAST_RULE_AMBIGUOUS',
  'TYPE_INSTANCE_PARAMS_INVALID',
]);
const NOT_RENDERED = new Set(['TYPE_INSTANCE_RENDER_FAILED', 'TEMPLATE_RENDER_LIMIT']);

/** Every data type id in the version's type trees: the sources the cast rules are read for. */
export function sourceTypeIds(version: SchemaVersion): string[] {
  const ids = new Set<string>();
  const walk = (n: TypeInstanceTree): void => {
    ids.add(n.data_type_id);
    n.children.forEach(walk);
  };
  for (const c of version.columns) if (c.type) walk(c.type);
  return [...ids];
}

/**
 * Into its own flavor a version casts each type to itself, params kept: identity rules, exact, built from
 * the flavor's data types (the cast matrix holds no rule from a type to itself).
 */
export function identityCandidates(types: Iterable<DataTypeEntity>): Map<string, CastCandidate[]> {
  const bySource = new Map<string, CastCandidate[]>();
  for (const t of types) {
    const names = paramNamesOf(t.params_schema as unknown as ParamsJsonSchema);
    const rule = {
      id: t.id,
      source_data_type_id: t.id,
      target_data_type_id: t.id,
      param_mapping: Object.fromEntries(names.map((n) => [n, `@${n}`])),
      safety: 'implicit',
      fidelity: 'exact',
      loss: [],
      target_code: t.code,
      target_params_schema: t.params_schema,
      target_render_template: t.render_template,
    } as unknown as CastCandidate;
    bySource.set(t.id, [rule]);
  }
  return bySource;
}

/** A stored tree as the cast resolver reads it (the source's templates are not needed to cast). */
function toNode(tree: TypeInstanceTree): TypeTreeNode {
  return {
    id: tree.id,
    data_type_id: tree.data_type_id,
    code: tree.data_type_code,
    render_template: null,
    type_params: tree.type_params,
    slot: tree.slot,
    children: tree.children.map(toNode),
  };
}

/** `column.field` for a struct field, `column[]` for an element, `column.key`/`.value` for a map. */
function childPath(parent: string, slot: string | null): string {
  if (slot === null) return parent;
  if (slot === 'element' || slot === 'item') return `${parent}[]`;
  if (slot.startsWith('field:')) return `${parent}.${slot.slice('field:'.length)}`;
  return `${parent}.${slot}`;
}

function appErrorOf(error: unknown): AppError | null {
  return error instanceof AppError ? error : null;
}

/**
 * Builds the translated type of a cast outcome, and appends its nested fields to the report (each cast
 * on its own for its fidelity and loss). `sources` maps a target node's id back to its source node.
 */
function translatedType(
  target: TypeTreeNode,
  source: TypeTreeNode,
  path: string,
  rules: CastRules,
  budget: RenderBudget,
  report: WireColumn[],
): TranslatedType {
  const sourceChildren = new Map(source.children.map((c) => [c.id, c]));
  const children = target.children.map((child) => {
    const from = sourceChildren.get(child.id) as TypeTreeNode;
    const nested = childPath(path, child.slot);
    const outcome = resolveCast(from, rules.bySource, rules.gaps);
    const entry: WireColumn = {
      path: nested,
      source_type: from.code,
      target_type: null,
      fidelity: outcome.fidelity,
      loss: outcome.loss,
    };
    report.push(entry);
    const type = translatedType(child, from, nested, rules, budget, report);
    entry.target_type = type.rendered;
    // Type trees carry no nullability of their own: a nested field may hold null.
    return { slot: child.slot, nullable: true, type };
  });
  return {
    code: target.code,
    params: target.type_params ?? {},
    rendered: renderTypeText(target, budget),
    children,
  };
}

/** The version cast into the target flavor. Columns without a mapping have `type: null` and an omission. */
export function buildTranslationModel(
  version: SchemaVersion,
  target: TranslationTarget,
  rules: CastRules,
  omissions: Omissions,
): TranslationModel {
  const budget = new RenderBudget();
  const report: WireColumn[] = [];
  const columns: TranslatedColumn[] = version.columns.map((column) => {
    const base: Omit<TranslatedColumn, 'type' | 'fidelity' | 'loss'> = {
      name: column.name,
      nullable: column.nullable,
      default: column.default,
      comment: column.comment,
      source_type: column.rendered_type,
      native_type: column.native_type,
    };
    const unmapped = (reason: string): TranslatedColumn => {
      omissions.add('column', column.name, reason);
      report.push({
        path: column.name,
        source_type: column.rendered_type,
        target_type: null,
        fidelity: null,
        loss: [],
      });
      return { ...base, type: null, fidelity: null, loss: [] };
    };
    if (column.type === null) {
      return unmapped(`The column has no data type (native type ${column.native_type ?? 'unknown'} only).`);
    }
    const source = toNode(column.type);
    let outcome: CastOutcome;
    try {
      outcome = resolveCast(source, rules.bySource, rules.gaps);
    } catch (error) {
      const e = appErrorOf(error);
      if (e && NO_MAPPING.has(e.code)) return unmapped(e.message);
      throw error;
    }
    // A default of a type with children (`'{}'` of an array) is written in the source's own notation.
    if (base.default !== null && source.children.length > 0) {
      omissions.add(
        'default',
        column.name,
        `DEFAULT ${base.default}: a ${source.code} literal in the source's notation.`,
      );
      base.default = null;
    }
    const entry: WireColumn = {
      path: column.name,
      source_type: column.rendered_type,
      target_type: null,
      fidelity: outcome.fidelity,
      loss: outcome.loss,
    };
    const at = report.push(entry);
    let type: TranslatedType;
    try {
      type = translatedType(outcome.root, source, column.name, rules, budget, report);
    } catch (error) {
      const e = appErrorOf(error);
      if (!e || !NOT_RENDERED.has(e.code)) throw error;
      report.splice(at - 1);
      return unmapped(`The cast type does not render in ${target.flavor}: ${e.message}`);
    }
    entry.target_type = type.rendered;
    return { ...base, type, fidelity: outcome.fidelity, loss: outcome.loss };
  });
  columnOmissions(version, omissions);
  return {
    table: {
      name: target.name,
      namespace: target.namespace,
      comment: version.table_comment,
      target_flavor: target.flavor,
      columns,
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
      })),
      partition_columns: target.partition_columns,
    },
    columns: report,
  };
}

/**
 * What no output format carries: identity and generated columns (their values come from the source
 * database), indexes and check constraints (access methods and expressions are the source's dialect).
 */
function columnOmissions(version: SchemaVersion, omissions: Omissions): void {
  for (const c of version.columns) {
    if (c.identity !== null) {
      omissions.add(
        'default',
        c.name,
        `Identity column (${c.identity}): the target column does not generate values.`,
      );
    }
    if (c.generated !== null) {
      omissions.add(
        'default',
        c.name,
        `Generated column (${c.generated}): the target column is a plain column.`,
      );
    }
  }
  for (const i of version.indexes) {
    omissions.add(
      'index',
      i.name,
      "Indexes are not translated (access methods and expressions are the source's).",
    );
  }
  for (const k of version.check_constraints) {
    omissions.add(
      'check',
      k.name,
      `Check constraints are not translated (the expression is the source's dialect): ${k.expression}`,
    );
  }
}
