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
}

/**
 * Structures by fingerprint, parsed once per process. A fingerprint is the hash of everything the
 * classifier compares (ADR 0032) and a version never changes once published, so an entry never goes
 * stale — on this replica or any other. Bounded by the columns it holds (about 300 bytes each), the
 * least recently used evicted first.
 */
class StructureCache {
  private readonly entries = new Map<string, ComparableVersion>();
  private columns = 0;

  constructor(private readonly maxColumns: number) {}

  get(fingerprint: string): ComparableVersion | undefined {
    const hit = this.entries.get(fingerprint);
    if (hit !== undefined) {
      this.entries.delete(fingerprint);
      this.entries.set(fingerprint, hit);
    }
    return hit;
  }

  set(fingerprint: string, structure: ComparableVersion): void {
    if (this.entries.has(fingerprint) || structure.columns.length > this.maxColumns) return;
    this.entries.set(fingerprint, structure);
    this.columns += structure.columns.length;
    for (const [key, old] of this.entries) {
      if (this.columns <= this.maxColumns) break;
      this.entries.delete(key);
      this.columns -= old.columns.length;
    }
  }
}

/**
 * Every version of some datasets in the classifier's terms, for a _TRANSITIVE compatibility check
 * (ADR 0048), in a fixed number of queries whatever the history's length: the versions with their
 * stored fingerprints (one query), the stored read shape (ADR 0029) of one version per distinct
 * fingerprint not parsed before (one query), and the few versions without a shape read whole (their
 * headers, then the reader's three). Versions of equal fingerprint share one structure: the check
 * classifies each once.
 *
 * A stored shape is used even when a data type it was rendered from was edited since: the comparison
 * reads type codes and params, not rendered texts, and an edit changes neither.
 */
@Injectable()
export class EarlierVersions {
  private readonly structures = new StructureCache(100_000);

  constructor(
    private readonly reader: SchemaVersionReader,
    private readonly schemas: DatasetSchemasRepository,
  ) {}

  async of(datasetIds: readonly string[], m: EntityManager): Promise<Map<string, EarlierVersion[]>> {
    const result = new Map<string, EarlierVersion[]>();
    if (datasetIds.length === 0) return result;
    const headers: Header[] = await m.query(
      `SELECT s.id, s.dataset_id, s.version_num, r.fingerprint
       FROM dataset_schemas s
       LEFT JOIN schema_version_read_shapes r ON r.dataset_schema_id = s.id
       WHERE s.dataset_id = ANY($1::uuid[])
         AND EXISTS (SELECT 1 FROM field_bindings b WHERE b.dataset_schema_id = s.id)
       ORDER BY s.dataset_id, s.version_num DESC`,
      [[...new Set(datasetIds.map((id) => id.toLowerCase()))]],
    );
    // The structures not parsed before: the stored text of one version per fingerprint.
    const unparsed = new Map<string, string>();
    for (const h of headers) {
      if (h.fingerprint !== null && this.structures.get(h.fingerprint) === undefined) {
        if (!unparsed.has(h.fingerprint)) unparsed.set(h.fingerprint, h.id);
      }
    }
    if (unparsed.size > 0) {
      const texts: { fingerprint: string; version_json: string }[] = await m.query(
        `SELECT r.fingerprint, r.version_json FROM schema_version_read_shapes r
         WHERE r.dataset_schema_id = ANY($1::uuid[])`,
        [[...unparsed.values()]],
      );
      for (const t of texts) {
        this.structures.set(t.fingerprint, comparableVersionOf(JSON.parse(t.version_json) as SchemaVersion));
      }
    }
    const structureOf = (h: Header) =>
      h.fingerprint === null ? undefined : this.structures.get(h.fingerprint);
    const unshaped = headers.filter((h) => structureOf(h) === undefined);
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
      let comparable = structureOf(h);
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
