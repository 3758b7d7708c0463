import type {
  OpenLineageDataset,
  OpenLineageEventType,
  OpenLineageIntakeResult,
  ParsedOpenLineageRunEvent,
} from '@aide/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import { Transactions } from '../../database/transactions.js';
import {
  databaseFits,
  databaseOf,
  lookupOf,
  namespacesOf,
  normalizeNamespace,
  type SystemNaming,
} from './openlineage-naming.js';
import { type ActiveLink, DatasetLinkBatch } from '../dataset-links/dataset-link-batch.js';
import { FieldLinkBatch, type LinkedField } from '../field-links/field-link-batch.js';
import { FieldsLookup } from '../fields/fields.lookup.js';
import { type DatasetRequest, type NamedField, OpenLineageRepository } from './openlineage.repository.js';

type Role = 'input' | 'output';
type Result = OpenLineageIntakeResult;
type DatasetEntry = Result['datasets'][number];
type Skip = Result['skipped'][number];

/** An input or output of the event with the identities it may be registered under. */
interface Entry {
  role: Role;
  namespace: string;
  name: string;
  /** The name first, then each symlink (SymlinksDatasetFacet). */
  identities: { namespace: string; name: string; label: string }[];
  dataset: OpenLineageDataset | null;
  answer: DatasetEntry;
}

/** Runs that did not complete write nothing: their inputs and outputs are reported only. */
const NOT_APPLIED: readonly OpenLineageEventType[] = ['FAIL', 'ABORT'];

const key = (namespace: string, name: string) => `${normalizeNamespace(namespace)}\u0000${name}`;
const ref = (e: { namespace: string; name: string }) => ({ namespace: e.namespace, name: e.name });

/**
 * OpenLineage intake (ADR 0022): a RunEvent's inputs and outputs are matched to registered datasets
 * (`openlineage-naming.ts`, docs/openlineage.md), each matched input → output pair becomes a dataset
 * link pinned to both current versions or confirms the active one, and `columnLineage` facets become
 * field links under the original's field-link rules. What cannot be matched or linked is reported, with
 * the reason. One transaction; the event row claimed first makes a repeated event (same run id and event
 * type) answer the stored result instead of applying again.
 */
