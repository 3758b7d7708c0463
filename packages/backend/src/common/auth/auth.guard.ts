import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { IS_PUBLIC, REQUIRES_SUPERUSER } from './current-user.js';
import { TokenStateCache } from './token-state-cache.js';
import { TokenService } from './token.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Global guard: every route needs a valid bearer token unless marked @Public(). The user's token state
 * comes from the per-replica cache that PostgreSQL keeps current (ADR 0023), so deactivation,
 * logout-all and password changes take effect at once on every replica.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly tokenState: TokenStateCache,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1]) throw new AppError('UNAUTHORIZED');
    const claims = await this.tokens.verifyAccess(match[1]);
    if (!claims || !UUID.test(claims.sub)) throw new AppError('UNAUTHORIZED');

    const row = await this.tokenState.get(claims.sub);
    if (!row?.is_active || row.token_version !== claims.tv) throw new AppError('UNAUTHORIZED');
    request.user = { id: claims.sub, is_superuser: row.is_superuser };

    if (this.reflector.getAllAndOverride<boolean>(REQUIRES_SUPERUSER, targets) && !row.is_superuser) {
      throw new AppError('FORBIDDEN');
    }
    return true;
  }
}
