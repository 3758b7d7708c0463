import type {
  CompatSeverity,
  DatasetLinkCompatQuery,
  DatasetLinkCompatReport,
  DatasetLinkCompatSummary,
  FieldCompatIssue,
  FieldCompatRow,
  Page,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import type { CastCandidate } from '../cast-rules/cast-resolver.js';
import {
  buildTypeTrees,
  renderTypeText,
  type TypeTreeNode,
  typeSignature,
} from '../type-instances/type-tree.js';
import { TypeInstancesLookup } from '../type-instances/type-instances.lookup.js';
import { RenderBudget } from '../type-system/render-budget.js';
import { compareTypes, pairKey, pairNodes, severityOf } from './compat.js';
import { type CompatFieldRow, type CompatLinkRow, CompatRepository } from './compat.repository.js';

export interface Computed {
  link: CompatLinkRow;
  rows: FieldCompatRow[];
  summary: { ok: number; warn: number; error: number; total: number };
  status: CompatSeverity;
}

const drift = (link: CompatLinkRow) => ({
  source: link.source_latest !== link.source_pinned,
  target: link.target_latest !== link.target_pinned,
});

/**
 * The ETL pre-flight (AIDE v2 §4.10) with types compared structurally and cast rules applied through
 * the cast resolver (`compat.ts`). Reports of any number of links cost the same four queries: links,
 * field rows with their pinned bindings and bound types' root nodes, data types, cast rules between the
 * pairs met; plus one recursive read of the trees that have children, when some do.
 */
@Injectable()
export class DatasetLinkCompatService {
  constructor(
    private readonly compat: CompatRepository,
    private readonly typeInstances: TypeInstancesLookup,
  ) {}

  async report(id: string): Promise<DatasetLinkCompatReport> {
    const [link] = await this.compat.linksByIds([id]);
    if (!link) throw new AppError('DATASET_LINK_NOT_FOUND');
    const [computed] = await this.compute([link], true);
    const { rows, summary, status } = computed;
    const side = (schemaId: string, pinned: number, latest: number) => ({
      schema_id: schemaId,
      pinned_version: pinned,
      latest_version: latest,
      has_drift: pinned !== latest,
    });
    return {
      dataset_link_id: link.id,
      pin_drift: {
        source: side(link.source_schema_id, link.source_pinned, link.source_latest),
        target: side(link.target_schema_id, link.target_pinned, link.target_latest),
      },
      field_compat: rows,
      summary,
      status,
    };
  }

  /**
   * Every active link's summary, filtered by dataset, system and drift in SQL. Without a status filter
   * the page is cut in SQL and only its links are computed; a status filter needs every candidate's
   * status, computed with the same fixed set of queries, then paged.
   */
  async summaries(query: DatasetLinkCompatQuery): Promise<Page<DatasetLinkCompatSummary>> {
    const statuses = query.status__in ?? (query.status ? [query.status] : undefined);
    const offset = (query.page - 1) * query.size;
    const filter = { dataset_id: query.dataset_id, system_id: query.system_id, has_drift: query.has_drift };
    let computed: Computed[];
    let total: number;
    if (statuses) {
      const { rows } = await this.compat.linksWhere(filter);
      const all = (await this.compute(rows, false)).filter((c) => statuses.includes(c.status));
      total = all.length;
      computed = all.slice(offset, offset + query.size);
    } else {
      const { rows, total: count } = await this.compat.linksWhere(filter, { offset, limit: query.size });
      total = count;
      computed = await this.compute(rows, false);
    }
    return {
      items: computed.map(({ link, summary, status }) => ({
        dataset_link_id: link.id,
        source_dataset: { id: link.source_dataset_id, object_name: link.source_name },
        target_dataset: { id: link.target_dataset_id, object_name: link.target_name },
        status,
        summary,
        pin_drift: drift(link),
        updated_at: new Date(link.updated_at).toISOString(),
      })),
      total,
      page: query.page,
      size: query.size,
      pages: Math.ceil(total / query.size),
    };
  }

  /**
   * The reports of the given links. `adjust` may replace rows and add trees before the comparison (the
   * impact preview puts a would-be version on one side); it gets the rows and the trees by id.
   */
  async compute(
    links: readonly CompatLinkRow[],
    render: boolean,
    adjust?: (rows: CompatFieldRow[], trees: Map<string, TypeTreeNode>) => CompatFieldRow[],
  ): Promise<Computed[]> {
    let fieldRows = await this.compat.fieldRows(links.map((l) => l.id));
    const trees = await this.treesOf(fieldRows);
    if (adjust) fieldRows = adjust(fieldRows, trees);
    const dataTypeIds = new Set<string>();
    const pairs = new Map<string, [string, string]>();
    for (const r of fieldRows) {
      if (!r.copies) continue;
      const s = r.source_type_id ? trees.get(r.source_type_id) : undefined;
      const t = r.target_type_id ? trees.get(r.target_type_id) : undefined;
      if (!s || !t) continue;
      pairNodes(s, t, (a, b) => {
        dataTypeIds.add(a.data_type_id);
        if (a.data_type_id !== b.data_type_id)
          pairs.set(pairKey(a.data_type_id, b.data_type_id), [a.data_type_id, b.data_type_id]);
      });
    }
    const [types, rules] = await Promise.all([
      this.compat.dataTypes([...dataTypeIds]),
      this.compat.rulesBetween([...pairs.values()]),
    ]);
    const typesById = new Map(types.map((t) => [t.id, t]));
    const rulesByPair = new Map<string, CastCandidate>(
      rules.map((r) => [pairKey(r.source_data_type_id, r.target_data_type_id), r]),
    );
    const budget = new RenderBudget();
    // Catalogues repeat their types: each distinct (source, target) pair of trees is compared once.
    const signatures = new Map<TypeTreeNode, string>();
    const signatureOf = (n: TypeTreeNode) => {
      let sig = signatures.get(n);
      if (sig === undefined) {
        sig = typeSignature(n);
        signatures.set(n, sig);
      }
      return sig;
    };
    const compared = new Map<string, ReturnType<typeof compareTypes>>();
    const compare = (s: TypeTreeNode, t: TypeTreeNode) => {
      const key = `${signatureOf(s)}|${signatureOf(t)}`;
      let outcome = compared.get(key);
      if (!outcome) {
        outcome = compareTypes(s, t, rulesByPair, typesById);
        compared.set(key, outcome);
      }
      return outcome;
    };
    const byLink = new Map<string, FieldCompatRow[]>();
    for (const r of fieldRows) {
      const row = this.row(r, trees, compare, render ? budget : undefined);
      const list = byLink.get(r.dataset_link_id);
      if (list) list.push(row);
      else byLink.set(r.dataset_link_id, [row]);
    }
    return links.map((link) => {
      const rows = byLink.get(link.id) ?? [];
      const summary = { ok: 0, warn: 0, error: 0, total: rows.length };
      for (const row of rows) summary[row.severity] += 1;
      const d = drift(link);
      const status: CompatSeverity =
        summary.error > 0 ? 'error' : summary.warn > 0 || d.source || d.target ? 'warn' : 'ok';
      return { link, rows, summary, status };
    });
  }

  /**
   * The bound type trees by root id: a root without children is complete as the field-row read gave
   * it; only the roots with children are read again, with their subtrees (one recursive query, skipped
   * when every bound type is scalar).
   */
  private async treesOf(fieldRows: readonly CompatFieldRow[]): Promise<Map<string, TypeTreeNode>> {
    const trees = new Map<string, TypeTreeNode>();
    const nested = new Set<string>();
    // Scalar roots of the same data type and params are one node, so that signatures, comparisons and
    // renders are computed once per distinct type rather than once per column.
    const scalars = new Map<string, TypeTreeNode>();
    for (const r of fieldRows) {
      for (const root of [r.source_root, r.target_root]) {
        if (!root || trees.has(root.id) || nested.has(root.id)) continue;
        if (root.nested) {
          nested.add(root.id);
          continue;
        }
        const key = `${root.data_type_id}\u0000${JSON.stringify(root.type_params)}`;
        let node = scalars.get(key);
        if (!node) {
          node = {
            id: root.id,
            data_type_id: root.data_type_id,
            code: root.code,
            render_template: root.render_template,
            type_params: root.type_params,
            slot: null,
            children: [],
          };
          scalars.set(key, node);
        }
        trees.set(root.id, node);
      }
    }
    if (nested.size > 0) {
      for (const [id, node] of buildTypeTrees(await this.typeInstances.subtrees([...nested]))) {
        if (nested.has(id)) trees.set(id, node);
      }
    }
    return trees;
  }

  private row(
    r: CompatFieldRow,
    trees: ReadonlyMap<string, TypeTreeNode>,
    compare: (s: TypeTreeNode, t: TypeTreeNode) => ReturnType<typeof compareTypes>,
    budget: RenderBudget | undefined,
  ): FieldCompatRow {
    const source = r.source_type_id ? trees.get(r.source_type_id) : undefined;
    const target = r.target_type_id ? trees.get(r.target_type_id) : undefined;
    const issues: FieldCompatIssue[] = [];
    let castRuleId: string | null = null;
    // A target that is no longer mapped (tech, deprecated) is not fed by the hop: nothing to check. A
    // link that does not copy the value (an aggregate, a filter column: ADR 0052) needs both columns
    // but casts nothing: its types are not compared.
    if (r.target_origin === 'mapped') {
      if (!source) issues.push('source_unbound');
      else if (!target) issues.push('target_unbound');
      else if (r.copies) {
        const outcome = compare(source, target);
        castRuleId = outcome.castRuleId;
        if (outcome.issue) issues.push(outcome.issue);
        if (r.source_nullable && r.target_nullable === false) issues.push('nullability_warn');
      }
    }
    return {
      field_link_id: r.id,
      source_field: { id: r.source_field_id, name: r.source_field_name },
      target_field: { id: r.target_field_id, name: r.target_field_name },
      source_type: source && budget ? renderTypeText(source, budget) : (source?.code ?? null),
      target_type: target && budget ? renderTypeText(target, budget) : (target?.code ?? null),
      cast_rule_id: castRuleId,
      issues,
      severity: severityOf(issues),
    };
  }
}
