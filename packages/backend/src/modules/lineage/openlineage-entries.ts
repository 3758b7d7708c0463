// The datasets of one OpenLineage RunEvent as the intake works on them (ADR 0022): one entry per
// dataset and role, with the identities it may be registered under and the answer reported for it.
import type { OpenLineageDataset, OpenLineageIntakeResult, ParsedOpenLineageRunEvent } from '@aide/schemas';
import { jdbcIdentityOf, normalizeNamespace } from './openlineage-naming.js';

export type Role = 'input' | 'output';
/** What the intake reads of an event's datasets: a RunEvent's or JobEvent's inputs and outputs. */
export type EventDatasets = Pick<ParsedOpenLineageRunEvent, 'inputs' | 'outputs'>;
export type Result = OpenLineageIntakeResult;
type DatasetEntry = Result['datasets'][number];
export type Skip = Result['skipped'][number];

/** An input or output of the event with the identities it may be registered under. */
export interface Entry {
  role: Role;
  namespace: string;
  name: string;
  /** The name first, then each symlink (SymlinksDatasetFacet). */
  identities: { namespace: string; name: string; label: string }[];
  dataset: OpenLineageDataset | null;
  answer: DatasetEntry;
}

export const key = (namespace: string, name: string) => `${normalizeNamespace(namespace)}\u0000${name}`;
export const ref = (e: { namespace: string; name: string }) => ({ namespace: e.namespace, name: e.name });

/** A dataset link's (source, target) pair, as a map key. */
export const pairKey = (l: { source_dataset_id: string; target_dataset_id: string }) =>
  `${l.source_dataset_id}/${l.target_dataset_id}`;

export function skip(
  kind: Skip['kind'],
  reason: Skip['reason'],
  detail: string,
  source: { namespace: string; name: string },
  target: { namespace: string; name: string },
): Skip {
  return { kind, reason, detail, source: ref(source), target: ref(target) };
}

/** The matched datasets of a role, each with the first entry that names it (in the event's order). */
export function matchedOf(entries: readonly Entry[], role: Role): Map<string, Entry> {
  const matched = new Map<string, Entry>();
  for (const e of entries) {
    const id = e.answer.dataset_id;
    if (e.role === role && e.answer.status === 'matched' && id && !matched.has(id)) matched.set(id, e);
  }
  return matched;
}

/** The column-lineage edges of the event's outputs (output field ← input field), as sent. */
export function fieldEdgesOf(event: EventDatasets): number {
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
export function entriesOf(event: EventDatasets): Entry[] {
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
        ...jdbcIdentities(namespace, name),
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

/** A JDBC URL namespace's table as the naming spec names it, tried after the name as sent. */
function jdbcIdentities(namespace: string, name: string): Entry['identities'] {
  const jdbc = jdbcIdentityOf(namespace, name);
  return jdbc ? [{ ...jdbc, label: `jdbc:${jdbc.namespace}/${jdbc.name}` }] : [];
}
