import { z } from 'zod';
import { longText, positiveInt32 } from './text.js';

/** Columns every registry entity carries on the wire. */
export const auditShape = {
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  created_by: z.uuid().nullable(),
  updated_by: z.uuid().nullable(),
  note: z.string().nullable(),
  row_version: z.int(),
};

/** Soft-deletable entities also say whether, and when, they were deleted. */
export const softDeleteShape = {
  deleted_at: z.iso.datetime({ offset: true }).nullable(),
};

/** Writable by every create and update body. */
export const noteShape = { note: longText().nullable().optional() };

/**
 * The optimistic-lock token of an update. Optional in the body because an `If-Match` header may carry
 * it instead; the server refuses an update that has neither.
 */
export const rowVersionShape = { row_version: positiveInt32.optional() };
