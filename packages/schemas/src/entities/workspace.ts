import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape, softDeleteShape } from '../common/audit.js';
import { longText } from '../common/text.js';
import { defineResource } from '../resource.js';

/**
 * A workspace code goes into URLs (`/workspaces/{id or code}/…`, the DataCoolie-compatible routes):
 * letters, digits, `_`, `.` and `-`, starting with a letter or digit.
 */
export const WorkspaceCodeSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, {
    message: 'must start with a letter or digit and contain only letters, digits, _, . and -',
  });

/** The scope of a set of pipelines (DataCoolie's `workspace_id`): connection profiles, dataflows, API keys. */
export const WorkspaceSchema = z
  .object({
    ...auditShape,
    ...softDeleteShape,
    code: z.string(),
    name: z.string(),
    description: z.string().nullable(),
  })
  .meta({ id: 'Workspace' });
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const CreateWorkspaceSchema = z
  .strictObject({
    code: WorkspaceCodeSchema,
    name: longText(1000).min(1),
    description: longText().nullable().optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateWorkspace' });
export type CreateWorkspace = z.input<typeof CreateWorkspaceSchema>;

export const UpdateWorkspaceSchema = z
  .strictObject({
    code: WorkspaceCodeSchema.optional(),
    name: longText(1000).min(1).optional(),
    description: longText().nullable().optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateWorkspace' });
export type UpdateWorkspace = z.input<typeof UpdateWorkspaceSchema>;

export const workspaceResource = defineResource({
  path: 'workspaces',
  tag: 'Workspaces',
  name: 'Workspace',
  read: WorkspaceSchema,
  create: CreateWorkspaceSchema,
  update: UpdateWorkspaceSchema,
  list: {
    filters: {
      code: { type: 'string', ops: ['eq', 'like', 'in'] },
      name: { type: 'string', ops: ['eq', 'like'] },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['code', 'name', 'created_at', 'updated_at'],
    defaultSort: 'code',
    softDelete: true,
  },
  notFound: 'WORKSPACE_NOT_FOUND',
  // Pipelines are catalogue data: any active user sets them up; deletes are a superuser's.
  writeRole: 'user',
  keys: 'workspace',
  softDelete: true,
  batch: false,
  errors: ['WORKSPACE_ALREADY_EXISTS', 'FORBIDDEN'],
});
