/// <reference types="node" />
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi.js';

// The OpenAPI document before the route contract (ADR 0008), generated then by hand-written path
// builders. The contract must keep the wire contract: the document may only gain precision, and each
// difference is listed here with why it is intended.
const before = JSON.parse(
  readFileSync(new URL('../fixtures/openapi-before-contract.json', import.meta.url), 'utf8'),
) as unknown;

/** Paths (`/` inside a key written `~`) where two documents differ (a key present on one side only counts as a difference). */
function differences(a: unknown, b: unknown, path = ''): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) =>
      differences(
        (a as Record<string, unknown>)[key],
        (b as Record<string, unknown>)[key],
        `${path}/${key.replaceAll('/', '~')}`,
      ),
    );
  }
  return [`${path}: ${a === undefined ? 'added' : b === undefined ? 'removed' : 'changed'}`];
}

const INTENDED: Record<string, string> = {
  // The refresh body is validated like every body; the old document left its 422 out.
  '/paths/~api~v1~login~refresh/post/responses/422: added': 'refresh answers 422 to a malformed body',
  // Users are read by superusers only; the old document left the 403 out.
  '/paths/~api~v1~users/get/responses/403: added': 'listing users needs a superuser',
  '/paths/~api~v1~users~{id}/get/responses/403: added': 'reading a user needs a superuser',
  '/paths/~api~v1~fields~tree~{id}/get/description: added': 'names what the id is (a dataset)',
  '/paths/~api~v1~field-classifications~current~{id}/get/description: added':
    'names what the id is (a field)',
  // Version numbers: the bounds the server applies (0 is accepted and is not found).
  '/paths/~api~v1~datasets~{id}~schema-versions~diff/get/parameters/1/schema/minimum: changed':
    'server bound',
  '/paths/~api~v1~datasets~{id}~schema-versions~diff/get/parameters/1/schema/maximum: changed':
    'server bound',
  '/paths/~api~v1~datasets~{id}~schema-versions~diff/get/parameters/1/description: added': 'described',
  '/paths/~api~v1~datasets~{id}~schema-versions~diff/get/parameters/2/schema/minimum: changed':
    'server bound',
  '/paths/~api~v1~datasets~{id}~schema-versions~diff/get/parameters/2/schema/maximum: changed':
    'server bound',
  '/paths/~api~v1~datasets~{id}~schema-versions~diff/get/parameters/2/description: added': 'described',
  '/paths/~api~v1~datasets~{id}~schema-versions~{num}/get/parameters/1/schema/maximum: changed':
    'server bound',
  // The snapshot and search query strings are now documented by the schemas the server parses with.
  '/paths/~api~v1~systems~{id}~snapshot/get/parameters/1/schema/pattern: added': 'cursor format',
  '/paths/~api~v1~systems~{id}~snapshot/get/parameters/2/schema/description: added': 'described',
  '/paths/~api~v1~systems~{id}~snapshot/get/parameters/2/description: added': 'described',
  '/paths/~api~v1~search/get/parameters/1/schema/maxLength: added': 'server bound',
  '/paths/~api~v1~search/get/parameters/3/schema/maxLength: added': 'server bound',
  '/paths/~api~v1~search/get/parameters/4/schema/maximum: changed': 'server bound',
  '/paths/~api~v1~search/get/parameters/4/schema/default: added': 'server default',
  '/paths/~api~v1~search/get/parameters/5/schema/default: added': 'server default',
  // Routes added after the contract landed (issue 10: tech-field templates).
  '/paths/~api~v1~tech-field-templates: added': 'new resource',
  '/paths/~api~v1~tech-field-templates~{id}: added': 'new resource',
  '/paths/~api~v1~datasets~{id}~apply-tech-template: added': 'new route',
  '/components/schemas/TechFieldTemplate: added': 'new resource',
  '/components/schemas/TechFieldTemplateField: added': 'new resource',
  '/components/schemas/TechFieldTemplateFieldOutput: added': 'new resource (fields with defaults filled)',
  '/components/schemas/CreateTechFieldTemplate: added': 'new resource',
  '/components/schemas/UpdateTechFieldTemplate: added': 'new resource',
  '/components/schemas/ApplyTechTemplate: added': 'new route',
  '/components/schemas/ApplyTechTemplateResult: added': 'new route',
  // Routes added by issue 11 (DataCoolie metadata provider): workspaces, connection profiles, dataflows,
  // watermarks, API keys, the DataCoolie-compatible listings and the workspace snapshot.
  '/components/schemas/ApiKey: added': 'new schema',
  '/components/schemas/ApiKeyCreated: added': 'new schema',
  '/components/schemas/ConnectionProfile: added': 'new schema',
  '/components/schemas/ConnectionProfileSecret: added': 'new schema',
  '/components/schemas/CreateApiKey: added': 'new schema',
  '/components/schemas/CreateConnectionProfile: added': 'new schema',
  '/components/schemas/CreateDataflow: added': 'new schema',
  '/components/schemas/CreateWorkspace: added': 'new schema',
  '/components/schemas/DataCoolieConnection: added': 'new schema',
  '/components/schemas/DataCoolieConnectionPage: added': 'new schema',
  '/components/schemas/DataCoolieDataflow: added': 'new schema',
  '/components/schemas/DataCoolieDataflowPage: added': 'new schema',
  '/components/schemas/DataCoolieExclusion: added': 'new schema',
  '/components/schemas/DataCooliePagination: added': 'new schema',
  '/components/schemas/DataCoolieSchemaHintPage: added': 'new schema',
  '/components/schemas/DataCoolieSchemaHintRow: added': 'new schema',
  '/components/schemas/DataCoolieSnapshotDataflow: added': 'new schema',
  '/components/schemas/DataCoolieSnapshotHintGroup: added': 'new schema',
  '/components/schemas/DataCoolieSnapshotPage: added': 'new schema',
  '/components/schemas/Dataflow: added': 'new schema',
  '/components/schemas/PartitionColumn: added': 'new schema',
  '/components/schemas/PutWatermark: added': 'new schema',
  '/components/schemas/UpdateConnectionProfile: added': 'new schema',
  '/components/schemas/UpdateDataflow: added': 'new schema',
  '/components/schemas/UpdateWorkspace: added': 'new schema',
  '/components/schemas/Watermark: added': 'new schema',
  '/components/schemas/WatermarkHistoryEntry: added': 'new schema',
  '/components/schemas/WatermarkWritten: added': 'new schema',
  '/components/schemas/Workspace: added': 'new schema',
  '/paths/~api~v1~api-keys: added': 'new route',
  '/paths/~api~v1~api-keys~{id}: added': 'new route',
  '/paths/~api~v1~api-keys~{id}~revoke: added': 'new route',
  '/paths/~api~v1~connection-profiles: added': 'new route',
  '/paths/~api~v1~connection-profiles~{id}: added': 'new route',
  '/paths/~api~v1~connection-profiles~{id}~restore: added': 'new route',
  '/paths/~api~v1~dataflows: added': 'new route',
  '/paths/~api~v1~dataflows~{id}: added': 'new route',
  '/paths/~api~v1~dataflows~{id}~restore: added': 'new route',
  '/paths/~api~v1~dataflows~{id}~watermark: added': 'new route',
  '/paths/~api~v1~dataflows~{id}~watermark~history: added': 'new route',
  '/paths/~api~v1~workspaces: added': 'new route',
  '/paths/~api~v1~workspaces~{id}: added': 'new route',
  '/paths/~api~v1~workspaces~{id}~restore: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~connections: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~connections~{connection_id}: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~datacoolie~snapshot: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~dataflows: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~dataflows~{dataflow_id}: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~schema-hints: added': 'new route',
  '/paths/~api~v1~workspaces~{workspace_id}~watermarks~{dataflow_id}: added': 'new route',
  // A type spec rendered without storing it (issue 12: the type catalogue's live render preview).
  '/paths/~api~v1~type-instances~render: added': 'new route',
  '/components/schemas/RenderTypeSpecRequest: added': 'new route',
  '/components/schemas/RenderedTypeSpec: added': 'new route',
  // Issue 10: impact analysis of a would-be schema version (ADR 0021).
  '/paths/~api~v1~datasets~{id}~schema-versions~impact: added': 'new route',
  '/components/schemas/SchemaVersionImpact: added': 'new route',
  '/components/schemas/ImpactLink: added': 'new route',
  '/components/schemas/ImpactFieldLink: added': 'new route',
  // Issue 10: OpenLineage RunEvent intake (ADR 0022).
  '/paths/~api~v1~lineage~openlineage: added': 'new route',
  '/components/schemas/OpenLineageRunEvent: added': 'new route',
  '/components/schemas/OpenLineageIntakeResult: added': 'new route',
  // Issue 10: render-sql (AIDE v2 §9.5).
  '/paths/~api~v1~dataset-links~{id}~render-sql: added': 'new route',
  '/components/schemas/RenderSqlResult: added': 'new route',
  // Issue 10: lake-sync (AIDE v2 §9.4).
  '/paths/~api~v1~datasets~{id}~lake-sync: added': 'new route',
  '/components/schemas/LakeSyncRequest: added': 'new route',
  '/components/schemas/LakeSyncResult: added': 'new route',
  // Issue 12: the systems list's dataset counts in one request.
  '/paths/~api~v1~systems~dataset-counts: added': 'new route',
  '/components/schemas/SystemDatasetCount: added': 'new route',
  '/components/schemas/SystemDatasetCounts: added': 'new route',
  // The light side of the system snapshot for crawlers (ADR 0032).
  '/paths/~api~v1~systems~{id}~snapshot~fingerprints: added': 'new route',
  '/paths/~api~v1~systems~{id}~snapshot~versions: added': 'new route',
  '/components/schemas/DatasetFingerprint: added': 'new route',
  '/components/schemas/SystemFingerprintsPage: added': 'new route',
  '/components/schemas/SnapshotVersionsRequest: added': 'new route',
  // Issue 11: schema-hint overrides (format, default_value, is_active per dataset column; ADR 0030).
  '/paths/~api~v1~workspaces~{workspace_id}~schema-hint-overrides~{dataset_id}: added': 'new route',
  '/components/schemas/PutSchemaHintOverrides: added': 'new route',
  '/components/schemas/SchemaHintOverride: added': 'new route',
  '/components/schemas/SchemaHintOverrides: added': 'new route',
  '/components/schemas/StoredSchemaHintOverride: added': 'new route',
  // Issue 22 §5: a stored version that cannot be read whole is answered with its read_error (optional
  // fields), never failing the read; a binding refuses a tree that does not render.
  '/components/schemas/SchemaVersion/properties/read_error: added': 'optional, only for a broken version',
  '/components/schemas/SchemaVersionDiff/properties/from_read_error: added': 'optional, as read_error',
  '/components/schemas/SchemaVersionDiff/properties/to_read_error: added': 'optional, as read_error',
  '/paths/~api~v1~systems~{id}~snapshot/get/description: added': 'read_error instead of a failed page',
  '/paths/~api~v1~systems~{id}~snapshot/get/responses/422/description: changed':
    'a broken version no longer answers 422: only a malformed query does',
  '/paths/~api~v1~field-bindings/post/responses/422/description: changed': 'a tree that does not render',
  '/paths/~api~v1~field-bindings~batch/post/responses/422/description: changed': 'the same, per batch',
  '/paths/~api~v1~field-bindings~{id}/patch/responses/422/description: changed': "the resource's codes",
  '/paths/~api~v1~field-bindings~{id}/put/responses/422/description: changed': "the resource's codes",
  // Issue 22 item 9 (ADR 0037): bulk publish items that create their dataset with the version, and
  // the registry's own classification of a change in the publish and diff answers.
  '/components/schemas/BulkPublishItem/properties/dataset: added':
    'an item may create its dataset with its first version (issue 22 item 9, ADR 0037)',
  '/components/schemas/BulkPublishItem/properties/dataset_id/description: added':
    'an item may create its dataset with its first version (issue 22 item 9, ADR 0037)',
  '/components/schemas/BulkPublishItem/properties/refuse_breaking: added':
    'an item may create its dataset with its first version (issue 22 item 9, ADR 0037)',
  '/components/schemas/BulkPublishItem/required/0: changed':
    'an item may create its dataset with its first version (issue 22 item 9, ADR 0037)',
  '/components/schemas/BulkPublishItem/required/1: changed':
    'an item may create its dataset with its first version (issue 22 item 9, ADR 0037)',
  '/components/schemas/BulkPublishItem/required/2: removed':
    'an item may create its dataset with its first version (issue 22 item 9, ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/base_version_num: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/changes: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/compatibility: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/dataset_id/anyOf: added':
    'null only for an item that creates its dataset and fails (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/dataset_id/description: added':
    'null only for an item that creates its dataset and fails (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/dataset_id/format: removed':
    'null only for an item that creates its dataset and fails (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/dataset_id/pattern: removed':
    'null only for an item that creates its dataset and fails (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/properties/dataset_id/type: removed':
    'null only for an item that creates its dataset and fails (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/required/5: changed':
    'null only for an item that creates its dataset and fails (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/required/6: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/required/7: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/BulkPublishItemResult/required/8: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/ChangeCategory: added': 'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/Compatibility: added': 'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/PublishResult/properties/base_version_num: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/PublishResult/properties/changes: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/PublishResult/properties/compatibility: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/PublishResult/required/2: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/PublishResult/required/3: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/PublishResult/required/4: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/SchemaChange: added': 'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/SchemaVersionDiff/properties/changes: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/SchemaVersionDiff/properties/compatibility: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/SchemaVersionDiff/required/23: added':
    'the registry classifies the change itself (ADR 0037)',
  '/components/schemas/SchemaVersionDiff/required/24: added':
    'the registry classifies the change itself (ADR 0037)',
  '/paths/~api~v1~schema-versions~bulk/post/description: changed':
    'describes the new item form and the classification',
  // Issue 22: searches have a bounded share of the server (ADR 0034).
  '/paths/~api~v1~search/get/responses/503: added': 'SEARCH_BUSY, SEARCH_TIMEOUT',
};

