import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { queryPrepared } from '../../database/prepared-query.js';
import { AppError } from '../errors/app-error.js';
import type { Authenticator } from './authenticator.js';
import type { AuthUser } from './current-user.js';
import { TokenService } from './token.service.js';

const USER_AUTH_SQL = 'SELECT is_active, is_superuser, user_type, token_version FROM users WHERE id = $1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface UserAuthRow {
  is_active: boolean;
  is_superuser: boolean;
  user_type: AuthUser['user_type'];
  token_version: number;
}

/**
 * `Authorization: Bearer <access token>` (our own HS256 JWTs, ADR 0004 and 0009). The user row is read
 * on every request, so deactivation, logout-all and password changes take effect at once on every
 * replica.
 */
@Injectable()
export class BearerJwtAuthenticator implements Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly dataSource: DataSource,
  ) {}

  async authenticate(request: FastifyRequest): Promise<AuthUser | undefined> {
    const header = request.headers.authorization;
    if (header === undefined) return undefined;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new AppError('UNAUTHORIZED');
    const claims = await this.tokens.verifyAccess(match[1]);
    if (!claims || !UUID.test(claims.sub)) throw new AppError('UNAUTHORIZED');

    // A prepared statement on the pool under TypeORM: this runs on every authenticated request.
    const rows = await queryPrepared<UserAuthRow>(this.dataSource, USER_AUTH_SQL, [claims.sub]);
    const row = rows[0];
    if (!row?.is_active || row.token_version !== claims.tv) throw new AppError('UNAUTHORIZED');
    return { id: claims.sub, is_superuser: row.is_superuser, user_type: row.user_type };
  }
}
