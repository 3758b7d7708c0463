import { z } from 'zod';

/** `POST /login`: the OAuth2 password form (`application/x-www-form-urlencoded`). */
export const LoginFormSchema = z
  .object({
    username: z.string().min(1).max(320),
    password: z.string().min(1).max(1000),
    // Standard OAuth2 password-grant fields, accepted and ignored.
    grant_type: z.string().max(100).optional(),
    scope: z.string().max(1000).optional(),
    client_id: z.string().max(1000).optional(),
    client_secret: z.string().max(1000).optional(),
  })
  .meta({ id: 'LoginForm' });
export type LoginForm = z.infer<typeof LoginFormSchema>;

export const TokenPairSchema = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.int().describe('Access-token lifetime in seconds'),
  })
  .meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof TokenPairSchema>;

export const RefreshTokenRequestSchema = z
  .strictObject({ refresh_token: z.string().min(1).max(512) })
  .meta({ id: 'RefreshTokenRequest' });
export type RefreshTokenRequest = z.infer<typeof RefreshTokenRequestSchema>;