@Injectable()
export class OpenLineageService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: ResolvedConfig,
    private readonly tx: Transactions,
    private readonly repo: OpenLineageRepository,
    private readonly linkBatch: DatasetLinkBatch,
    private readonly fieldLinkBatch: FieldLinkBatch,
    private readonly fieldsLookup: FieldsLookup,
  ) {}

  intake(
    event: ParsedOpenLineageRunEvent,
    actor: AuthUser,
  ): Promise<{ created: boolean; result: OpenLineageIntakeResult }> {
    const eventType: OpenLineageEventType = event.eventType ?? 'OTHER';
    const runId = event.run.runId.toLowerCase();
    checkLimit(
      'AIDE_OPENLINEAGE_MAX_FIELD_EDGES',
      'column-lineage edges (output field ← input field)',
      fieldEdgesOf(event),
      this.config.openLineageMaxFieldEdges,
    );
    return this.tx.run(async (m) => {
      const claimed = await this.repo.claim(
        {
          runId,
          eventType,
          eventTime: event.eventTime,
          jobNamespace: event.job.namespace,
          jobName: event.job.name,
          producer: event.producer,
        },
        actor.id,
        m,
      );
      if (!claimed) {
        const stored = (await this.repo.storedResult(runId, eventType, m)) as Result | null;
        if (stored) return { created: false, result: { ...stored, duplicate: true } };
      }
      const result = await this.apply(event, eventType, runId, actor, m);
      await this.repo.saveResult(runId, eventType, result, m);
      return { created: true, result };
    });
  }

  private async apply(
    event: ParsedOpenLineageRunEvent,
    eventType: OpenLineageEventType,
    runId: string,
    actor: AuthUser,
    m: EntityManager,
  ): Promise<Result> {
    const entries = entriesOf(event);
    await this.match(entries, m);
    const inputs = matchedOf(entries, 'input');
    const outputs = matchedOf(entries, 'output');
    const selfPairs = [...inputs.keys()].filter((id) => outputs.has(id)).length;
    checkLimit(
      'AIDE_OPENLINEAGE_MAX_DATASET_PAIRS',
      'input → output pairs of registered datasets',
      inputs.size * outputs.size - selfPairs,
      this.config.openLineageMaxDatasetPairs,
    );
    await this.compareSchemas(entries, m);
    const result: Result = {
      run_id: runId,
      event_type: eventType,
      job: ref(event.job),
      event_time: event.eventTime,
      duplicate: false,
      applied: !NOT_APPLIED.includes(eventType),
      datasets: entries.map((e) => e.answer),
      dataset_links: [],
      field_links: [],
      skipped: [],
      unknown_datasets: entries
        .filter((e) => e.answer.status === 'unknown')
        .map((e) => ({ role: e.role, ...ref(e) })),
    };
    if (!result.applied) return result;
    const links = await this.links(inputs, outputs, event, actor, m, result);
    await this.fieldLinks(entries, links, actor, m, result);
    return result;
  }

  /** Finds each entry's dataset: its name first, then its symlinks; one dataset or none is an answer. */
  private async match(entries: Entry[], m: EntityManager): Promise<void> {
    const namespaces = new Set(
      entries.flatMap((e) => e.identities.map((i) => normalizeNamespace(i.namespace))),
    );
    const systems = await this.repo.systems([...namespaces], m);
    const systemsOf = new Map<string, SystemNaming[]>();
    for (const system of systems) {
      for (const ns of namespacesOf(system)) systemsOf.set(ns, [...(systemsOf.get(ns) ?? []), system]);
    }
    const requests: DatasetRequest[] = [];
    const requestsOf: number[][][] = entries.map((e) =>
      e.identities.map((identity) => {
        const lookup = lookupOf(identity.namespace, identity.name);
        return (systemsOf.get(normalizeNamespace(identity.namespace)) ?? [])
          .filter((s) => databaseFits(databaseOf(s), lookup))
          .map((s) => {
            requests.push({ key: requests.length, systemId: s.id, lookup });
            return requests.length - 1;
          });
      }),
    );
    const hitsOf = new Map<number, { dataset_id: string; exact: boolean }[]>();
    for (const hit of await this.repo.matchDatasets(requests, m)) {
      hitsOf.set(hit.key, [...(hitsOf.get(hit.key) ?? []), hit]);
    }
    entries.forEach((entry, i) => {
      for (const [j, keys] of (requestsOf[i] ?? []).entries()) {
        const hits = new Map<string, boolean>();
        for (const k of keys)
          for (const h of hitsOf.get(k) ?? [])
            hits.set(h.dataset_id, h.exact || hits.get(h.dataset_id) === true);
        if (hits.size === 0) continue;
        const exact = [...hits].filter(([, e]) => e).map(([id]) => id);
        const chosen = hits.size === 1 ? [...hits.keys()] : exact.length === 1 ? exact : [];
        const label = entry.identities[j]?.label ?? 'name';
        entry.answer =
          chosen.length === 1
            ? { ...entry.answer, status: 'matched', dataset_id: chosen[0], matched_by: label }
            : {
                ...entry.answer,
                status: 'ambiguous',
                matched_by: label,
                candidates: [...hits.keys()].sort(),
              };
        return;
      }
    });
  }

  /**
   * A matched dataset's schema facet against its current version: the facet's fields without a column
   * of that name (case-insensitive) are reported, a sign that the registry is behind the data.
   */
  private async compareSchemas(entries: Entry[], m: EntityManager): Promise<void> {
    const withSchema = entries.filter(
      (e) => e.answer.dataset_id && e.dataset?.facets?.schema?.fields && !e.dataset.facets.schema._deleted,
    );
    const columns = new Map<string, Set<string>>();
    for (const c of await this.repo.currentColumnNames(
      [...new Set(withSchema.map((e) => e.answer.dataset_id as string))],
      m,
    )) {
      const names = columns.get(c.dataset_id) ?? new Set<string>();
      names.add(c.name.toLowerCase());
      columns.set(c.dataset_id, names);
    }
    for (const e of withSchema) {
      const known = columns.get(e.answer.dataset_id as string) ?? new Set<string>();
      e.answer.schema_fields_unknown = (e.dataset?.facets?.schema?.fields ?? [])
        .map((f) => f.name)
        .filter((name) => !known.has(name.toLowerCase()));
    }
  }

  /**
   * Each matched input → output pair: the active link confirmed, or one created on current versions. The
   * pairs are PostgreSQL's cross product (`DatasetLinkBatch.linkEvery`), bounded by the pair limit; a
   * dataset both read and written is reported once, and a pair with an unknown or ambiguous side is not
   * a pair at all (that dataset is reported once, in `datasets` and `unknown_datasets`).
   */
  private async links(
    inputs: ReadonlyMap<string, Entry>,
    outputs: ReadonlyMap<string, Entry>,
    event: ParsedOpenLineageRunEvent,
    actor: AuthUser,
    m: EntityManager,
    result: Result,
  ): Promise<Map<string, ActiveLink>> {
    for (const [id, output] of outputs) {
      const input = inputs.get(id);
      if (input)
        result.skipped.push(
          skip('dataset_link', 'SELF_LINK', 'The job reads and writes the same dataset.', input, output),
        );
    }
    const linkOf = new Map<string, ActiveLink>();
    if (inputs.size === 0 || outputs.size === 0) return linkOf;
    const pinned = await this.repo.pinDatasets([...new Set([...inputs.keys(), ...outputs.keys()])], m);
    const sideOf = (id: string) => ({ id, schema_id: pinned.get(id)?.schema_id ?? null });
    const note = `OpenLineage: ${event.job.namespace} ${event.job.name}`.slice(0, 1000);
    const outcomes = await this.linkBatch.linkEvery(
      [...inputs.keys()].map(sideOf),
      [...outputs.keys()].map(sideOf),
      note,
      actor.id,
      m,
    );
    const confirmed = new Set<string>();
    const raced: [string, string][] = [];
    for (const o of outcomes) {
      if (o.outcome === 'raced') raced.push([o.source_dataset_id, o.target_dataset_id]);
      else if (o.outcome === 'unpinned') {
        const s = inputs.get(o.source_dataset_id) as Entry;
        const t = outputs.get(o.target_dataset_id) as Entry;
        const missing = pinned.get(o.source_dataset_id)?.schema_id ? t : s;
        result.skipped.push(
          skip(
            'dataset_link',
            'NO_SCHEMA_VERSION',
            `${missing.namespace} ${missing.name} has no published schema version to pin the link to.`,
            s,
            t,
          ),
        );
      } else {
        linkOf.set(pairKey(o), {
          id: o.id as string,
          source_dataset_id: o.source_dataset_id,
          target_dataset_id: o.target_dataset_id,
          source_schema_id: o.source_schema_id as string,
          target_schema_id: o.target_schema_id as string,
        });
        if (o.outcome === 'confirmed') confirmed.add(pairKey(o));
      }
    }
    // A pair linked by a concurrent writer since the statement's snapshot: that link is confirmed.
    for (const link of await this.linkBatch.activeOfPairs(raced, m)) {
      linkOf.set(pairKey(link), link);
      confirmed.add(pairKey(link));
    }
    for (const o of outcomes) {
      const link = linkOf.get(pairKey(o));
      if (!link) continue;
      result.dataset_links.push({
        dataset_link_id: link.id,
        source_dataset_id: link.source_dataset_id,
        target_dataset_id: link.target_dataset_id,
        status: confirmed.has(pairKey(o)) ? 'confirmed' : 'created',
      });
    }
    return linkOf;
  }

  /**
   * `columnLineage` facets of the outputs: each output field ← input field inside the link of their two
   * datasets becomes a field link under the original's rules (both fields exist as root fields, both
   * bound in the link's pinned versions, the target `mapped`, one source per target in a link).
   */
  private async fieldLinks(
    entries: readonly Entry[],
    links: ReadonlyMap<string, ActiveLink>,
    actor: AuthUser,
    m: EntityManager,
    result: Result,
  ): Promise<void> {
    const entryOf = new Map(
      entries.filter((e) => e.role === 'input').map((e) => [key(e.namespace, e.name), e]),
    );
    interface Wanted {
      link: ActiveLink;
      source: Entry;
      target: Entry;
      sourceField: string;
      targetField: string;
    }
    const wanted: Wanted[] = [];
    const refOf = (e: Entry, field: string) => ({ ...ref(e), field });
    for (const output of entries.filter((e) => e.role === 'output')) {
      const facet = output.dataset?.facets?.columnLineage;
      if (!facet || facet._deleted || !facet.fields) continue;
      for (const [targetField, { inputFields }] of Object.entries(facet.fields)) {
        for (const input of inputFields) {
          const source = entryOf.get(key(input.namespace, input.name)) as Entry;
          const s = source.answer.dataset_id;
          const t = output.answer.dataset_id;
          // An unknown or ambiguous dataset is reported once, in `datasets`, not per column.
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
          wanted.push({ link, source, target: output, sourceField: input.field, targetField });
        }
      }
    }
    if (wanted.length === 0) return;
    const fields = await this.fieldsLookup.lockRootsByName(
      wanted.flatMap((w) => [
        { datasetId: w.link.source_dataset_id, name: w.sourceField },
        { datasetId: w.link.target_dataset_id, name: w.targetField },
      ]),
      m,
    );
    const fieldKey = (datasetId: string, name: string) => `${datasetId}/${name.toLowerCase()}`;
    const fieldsOf = new Map<string, NamedField[]>();
    for (const f of fields) {
      const k = fieldKey(f.dataset_id, f.name);
      const same = fieldsOf.get(k);
      if (same) same.push(f);
      else fieldsOf.set(k, [f]);
    }
    const fieldOf = (datasetId: string, name: string): NamedField | undefined => {
      const found = fieldsOf.get(fieldKey(datasetId, name)) ?? [];
      return found.find((f) => f.name === name) ?? (found.length === 1 ? found[0] : undefined);
    };
    const resolved = wanted.map((w) => ({
      ...w,
      sf: fieldOf(w.link.source_dataset_id, w.sourceField),
      tf: fieldOf(w.link.target_dataset_id, w.targetField),
    }));
    const bound = await this.repo.bound(
      resolved.flatMap((r) => [
        ...(r.sf ? [[r.sf.id, r.link.source_schema_id] as [string, string]] : []),
        ...(r.tf ? [[r.tf.id, r.link.target_schema_id] as [string, string]] : []),
      ]),
      m,
    );
    const existing = new Map(
      (await this.fieldLinkBatch.ofLinks([...new Set(resolved.map((r) => r.link.id))], m)).map((l) => [
        `${l.dataset_link_id}/${l.target_field_id}`,
        l,
      ]),
    );
    interface Plan {
      dataset_link_id: string;
      source_field_id: string;
      target_field_id: string;
      source: { namespace: string; name: string; field: string };
      target: { namespace: string; name: string; field: string };
    }
    const toCreate = new Map<string, Plan>();
    const answered = new Set<string>();
    for (const r of resolved) {
      const fail = (reason: Skip['reason'], detail: string) =>
        result.skipped.push({
          kind: 'field_link',
          reason,
          detail,
          source: refOf(r.source, r.sourceField),
          target: refOf(r.target, r.targetField),
        });
      if (!r.sf || !r.tf) {
        fail(
          'FIELD_NOT_FOUND',
          `No field ${r.sf ? r.targetField : r.sourceField} in the ${r.sf ? 'output' : 'input'} dataset.`,
        );
        continue;
      }
      if (
        !bound.has(`${r.sf.id}/${r.link.source_schema_id}`) ||
        !bound.has(`${r.tf.id}/${r.link.target_schema_id}`)
      ) {
        fail('FIELD_BINDING_MISSING', "A field is not bound in the link's pinned schema version.");
        continue;
      }
      if (r.tf.origin !== 'mapped') {
        fail('FIELD_ORIGIN_CONFLICT', `The target field's origin is ${r.tf.origin}, not mapped.`);
        continue;
      }
      const slot = `${r.link.id}/${r.tf.id}`;
      const present = existing.get(slot);
      if (present) {
        if (present.source_field_id === r.sf.id) {
          if (!answered.has(slot)) {
            answered.add(slot);
            result.field_links.push({
              field_link_id: present.id,
              dataset_link_id: r.link.id,
              source_field: r.sf.name,
              target_field: r.tf.name,
              status: 'confirmed',
            });
          }
        } else {
          fail('FIELD_LINK_TARGET_OCCUPIED', 'The target field is fed by another source field in this link.');
        }
        continue;
      }
      const planned = toCreate.get(slot);
      if (planned && planned.source_field_id !== r.sf.id) {
        fail(
          'FIELD_LINK_TARGET_OCCUPIED',
          'The target field has another input field in this link: one source per target is kept (the first).',
        );
        continue;
      }
      toCreate.set(slot, {
        dataset_link_id: r.link.id,
        source_field_id: r.sf.id,
        target_field_id: r.tf.id,
        source: refOf(r.source, r.sf.name),
        target: refOf(r.target, r.tf.name),
      });
    }
    const plans = [...toCreate.values()];
    const inserted = new Map(
      (
        await this.fieldLinkBatch.insertMany(
          plans.map(({ dataset_link_id, source_field_id, target_field_id }) => ({
            dataset_link_id,
            source_field_id,
            target_field_id,
          })),
          actor.id,
          m,
        )
      ).map((l) => [`${l.dataset_link_id}/${l.target_field_id}`, l]),
    );
    const raced = plans.some((p) => !inserted.has(`${p.dataset_link_id}/${p.target_field_id}`))
      ? new Map(
          (await this.fieldLinkBatch.ofLinks([...new Set(plans.map((p) => p.dataset_link_id))], m)).map(
            (l) => [`${l.dataset_link_id}/${l.target_field_id}`, l],
          ),
        )
      : new Map<string, LinkedField>();
    for (const p of plans) {
      const slot = `${p.dataset_link_id}/${p.target_field_id}`;
      const row = inserted.get(slot) ?? raced.get(slot);
      const same = row && row.source_field_id === p.source_field_id;
      if (!row || !same) {
        result.skipped.push({
          kind: 'field_link',
          reason: 'FIELD_LINK_TARGET_OCCUPIED',
          detail: 'The target field was linked to another source field meanwhile.',
          source: p.source,
          target: p.target,
        });
        continue;
      }
      result.field_links.push({
        field_link_id: row.id,
        dataset_link_id: p.dataset_link_id,
        source_field: p.source.field,
        target_field: p.target.field,
        status: inserted.has(slot) ? 'created' : 'confirmed',
      });
    }
  }
}