type Operation = { 'x-aide-api-key'?: string; responses: Record<string, { description: string }> };

/**
 * Issue 22 (ADR 0020): every authenticated operation names its API-key policy (`x-aide-api-key`) and
 * the 403 a key gets from it — API_KEY_FORBIDDEN where keys need a scope or are refused, FORBIDDEN
 * outside the key's workspaces where they are admitted.
 */
function fromKeyPolicy(difference: string, after: unknown): boolean {
  const match =
    /^\/paths\/([^/]+)\/(\w+)\/(x-aide-api-key|responses\/403(?:\/description)?): (added|changed)$/.exec(
      difference,
    );
  if (!match) return false;
  const paths = (after as { paths: Record<string, Record<string, Operation>> }).paths;
  const op = paths[match[1].replaceAll('~', '/')]?.[match[2]];
  if (!op?.['x-aide-api-key']) return false;
  if (match[3] === 'x-aide-api-key') return true;
  const expected = op['x-aide-api-key'] === 'workspace' ? 'FORBIDDEN' : 'API_KEY_FORBIDDEN';
  return op.responses['403']?.description.split(', ').includes(expected) ?? false;
}

/**
 * Issue 22 (ADR 0034): every offset-paged `page` parameter states the offset limit (MAX_PAGE_OFFSET) in
 * its description; one rule instead of two entries per list route.
 */
