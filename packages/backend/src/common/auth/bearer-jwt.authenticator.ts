import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { Authenticator } from './authenticator.js';
import type { AuthUser } from './current-user.js';
import { TokenStateCache } from './token-state-cache.js';
import { TokenService } from './token.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `Authorization: Bearer <access token>` (our own HS256 JWTs, ADR 0004 and 0009). The user's token
 * state comes from the per-replica cache that PostgreSQL keeps current (ADR 0023), so deactivation,
 * logout-all and password changes take effect at once on every replica.
 */
@Injectable()
export class BearerJwtAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly tokenState: TokenStateCache,
  ) {}

  authenticate(request: FastifyRequest): Promise<AuthUser> | undefined {
    const header = request.headers.authorization;
    return header === undefined ? undefined : this.caller(header);
  }

  private async caller(header: string): Promise<AuthUser> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new AppError('UNAUTHORIZED');
    const claims = await this.tokens.verifyAccess(match[1]);
    if (!claims || !UUID.test(claims.sub)) throw new AppError('UNAUTHORIZED');

    const row = this.tokenState.cached(claims.sub) ?? (await this.tokenState.get(claims.sub));
    if (!row?.is_active || row.token_version !== claims.tv) throw new AppError('UNAUTHORIZED');
    return { id: claims.sub, is_superuser: row.is_superuser, user_type: row.user_type };
  }
}