const pairKey = (l: { source_dataset_id: string; target_dataset_id: string }) =>
  `${l.source_dataset_id}/${l.target_dataset_id}`;

function skip(
  kind: Skip['kind'],
  reason: Skip['reason'],
  detail: string,
  source: { namespace: string; name: string },
  target: { namespace: string; name: string },
): Skip {
  return { kind, reason, detail, source: ref(source), target: ref(target) };
}

/**
 * The work one event may ask for (docs/operations.md, Limits): beyond it the event is refused whole,
 * before any link is written (inside the transaction, the event's claim is rolled back with it).
 */
function checkLimit(limit: string, what: string, count: number, max: number): void {
  if (count <= max) return;
  throw new AppError(
    'OPENLINEAGE_EVENT_TOO_LARGE',
    `The event has ${count} ${what}; one event may have at most ${max} (${limit}). Split the event.`,
    { limit, max, count },
  );
}

/** The matched datasets of a role, each with the first entry that names it (in the event's order). */
function matchedOf(entries: readonly Entry[], role: Role): Map<string, Entry> {
  const matched = new Map<string, Entry>();
  for (const e of entries) {
    const id = e.answer.dataset_id;
    if (e.role === role && e.answer.status === 'matched' && id && !matched.has(id)) matched.set(id, e);
  }
  return matched;
}

