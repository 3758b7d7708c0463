import type { FastifyRequest } from 'fastify';
import type { AuthUser } from './current-user.js';

/**
 * One way of proving who the caller is (ADR 0009). The guard asks each authenticator in turn: the first
 * that recognises a credential in the request decides. An SSO login (OIDC through a passport strategy
 * or `openid-client`) or API keys are added as further authenticators, without touching any route.
 */
export interface Authenticator {
  /**
   * The caller, or `undefined` when the request carries no credential of this kind: then preferably
   * `undefined` itself rather than a promise of it, so that the guard asks the next authenticator
   * without an await (every request passes every authenticator before its own). A credential of this
   * kind that is invalid, expired or revoked throws (or rejects with) UNAUTHORIZED.
   */
  authenticate(request: FastifyRequest): Promise<AuthUser | undefined> | undefined;
}

/** Injection token of the authenticators, in the order they are asked. */
export const AUTHENTICATORS = Symbol('AUTHENTICATORS');
