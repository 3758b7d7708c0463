import type { FieldTransformation } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { ActiveLink } from '../dataset-links/dataset-link-batch.js';
import { FieldLinkBatch, type LinkedField } from '../field-links/field-link-batch.js';
import { sameTransformations } from '../field-links/field-transformations.js';
import { FieldsLookup } from '../fields/fields.lookup.js';
import { type Entry, key, ref, type Result, type Skip } from './openlineage-entries.js';
import { type NamedField, OpenLineageRepository } from './openlineage.repository.js';
import { datasetInputTransformations, transformationsOf } from './openlineage-transformations.js';

/** One field of an event's dataset, as the answer names it. */
interface FieldRef {
  namespace: string;
  name: string;
  field: string;
}

/** A column-lineage edge (output field ← input field) inside the dataset link of its two datasets. */
interface Wanted {
  link: ActiveLink;
  source: Entry;
  target: Entry;
  sourceField: string;
  targetField: string;
  /** As the facet gives them (canonical); `given` false: the event says nothing about them. */
  transformations: FieldTransformation[];
  given: boolean;
}

/** The same with its two root fields, where they exist. */
interface Resolved extends Wanted {
  sf: NamedField | undefined;
  tf: NamedField | undefined;
}

/** A field link to create. */
interface Plan {
  dataset_link_id: string;
  source_field_id: string;
  target_field_id: string;
  transformations: FieldTransformation[];
  source: FieldRef;
  target: FieldRef;
}

/** An existing field link whose transformations the event changes. */
interface Change {
  id: string;
  transformations: FieldTransformation[];
}

const refOf = (e: Entry, field: string): FieldRef => ({ ...ref(e), field });

/** A field link's identity: its dataset link, source field and target field (ADR 0052). */
const edgeOf = (l: { dataset_link_id: string; source_field_id: string; target_field_id: string }) =>
  `${l.dataset_link_id}/${l.source_field_id}/${l.target_field_id}`;

const byEdge = (links: readonly LinkedField[]) => new Map(links.map((l) => [edgeOf(l), l]));

/**
 * `columnLineage` facets of the outputs: each output field ← input field inside the link of their two
 * datasets becomes a field link under the original's rules (both fields exist as root fields, both
 * bound in the link's pinned versions, the target `mapped`), with its transformations. Every input
 * field of an output field is kept — a target may have several sources (ADR 0052). An edge already
 * stored is confirmed, or updated when the event gives other transformations; the intake never removes
 * an edge. What is not linked is reported in `result.skipped`, with the reason; the facet's
 * dataset-level inputs are reported in `result.dataset_field_inputs`.
 */
@Injectable()
export class OpenLineageFieldLinks {
  constructor(
    private readonly repo: OpenLineageRepository,
    private readonly fieldLinkBatch: FieldLinkBatch,
    private readonly fieldsLookup: FieldsLookup,
  ) {}

  async apply(
    entries: readonly Entry[],
    links: ReadonlyMap<string, ActiveLink>,
    actor: AuthUser,
    m: EntityManager,
    result: Result,
  ): Promise<void> {
    reportDatasetInputs(entries, result);
    const wanted = wantedFieldLinks(entries, links, result);
    if (wanted.length === 0) return;
    // One read: the fields by name, their bindings in the pinned versions, the edges already stored.
    const state = await this.repo.fieldStates(
      wanted.flatMap((w) => [
        { datasetId: w.link.source_dataset_id, name: w.sourceField, schemaId: w.link.source_schema_id },
        { datasetId: w.link.target_dataset_id, name: w.targetField, schemaId: w.link.target_schema_id },
      ]),
      [...new Set(wanted.map((w) => w.link.id))],
      m,
    );
    const bound = new Set(state.fields.filter((f) => f.bound).map((f) => `${f.id}/${f.schema_id}`));
    const existing = byEdge(state.links);
    let resolved = resolveFields(wanted, state.fields);
    // Edges to create: their fields are locked (FOR SHARE) and read again, and the rules checked on what
    // is locked, as a write needs; an edge already stored is answered without locking anything.
    const fresh = resolved.filter((r) => writes(r, bound, existing));
    if (fresh.length > 0) {
      const locked = await this.fieldsLookup.lockRootsByName(
        fresh.flatMap((r) => [
          { datasetId: r.link.source_dataset_id, name: r.sourceField },
          { datasetId: r.link.target_dataset_id, name: r.targetField },
        ]),
        m,
      );
      const relocked = new Map(resolveFields(fresh, locked).map((r, i) => [fresh[i], r]));
      resolved = resolved.map((r) => relocked.get(r) ?? r);
    }
    const { plans, changes } = planFieldLinks(resolved, bound, existing, result);
    await this.fieldLinkBatch.setTransformations(changes, actor.id, m);
    await this.insert(plans, actor, m, result);
  }

