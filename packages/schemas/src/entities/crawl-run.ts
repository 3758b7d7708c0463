import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { jsonObject, longText } from '../common/text.js';
import { defineResource } from '../resource.js';

export const CRAWL_STATUSES = ['running', 'completed', 'failed'] as const;
export const CrawlStatusSchema = z.enum(CRAWL_STATUSES);
export type CrawlStatus = z.infer<typeof CrawlStatusSchema>;

/** The crawler's audit log: created `running`, finished once as `completed` or `failed`. Never deleted. */
export const CrawlRunSchema = z
  .object({
    ...auditShape,
    system_id: z.uuid(),
    status: CrawlStatusSchema,
    started_at: z.iso.datetime({ offset: true }),
    finished_at: z.iso.datetime({ offset: true }).nullable(),
    config: z.record(z.string(), z.unknown()),
    summary: z.record(z.string(), z.unknown()).nullable(),
    diff_payload: z.record(z.string(), z.unknown()).nullable(),
    error_message: z.string().nullable(),
  })
  .meta({ id: 'CrawlRun' });
export type CrawlRun = z.infer<typeof CrawlRunSchema>;

const timestamp = z.iso.datetime({ offset: true });

export const CreateCrawlRunSchema = z
  .strictObject({
    system_id: z.uuid(),
    status: z.literal('running').default('running'),
    started_at: timestamp.optional().describe('Defaults to now'),
    config: jsonObject.default({}),
    ...noteShape,
  })
  .meta({ id: 'CreateCrawlRun' });
export type CreateCrawlRun = z.input<typeof CreateCrawlRunSchema>;

export const UpdateCrawlRunSchema = z
  .strictObject({
    status: z.enum(['completed', 'failed']).optional(),
    finished_at: timestamp.optional().describe('Defaults to now when the status changes'),
    summary: jsonObject.nullable().optional(),
    diff_payload: jsonObject.nullable().optional(),
    error_message: longText(20_000).nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateCrawlRun' });
export type UpdateCrawlRun = z.input<typeof UpdateCrawlRunSchema>;

export const crawlRunResource = defineResource({
  path: 'crawl-runs',
  tag: 'Crawl runs',
  name: 'CrawlRun',
  read: CrawlRunSchema,
  create: CreateCrawlRunSchema,
  update: UpdateCrawlRunSchema,
  list: {
    filters: {
      system_id: { type: 'uuid', ops: ['eq', 'in'] },
      status: { type: 'string', ops: ['eq', 'in'], values: CRAWL_STATUSES },
      started_at: { type: 'datetime', ops: ['gte', 'lte'] },
      dataset_id: {
        kind: 'related',
        type: 'uuid',
        ops: ['eq', 'in'],
        description:
          "The runs whose report names the dataset: a crawl's `diff_payload.datasets[]` or an apply's `diff_payload.applied[]` entry with this `dataset_id`",
      },
    },
    sortable: ['status', 'started_at', 'finished_at', 'created_at'],
    defaultSort: '-started_at',
    softDelete: false,
  },
  notFound: 'CRAWL_RUN_NOT_FOUND',
  writeRole: 'user',
  keys: 'catalogue',
  softDelete: false,
  batch: false,
  without: ['delete'],
  errors: ['SYSTEM_NOT_FOUND', 'CRAWL_RUN_INVALID_TRANSITION'],
});
