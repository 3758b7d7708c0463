import { type ComparableVersion, comparableVersionOf, type SchemaVersion } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { DatasetSchemaEntity } from '../dataset-schemas/dataset-schema.entity.js';
import type { EarlierVersion } from '../compatibility/compatibility-checker.js';
import { SchemaVersionReader } from './schema-version.reader.js';

type Header = DatasetSchemaEntity & { fingerprint: string | null };

/**
 * Every version of some datasets in the classifier's terms, for a _TRANSITIVE compatibility check
 * (ADR 0048), in a fixed number of queries whatever the history's length: the headers with their
 * stored fingerprints (one query), the stored read shapes (ADR 0029) of one version per distinct
 * fingerprint (one query), and the few versions without a shape read whole (the reader's three).
 * Versions of equal fingerprint share one structure: the check classifies each once.
 *
 * A stored shape is used even when a data type it was rendered from was edited since: the comparison
 * reads type codes and params, not rendered texts, and an edit changes neither.
 */
@Injectable()
export class EarlierVersions {
  constructor(private readonly reader: SchemaVersionReader) {}

  async of(datasetIds: readonly string[], m: EntityManager): Promise<Map<string, EarlierVersion[]>> {
    const result = new Map<string, EarlierVersion[]>();
    if (datasetIds.length === 0) return result;
    const headers: Header[] = await m.query(
      `SELECT s.*, r.fingerprint FROM dataset_schemas s
       LEFT JOIN schema_version_read_shapes r ON r.dataset_schema_id = s.id
       WHERE s.dataset_id = ANY($1::uuid[])
         AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id)
       ORDER BY s.dataset_id, s.version_num DESC`,
      [[...new Set(datasetIds.map((id) => id.toLowerCase()))]],
    );
    // One stored shape per distinct fingerprint; the versions without one are read whole.
    const firstOf = new Map<string, string>();
    for (const h of headers)
      if (h.fingerprint !== null && !firstOf.has(h.fingerprint)) firstOf.set(h.fingerprint, h.id);
    const shapes: { fingerprint: string; version_json: string }[] =
      firstOf.size === 0
        ? []
        : await m.query(
            `SELECT fingerprint, version_json FROM schema_version_read_shapes
             WHERE dataset_schema_id = ANY($1::uuid[])`,
            [[...firstOf.values()]],
          );
    const byFingerprint = new Map<string, ComparableVersion>(
      shapes.map((s) => [s.fingerprint, comparableVersionOf(JSON.parse(s.version_json) as SchemaVersion)]),
    );
    const unshaped = headers.filter((h) => h.fingerprint === null || !byFingerprint.has(h.fingerprint));
    const read = unshaped.length > 0 ? await this.reader.withShapes(unshaped, m) : new Map();
    for (const h of headers) {
      let fingerprint = h.fingerprint ?? '';
      let comparable = h.fingerprint === null ? undefined : byFingerprint.get(h.fingerprint);
      if (comparable === undefined) {
        const whole = read.get(h.id);
        const version = whole?.version as SchemaVersion;
        // A version that cannot be read whole has no fingerprint: compared on its own.
        fingerprint = whole?.shape?.fingerprint ?? `version:${h.id}`;
        comparable = comparableVersionOf(version);
      }
      const list = result.get(h.dataset_id) ?? [];
      const structure = comparable;
      list.push({ version_num: h.version_num, fingerprint, comparable: () => structure });
      result.set(h.dataset_id, list);
    }
    return result;
  }
}