function describesPageLimit(document: unknown, difference: string): boolean {
  const match = /^\/paths\/([^/]+)\/get\/parameters\/(\d+)(\/schema)?\/description: added$/.exec(difference);
  if (!match) return false;
  const paths = (document as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> }).paths;
  return paths[match[1].replaceAll('~', '/')]?.get?.parameters?.[Number(match[2])]?.name === 'page';
}

/**
 * Keyset paging and a cheaper total on every collection list (issue 13 for datasets, issue 22 for the
 * others; ADR 0024 and its amendment): the optional `cursor` and `total` query keys, added after the
 * filters, and `next_cursor` on the page, present only when a request names one of them.
 */
function addsKeysetPaging(document: unknown, difference: string): boolean {
  const page =
    /^\/paths\/([^/]+)\/get\/responses\/200\/content\/application~json\/schema\/properties\/next_cursor: added$/;
  const param = /^\/paths\/([^/]+)\/get\/parameters\/(\d+): added$/;
  const match = page.exec(difference) ?? param.exec(difference);
  if (!match) return false;
  const paths = (document as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> }).paths;
  const names = (paths[match[1].replaceAll('~', '/')]?.get?.parameters ?? []).map((p) => p.name);
  if (!names.includes('cursor') || !names.includes('total')) return false;
  return match[2] === undefined || ['cursor', 'total'].includes(names[Number(match[2])] ?? '');
}

describe('OpenAPI document generated from the route contract', () => {
  it('differs from the hand-written document only where intended', () => {
    const after = buildOpenApiDocument('0.0.0');
    const found = differences(before, after).filter(
      (d) =>
        d in INTENDED ||
        (!fromKeyPolicy(d, after) && !describesPageLimit(after, d) && !addsKeysetPaging(after, d)),
    );
    expect(found.sort()).toEqual(Object.keys(INTENDED).sort());
  });

  it('keeps every operation of the old document', () => {
    const paths = (document: unknown) =>
      Object.entries((document as { paths: Record<string, object> }).paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      );
    // New routes may be added (each listed in INTENDED above); none of the old ones may go.
    expect(paths(buildOpenApiDocument('0.0.0'))).toEqual(expect.arrayContaining(paths(before)));
  });
});