/** The column-lineage edges of the event's outputs (output field ← input field), as sent. */
function fieldEdgesOf(event: ParsedOpenLineageRunEvent): number {
  let edges = 0;
  for (const output of event.outputs ?? []) {
    const facet = output.facets?.columnLineage;
    if (!facet || facet._deleted) continue;
    for (const { inputFields } of Object.values(facet.fields ?? {})) edges += inputFields.length;
  }
  return edges;
}

/**
 * The event's datasets, once each per role: its inputs, its outputs, and the datasets its column
 * lineage reads that the inputs do not list (the spec allows it).
 */
function entriesOf(event: ParsedOpenLineageRunEvent): Entry[] {
  const entries: Entry[] = [];
  const seen = new Set<string>();
  const add = (role: Role, namespace: string, name: string, dataset: OpenLineageDataset | null) => {
    const k = `${role}\u0000${key(namespace, name)}`;
    if (seen.has(k)) return;
    seen.add(k);
    const symlinks = dataset?.facets?.symlinks?._deleted
      ? []
      : (dataset?.facets?.symlinks?.identifiers ?? []);
    entries.push({
      role,
      namespace,
      name,
      dataset,
      identities: [
        { namespace, name, label: 'name' },
        ...symlinks.map((s) => ({
          namespace: s.namespace,
          name: s.name,
          label: `symlink:${s.namespace}/${s.name}`,
        })),
      ],
      answer: {
        role,
        namespace,
        name,
        status: 'unknown',
        dataset_id: null,
        matched_by: null,
        candidates: [],
        schema_fields_unknown: [],
      },
    });
  };
  for (const input of event.inputs ?? []) add('input', input.namespace, input.name, input);
  for (const output of event.outputs ?? []) add('output', output.namespace, output.name, output);
  for (const output of event.outputs ?? []) {
    const facet = output.facets?.columnLineage;
    if (!facet || facet._deleted) continue;
    for (const { inputFields } of Object.values(facet.fields ?? {})) {
      for (const f of inputFields) add('input', f.namespace, f.name, null);
    }
  }
  return entries;
}