  /**
   * Inserts the planned field links and answers each: created, or confirmed (a concurrent writer linked
   * the same edge meanwhile: its transformations are kept).
   */
  private async insert(
    plans: readonly Plan[],
    actor: AuthUser,
    m: EntityManager,
    result: Result,
  ): Promise<void> {
    const inserted = byEdge(
      await this.fieldLinkBatch.insertMany(
        plans.map(({ dataset_link_id, source_field_id, target_field_id, transformations }) => ({
          dataset_link_id,
          source_field_id,
          target_field_id,
          transformations,
        })),
        actor.id,
        m,
      ),
    );
    const raced = plans.some((p) => !inserted.has(edgeOf(p)))
      ? byEdge(await this.fieldLinkBatch.ofLinks([...new Set(plans.map((p) => p.dataset_link_id))], m))
      : new Map<string, LinkedField>();
    for (const p of plans) {
      const edge = edgeOf(p);
      const row = inserted.get(edge) ?? raced.get(edge);
      if (!row) throw new Error('openlineage: a field link was neither inserted nor found');
      result.field_links.push({
        field_link_id: row.id,
        dataset_link_id: p.dataset_link_id,
        source_field: p.source.field,
        target_field: p.target.field,
        status: inserted.has(edge) ? 'created' : 'confirmed',
        transformations: row.transformations,
      });
    }
  }
}

/**
 * The facet's dataset-level inputs (1-2-0 `dataset`: fields that affect the whole output, e.g. a FILTER
 * or JOIN column), reported as sent: a field link needs a target field, so they are not stored.
 */
function reportDatasetInputs(entries: readonly Entry[], result: Result): void {
  for (const output of entries.filter((e) => e.role === 'output')) {
    const facet = output.dataset?.facets?.columnLineage;
    if (!facet || facet._deleted || !facet.dataset) continue;
    for (const raw of facet.dataset) {
      const { namespace, name, field } = raw;
      if (typeof namespace !== 'string' || typeof name !== 'string' || typeof field !== 'string') continue;
      (result.dataset_field_inputs ??= []).push({
        source: { namespace, name, field },
        target: ref(output),
        transformations: datasetInputTransformations(raw),
      });
    }
  }
}

/**
 * The outputs' column-lineage edges between matched datasets, each in the dataset link of its two
 * datasets; an edge whose datasets have no link is skipped (NO_DATASET_LINK). An unknown or ambiguous
 * dataset is reported once, in `datasets`, not per column.
 */
function wantedFieldLinks(
  entries: readonly Entry[],
  links: ReadonlyMap<string, ActiveLink>,
  result: Result,
): Wanted[] {
  const entryOf = new Map(
    entries.filter((e) => e.role === 'input').map((e) => [key(e.namespace, e.name), e]),
  );
  const wanted: Wanted[] = [];
  for (const output of entries.filter((e) => e.role === 'output')) {
    const facet = output.dataset?.facets?.columnLineage;
    if (!facet || facet._deleted || !facet.fields) continue;
    for (const [targetField, fieldEntry] of Object.entries(facet.fields)) {
      for (const input of fieldEntry.inputFields) {
        const source = entryOf.get(key(input.namespace, input.name)) as Entry;
        const s = source.answer.dataset_id;
        const t = output.answer.dataset_id;
        if (!s || !t) continue;
        const link = links.get(`${s}/${t}`);
        if (!link) {
          result.skipped.push({
            kind: 'field_link',
            reason: 'NO_DATASET_LINK',
            detail: 'The two datasets have no dataset link (see the dataset-link entries skipped).',
            source: refOf(source, input.field),
            target: refOf(output, targetField),
          });
          continue;
        }
        const { given, list } = transformationsOf(input, fieldEntry);
        wanted.push({
          link,
          source,
          target: output,
          sourceField: input.field,
          targetField,
          transformations: list,
          given,
        });
      }
    }
  }
  return wanted;
}

/**
 * Each edge's two root fields among `fields` (those of its datasets by name): the exact name, else the
 * one field whose name differs only in case.
 */
