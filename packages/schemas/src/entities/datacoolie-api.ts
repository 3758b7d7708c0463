import { z } from 'zod';
import { wireInt } from '../common/text.js';
import {
  DataCoolieConnectionSchema,
  DataCoolieSchemaHintSchema,
  DataCoolieSnapshotDataflowSchema,
} from './datacoolie-snapshot.js';

// DataCoolie's own REST contract (reference §6.3–§6.4, §8.6 item 1), served so that the unmodified
// Python `APIProvider` runs against the registry: `{data, pagination}` envelopes, string booleans.

export const DATACOOLIE_MAX_PAGE_SIZE = 1000;
export const DATACOOLIE_DEFAULT_PAGE_SIZE = 50;

export const DataCooliePaginationSchema = z
  .object({ page: z.int(), page_size: z.int(), total: z.int(), total_pages: z.int() })
  .meta({ id: 'DataCooliePagination' });

function envelope<T extends z.ZodType>(item: T, id: string) {
  return z.object({ data: z.array(item), pagination: DataCooliePaginationSchema }).meta({ id });
}

/** `active_only` as the Python client sends it. */
const activeOnly = z
  .enum(['true', 'false', 'True', 'False', '1', '0'])
  .transform((v) => v === 'true' || v === 'True' || v === '1')
  .optional();

const paging = {
  page: wireInt(1, 1_000_000).optional(),
  page_size: wireInt(1, DATACOOLIE_MAX_PAGE_SIZE)
    .optional()
    .describe(`Default ${DATACOOLIE_DEFAULT_PAGE_SIZE}, at most ${DATACOOLIE_MAX_PAGE_SIZE}`),
};

const filterText = z.string().max(1000);

export const DataCoolieConnectionsQuerySchema = z.strictObject({
  ...paging,
  name: filterText.optional(),
  active_only: activeOnly,
});
export type DataCoolieConnectionsQuery = z.input<typeof DataCoolieConnectionsQuerySchema>;

export const DataCoolieDataflowsQuerySchema = z.strictObject({
  ...paging,
  stage: filterText.optional().describe('One stage or a comma-separated list'),
  active_only: activeOnly,
});
export type DataCoolieDataflowsQuery = z.input<typeof DataCoolieDataflowsQuerySchema>;

export const DataCoolieSchemaHintsQuerySchema = z.strictObject({
  ...paging,
  connection_id: filterText.optional(),
  table_name: filterText.optional().describe('Case-insensitive'),
  schema_name: filterText.optional().describe('Case-insensitive'),
  active_only: activeOnly,
});
export type DataCoolieSchemaHintsQuery = z.input<typeof DataCoolieSchemaHintsQuerySchema>;

/** A dataflow with its connections expanded (reference §1.10, the API shape). */
export const DataCoolieDataflowSchema = DataCoolieSnapshotDataflowSchema.extend({
  source: DataCoolieSnapshotDataflowSchema.shape.source
    .omit({ connection_id: true })
    .extend({ connection: DataCoolieConnectionSchema }),
  destination: DataCoolieSnapshotDataflowSchema.shape.destination
    .omit({ connection_id: true })
    .extend({ connection: DataCoolieConnectionSchema }),
}).meta({ id: 'DataCoolieDataflow' });
export type DataCoolieDataflow = z.infer<typeof DataCoolieDataflowSchema>;

/** A hint flattened with its group key, as `/schema-hints` lists them. */
export const DataCoolieSchemaHintRowSchema = DataCoolieSchemaHintSchema.extend({
  connection_id: z.string(),
  schema_name: z.string().nullable(),
  table_name: z.string(),
}).meta({ id: 'DataCoolieSchemaHintRow' });
export type DataCoolieSchemaHintRow = z.infer<typeof DataCoolieSchemaHintRowSchema>;

export const DataCoolieConnectionPageSchema = envelope(
  DataCoolieConnectionSchema,
  'DataCoolieConnectionPage',
);
export const DataCoolieDataflowPageSchema = envelope(DataCoolieDataflowSchema, 'DataCoolieDataflowPage');
export const DataCoolieSchemaHintPageSchema = envelope(
  DataCoolieSchemaHintRowSchema,
  'DataCoolieSchemaHintPage',
);
export type DataCoolieConnectionPage = z.infer<typeof DataCoolieConnectionPageSchema>;
export type DataCoolieDataflowPage = z.infer<typeof DataCoolieDataflowPageSchema>;
export type DataCoolieSchemaHintPage = z.infer<typeof DataCoolieSchemaHintPageSchema>;
