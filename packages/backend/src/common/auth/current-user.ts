import type { ApiKeyScope } from '@aide/schemas';
import { SetMetadata } from '@nestjs/common';
import type {} from 'fastify';

/** The authenticated caller, as read from the live user row on every request. */
export interface AuthUser {
  id: string;
  is_superuser: boolean;
  user_type: 'regular' | 'technical';
  /** A caller proved by an API key: the workspaces the key is scoped to (absent for tokens). */
  workspace_ids?: readonly string[];
  /** A caller proved by an API key: what the key reaches outside its workspaces (absent for tokens). */
  key_scopes?: readonly ApiKeyScope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthUser;
  }
}

export const IS_PUBLIC = 'aide:public';

/**
 * Metadata key of the route a handler is bound to: written by `@Route` (common/contract), read here by
 * the auth guard for the route's declared `auth` (the key lives on this side so auth needs no contract).
 */
export const ROUTE_DEF = 'aide:route';

/** A route outside the contract that needs no token (health, docs, metrics with its own token). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