function resolveFields(wanted: readonly Wanted[], fields: readonly NamedField[]): Resolved[] {
  const fieldKey = (datasetId: string, name: string) => `${datasetId}/${name.toLowerCase()}`;
  const fieldsOf = new Map<string, NamedField[]>();
  for (const f of fields) {
    const k = fieldKey(f.dataset_id, f.name);
    const same = fieldsOf.get(k) ?? [];
    // A field read once per version asked for is one field.
    if (!same.some((x) => x.id === f.id)) same.push(f);
    fieldsOf.set(k, same);
  }
  const fieldOf = (datasetId: string, name: string): NamedField | undefined => {
    const found = fieldsOf.get(fieldKey(datasetId, name)) ?? [];
    return found.find((f) => f.name === name) ?? (found.length === 1 ? found[0] : undefined);
  };
  return wanted.map((w) => ({
    ...w,
    sf: fieldOf(w.link.source_dataset_id, w.sourceField),
    tf: fieldOf(w.link.target_dataset_id, w.targetField),
  }));
}

/** Whether planning writes this edge: it keeps the rules and is not stored yet. */
function writes(
  r: Resolved,
  bound: ReadonlySet<string>,
  existing: ReadonlyMap<string, LinkedField>,
): boolean {
  const checked = checkRules(r, bound);
  return (
    checked.ok &&
    !existing.has(
      edgeOf({ dataset_link_id: r.link.id, source_field_id: checked.sf.id, target_field_id: checked.tf.id }),
    )
  );
}

/** Both fields found, both bound in the link's pinned versions, the target `mapped`: or the rule broken. */
function checkRules(
  r: Resolved,
  bound: ReadonlySet<string>,
): { ok: true; sf: NamedField; tf: NamedField } | { ok: false; reason: Skip['reason']; detail: string } {
  if (!r.sf || !r.tf) {
    return {
      ok: false,
      reason: 'FIELD_NOT_FOUND',
      detail: `No field ${r.sf ? r.targetField : r.sourceField} in the ${r.sf ? 'output' : 'input'} dataset.`,
    };
  }
  if (
    !bound.has(`${r.sf.id}/${r.link.source_schema_id}`) ||
    !bound.has(`${r.tf.id}/${r.link.target_schema_id}`)
  ) {
    return {
      ok: false,
      reason: 'FIELD_BINDING_MISSING',
      detail: "A field is not bound in the link's pinned schema version.",
    };
  }
  if (r.tf.origin !== 'mapped') {
    return {
      ok: false,
      reason: 'FIELD_ORIGIN_CONFLICT',
      detail: `The target field's origin is ${r.tf.origin}, not mapped.`,
    };
  }
  return { ok: true, sf: r.sf, tf: r.tf };
}

/**
 * The field links to create, one per (link, source, target) edge — every source of a target is kept; an
 * edge already stored is answered once, `confirmed`, or `updated` when the event gives other
 * transformations; one that breaks a rule is skipped with the reason. An edge listed twice in the event
 * is taken once (its first listing).
 */
function planFieldLinks(
  resolved: readonly Resolved[],
  bound: ReadonlySet<string>,
  existing: ReadonlyMap<string, LinkedField>,
  result: Result,
): { plans: Plan[]; changes: Change[] } {
  const toCreate = new Map<string, Plan>();
  const changes: Change[] = [];
  const answered = new Set<string>();
  for (const r of resolved) {
    const checked = checkRules(r, bound);
    if (!checked.ok) {
      result.skipped.push({
        kind: 'field_link',
        reason: checked.reason,
        detail: checked.detail,
        source: refOf(r.source, r.sourceField),
        target: refOf(r.target, r.targetField),
      });
      continue;
    }
    const { sf, tf } = checked;
    const edge = edgeOf({ dataset_link_id: r.link.id, source_field_id: sf.id, target_field_id: tf.id });
    if (answered.has(edge) || toCreate.has(edge)) continue;
    const present = existing.get(edge);
    if (present) {
      answered.add(edge);
      const changed = r.given && !sameTransformations(present.transformations, r.transformations);
      if (changed) changes.push({ id: present.id, transformations: r.transformations });
      result.field_links.push({
        field_link_id: present.id,
        dataset_link_id: r.link.id,
        source_field: sf.name,
        target_field: tf.name,
        status: changed ? 'updated' : 'confirmed',
        transformations: changed ? r.transformations : present.transformations,
      });
      continue;
    }
    toCreate.set(edge, {
      dataset_link_id: r.link.id,
      source_field_id: sf.id,
      target_field_id: tf.id,
      transformations: r.transformations,
      source: refOf(r.source, sf.name),
      target: refOf(r.target, tf.name),
    });
  }
  return { plans: [...toCreate.values()], changes };
}
