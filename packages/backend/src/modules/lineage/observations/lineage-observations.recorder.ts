import type { OpenLineageDataset, OpenLineageSchemaDrift, ParsedOpenLineageEvent } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Entry, Result } from '../openlineage-entries.js';
import { normalizeNamespace } from '../openlineage-naming.js';
import type { ReceivedEvent } from '../openlineage.repository.js';
import { memoizedDriftOf } from './drift-memo.js';
import { type ObservedField, TYPE_COMPARISON } from './observed-schema-drift.js';
import {
  type CurrentVersion,
  LineageObservationsRepository,
  type ObservedSchemaInsert,
} from './lineage-observations.repository.js';

/**
 * The root fields of a dataset's schema facet; null without one, when it is deleted, or when it lists no
 * field: dbt sends `fields: []` for a model whose columns it does not know, not for a table without
 * columns, so an empty facet says nothing (else every registered column would read as removed).
 */
export function observedFieldsOf(dataset: OpenLineageDataset | null): ObservedField[] | null {
  const facet = dataset?.facets?.schema;
  if (!facet || facet._deleted || !facet.fields || facet.fields.length === 0) return null;
  return facet.fields.map((f) => ({ name: f.name, type: f.type ?? null }));
}

/**
 * What the intake keeps of an event beyond links (ADR 0054), in the intake's transaction: the datasets
 * no registered one answered to (with the event's body, to replay it once they are registered), and
 * the schema facets of matched datasets with their drift from the current version (in `result.drift`).
 */
@Injectable()
export class LineageObservationsRecorder {
  constructor(private readonly repo: LineageObservationsRepository) {}

  /**
   * The current version of each dataset, with its root columns and flavor, by dataset id: read once per
   * event by the intake (schema comparison, link pins, drift); `lock` holds the active ones FOR SHARE.
   */
  async currentVersions(
    datasetIds: readonly string[],
    lock: boolean,
    m: EntityManager,
  ): Promise<Map<string, CurrentVersion>> {
    return new Map((await this.repo.currentVersions(datasetIds, m, lock)).map((v) => [v.dataset_id, v]));
  }

  /** `versions`: those of the matched datasets (`currentVersions`). */
  async record(
    event: ReceivedEvent,
    payload: ParsedOpenLineageEvent,
    entries: readonly Entry[],
    result: Result,
    versions: ReadonlyMap<string, CurrentVersion>,
    m: EntityManager,
    replay: boolean,
  ): Promise<void> {
    const unknown = entries.filter((e) => e.answer.status === 'unknown');
    if (unknown.length > 0) {
      await this.repo.recordUnknown(
        event,
        payload,
        unknown.map((e) => ({
          role: e.role,
          namespace: e.namespace,
          namespaceKey: normalizeNamespace(e.namespace),
          name: e.name,
          fields: Object.fromEntries((observedFieldsOf(e.dataset) ?? []).map((f) => [f.name, f.type])),
        })),
        m,
      );
    }
    if (replay) {
      // A replay after a registration by other means (a crawl, the REST API): the dataset is known now.
      await this.repo.markRegistered(
        entries
          .filter((e) => e.answer.status === 'matched' && e.answer.dataset_id)
          .map((e) => ({
            namespaceKey: normalizeNamespace(e.namespace),
            name: e.name,
            datasetId: e.answer.dataset_id as string,
          })),
        m,
      );
    }
    result.drift = await this.drift(event, entries, versions, m);
  }

  /** Each matched dataset's schema facet (its first entry) against its current version; drift only. */
  private async drift(
    event: ReceivedEvent,
    entries: readonly Entry[],
    versions: ReadonlyMap<string, CurrentVersion>,
    m: EntityManager,
  ): Promise<OpenLineageSchemaDrift[]> {
    const seen = new Map<string, { entry: Entry; fields: ObservedField[] }>();
    for (const e of entries) {
      const id = e.answer.dataset_id;
      const fields = observedFieldsOf(e.dataset);
      if (e.answer.status === 'matched' && id && fields && !seen.has(id)) seen.set(id, { entry: e, fields });
    }
    if (seen.size === 0) return [];
    const rows: ObservedSchemaInsert[] = [];
    const drift: OpenLineageSchemaDrift[] = [];
    for (const [datasetId, { entry, fields }] of seen) {
      const version = versions.get(datasetId);
      const { drift: cls, changes } = memoizedDriftOf(
        version?.columns ?? [],
        fields,
        version?.flavor_code ?? null,
      );
      rows.push({
        dataset_id: datasetId,
        fields,
        compared_schema_id: version?.schema_id ?? null,
        drift: cls,
        changes,
      });
      if (cls !== 'none') {
        drift.push({
          dataset_id: datasetId,
          namespace: entry.namespace,
          name: entry.name,
          compared_version_num: version?.version_num ?? null,
          class: cls,
          type_comparison: TYPE_COMPARISON,
          changes,
        });
      }
    }
    await this.repo.insertObserved(event, rows, m);
    return drift;
  }
}
