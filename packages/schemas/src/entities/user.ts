import { z } from 'zod';
import { auditShape, noteShape, rowVersionShape } from '../common/audit.js';
import { longText } from '../common/text.js';
import { defineResource } from '../resource.js';

export const USER_TYPES = ['regular', 'technical'] as const;
/** `technical` users (services, crawlers) get long-lived refresh tokens. */
export const UserTypeSchema = z.enum(USER_TYPES);
export type UserType = z.infer<typeof UserTypeSchema>;

/** UTF-8 byte length, without depending on Node's Buffer or the DOM's TextEncoder typings. */
function utf8Length(value: string): number {
  let bytes = 0;
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** bcrypt reads at most 72 bytes: a longer password would be silently truncated, so it is refused. */
export const PasswordSchema = z
  .string()
  .min(8)
  .refine((v) => utf8Length(v) <= 72, { message: 'must be at most 72 bytes in UTF-8' })
  .refine((v) => !v.includes('\u0000'), { message: 'must not contain NUL characters' });

export const EmailSchema = z
  .email()
  .max(255)
  .transform((v) => v.toLowerCase());

export const UserSchema = z
  .object({
    ...auditShape,
    email: z.string(),
    full_name: z.string().nullable(),
    is_active: z.boolean(),
    is_superuser: z.boolean(),
    user_type: UserTypeSchema,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof UserSchema>;

export const CreateUserSchema = z
  .strictObject({
    email: EmailSchema,
    password: PasswordSchema,
    full_name: longText(1000).nullable().optional(),
    is_active: z.boolean().optional(),
    is_superuser: z.boolean().optional(),
    user_type: UserTypeSchema.optional(),
    ...noteShape,
  })
  .meta({ id: 'CreateUser' });
export type CreateUser = z.input<typeof CreateUserSchema>;

/** Superuser edit of any user: deactivate, promote, reset the password. */
export const UpdateUserSchema = z
  .strictObject({
    email: EmailSchema.optional(),
    password: PasswordSchema.optional(),
    full_name: longText(1000).nullable().optional(),
    is_active: z.boolean().optional(),
    is_superuser: z.boolean().optional(),
    user_type: UserTypeSchema.optional(),
    ...noteShape,
    ...rowVersionShape,
  })
  .meta({ id: 'UpdateUser' });
export type UpdateUser = z.input<typeof UpdateUserSchema>;

/** A user's edit of their own account; a new password needs the current one. */
export const UpdateMeSchema = z
  .strictObject({
    full_name: longText(1000).nullable().optional(),
    password: PasswordSchema.optional(),
    current_password: z.string().max(1000).optional(),
    ...rowVersionShape,
  })
  .refine((v) => v.password === undefined || v.current_password !== undefined, {
    message: 'current_password is required to change the password',
    path: ['current_password'],
  })
  .meta({ id: 'UpdateMe' });
export type UpdateMe = z.input<typeof UpdateMeSchema>;

export const userResource = defineResource({
  path: 'users',
  tag: 'Users',
  name: 'User',
  read: UserSchema,
  create: CreateUserSchema,
  update: UpdateUserSchema,
  list: {
    filters: {
      email: { type: 'string', ops: ['eq', 'like'] },
      is_active: { type: 'boolean', ops: ['eq'] },
      is_superuser: { type: 'boolean', ops: ['eq'] },
      user_type: { type: 'string', ops: ['eq', 'in'], values: USER_TYPES },
      created_at: { type: 'datetime', ops: ['gte', 'lte'] },
    },
    sortable: ['email', 'full_name', 'is_active', 'user_type', 'created_at', 'updated_at'],
    defaultSort: 'email',
    softDelete: false,
  },
  notFound: 'USER_NOT_FOUND',
  readRole: 'superuser',
  writeRole: 'superuser',
  keys: 'none',
  softDelete: false,
  batch: false,
  // Users are never deleted through the API: deactivate them instead.
  without: ['delete'],
  errors: ['USER_ALREADY_EXISTS', 'LAST_SUPERUSER'],
});
