import { z } from 'zod';

/**
 * A dataflow's watermark as stored: the text exactly as written (never parsed: DataCoolie's
 * WatermarkManager owns the codec), the value it replaced, the provenance of the last write and a
 * revision counting the writes. A dataflow never written has revision 0 and null values.
 */
export const WatermarkSchema = z
  .object({
    dataflow_id: z.uuid(),
    current_value: z.string().nullable(),
    previous_value: z.string().nullable(),
    job_id: z.string().nullable(),
    dataflow_run_id: z.string().nullable(),
    updated_at: z.iso.datetime({ offset: true }).nullable(),
    revision: z.int(),
  })
  .meta({ id: 'Watermark' });
export type Watermark = z.infer<typeof WatermarkSchema>;

const provenance = z
  .string()
  .max(255)
  .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' })
  .nullable()
  .optional();

/**
 * A write: the serialized watermark text, stored verbatim, and its optional provenance. The text's
 * size is bounded by the server's configuration (AIDE_WATERMARK_MAX_BYTES, 422 WATERMARK_TOO_LARGE
 * beyond it), not here; PostgreSQL text cannot hold U+0000.
 */
export const PutWatermarkSchema = z
  .strictObject({
    current_value: z
      .string()
      .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' })
      .describe(
        'The serialized watermark, stored verbatim: at most AIDE_WATERMARK_MAX_BYTES UTF-8 bytes ' +
          '(64 KiB by default), else 422 WATERMARK_TOO_LARGE',
      ),
    job_id: provenance,
    dataflow_run_id: provenance,
  })
  .meta({ id: 'PutWatermark' });
export type PutWatermark = z.input<typeof PutWatermarkSchema>;

export const WatermarkWrittenSchema = z
  .object({ status: z.literal('ok'), revision: z.int() })
  .meta({ id: 'WatermarkWritten' });
export type WatermarkWritten = z.infer<typeof WatermarkWrittenSchema>;

/** One write of the history (audit and replay): the last AIDE_WATERMARK_HISTORY_KEPT writes per dataflow. */
export const WatermarkHistoryEntrySchema = z
  .object({
    dataflow_id: z.uuid(),
    revision: z.int(),
    value: z.string(),
    job_id: z.string().nullable(),
    dataflow_run_id: z.string().nullable(),
    written_at: z.iso.datetime({ offset: true }),
    written_by: z.uuid().nullable(),
  })
  .meta({ id: 'WatermarkHistoryEntry' });
export type WatermarkHistoryEntry = z.infer<typeof WatermarkHistoryEntrySchema>;
