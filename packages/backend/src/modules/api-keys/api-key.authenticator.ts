import { Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Authenticator } from '../../common/auth/authenticator.js';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { looksLikeApiKey } from './api-key-secret.js';
import { ApiKeysService } from './api-keys.service.js';

/**
 * API keys (ADR 0009's boundary): `X-API-Key: <key>`, DataCoolie's header, or `Authorization: Bearer
 * <key>` on any route (a key is recognised by its `aidek_` prefix; other bearer tokens are the JWT
 * authenticator's). The key row is read on every request: a revoked or expired key, or a deactivated
 * owner, is refused at once. The caller is the key's owner, scoped to the key's workspaces.
 */
@Injectable()
export class ApiKeyAuthenticator implements Authenticator {
  constructor(private readonly keys: ApiKeysService) {}

  /** No promise for a request without a key: most requests carry a JWT instead. */
  authenticate(request: FastifyRequest): Promise<AuthUser> | undefined {
    const key = this.presented(request);
    return key === undefined ? undefined : this.caller(key);
  }

  private async caller(key: string): Promise<AuthUser> {
    const verified = await this.keys.verify(key);
    if (!verified) throw new AppError('UNAUTHORIZED', 'The API key is invalid, expired or revoked.');
    return {
      id: verified.user_id,
      is_superuser: verified.is_superuser,
      user_type: verified.user_type,
      workspace_ids: verified.workspace_ids,
      key_scopes: verified.scopes,
    };
  }

  private presented(request: FastifyRequest): string | undefined {
    const header = request.headers['x-api-key'];
    if (typeof header === 'string') return header.trim();
    if (Array.isArray(header)) throw new AppError('UNAUTHORIZED', 'Send one X-API-Key header.');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    return bearer !== undefined && looksLikeApiKey(bearer) ? bearer : undefined;
  }
}
