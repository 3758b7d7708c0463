import { type ComparableVersion, comparableVersionOf, type SchemaVersion } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DatasetSchemasRepository } from '../dataset-schemas/dataset-schemas.repository.js';
import type { EarlierVersion } from '../compatibility/compatibility-checker.js';
import { SchemaVersionReader, type VersionWithShape } from './schema-version.reader.js';

interface Header {
  id: string;
  dataset_id: string;
  version_num: number;
  fingerprint: string | null;
  /** The stored text, on one version per fingerprint only. */
  version_json: string | null;
}

/**
 * Every version of some datasets in the classifier's terms, for a _TRANSITIVE compatibility check
 * (ADR 0048), in a fixed number of queries whatever the history's length: the versions with their
 * stored fingerprints and the stored read shape (ADR 0029) of one version per distinct fingerprint (one
 * query), and the few versions without a shape read whole (their headers, then the reader's three).
 * Versions of equal fingerprint share one structure: the check classifies each once.
 *
 * A stored shape is used even when a data type it was rendered from was edited since: the comparison
 * reads type codes and params, not rendered texts, and an edit changes neither.
 */
@Injectable()
export class EarlierVersions {
  constructor(
    private readonly reader: SchemaVersionReader,
    private readonly schemas: DatasetSchemasRepository,
  ) {}

  async of(datasetIds: readonly string[], m: EntityManager): Promise<Map<string, EarlierVersion[]>> {
    const result = new Map<string, EarlierVersion[]>();
    if (datasetIds.length === 0) return result;
    // One statement: each version's number and fingerprint, and the stored text of one version per
    // distinct fingerprint (the others' texts are never read: CASE leaves them TOASTed).
    const headers: Header[] = await m.query(
      `SELECT s.id, s.dataset_id, s.version_num, r.fingerprint,
              CASE WHEN r.fingerprint IS NOT NULL
                    AND row_number() OVER (PARTITION BY r.fingerprint ORDER BY s.version_num DESC) = 1
                   THEN r.version_json END AS version_json
       FROM dataset_schemas s
       LEFT JOIN schema_version_read_shapes r ON r.dataset_schema_id = s.id
       WHERE s.dataset_id = ANY($1::uuid[])
         AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id)
       ORDER BY s.dataset_id, s.version_num DESC`,
      [[...new Set(datasetIds.map((id) => id.toLowerCase()))]],
    );
    const byFingerprint = new Map<string, ComparableVersion>();
    for (const h of headers) {
      if (h.fingerprint !== null && h.version_json !== null) {
        byFingerprint.set(h.fingerprint, comparableVersionOf(JSON.parse(h.version_json) as SchemaVersion));
      }
    }
    const unshaped = headers.filter((h) => h.fingerprint === null || !byFingerprint.has(h.fingerprint));
    const read =
      unshaped.length > 0
        ? await this.reader.withShapes(
            await this.schemas.findByIds(
              unshaped.map((h) => h.id),
              m,
            ),
            m,
          )
        : new Map<string, VersionWithShape>();
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
