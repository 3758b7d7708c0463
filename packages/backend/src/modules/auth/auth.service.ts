import type { LoginForm, TokenPair } from '@aide/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { PasswordHasher } from '../../common/auth/password-hasher.js';
import { TokenStateCache } from '../../common/auth/token-state-cache.js';
import { hashRefreshToken, TokenService } from '../../common/auth/token.service.js';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import { Transactions } from '../../database/transactions.js';
import type { UserEntity } from '../users/user.entity.js';
import { UsersLookup } from '../users/users.lookup.js';
import { RefreshTokensRepository } from './refresh-tokens.repository.js';
import { ThrottleRepository } from './throttle.repository.js';

export interface ClientInfo {
  ip: string;
  userAgent: string | undefined;
}

const DAY_MS = 86_400_000;

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: ResolvedConfig,
    private readonly users: UsersLookup,
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly throttle: ThrottleRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly tx: Transactions,
    private readonly tokenState: TokenStateCache,
  ) {}

  private async throttleIp(ip: string): Promise<void> {
    const state = await this.throttle.hit(`ip:${ip}`, this.config.loginWindowSeconds);
    if (state.attempts > this.config.loginMaxPerIp) {
      throw new AppError(
        'TOO_MANY_REQUESTS',
        undefined,
        { retry_after: state.retryAfter },
        {
          'Retry-After': String(state.retryAfter),
        },
      );
    }
  }

  /**
   * Password login. Unknown email, wrong password and inactive user give the same answer after the
   * same bcrypt work; failures are counted per IP and per account.
   */
  async login(form: LoginForm, client: ClientInfo): Promise<TokenPair> {
    await this.throttleIp(client.ip);
    const email = form.username.trim().toLowerCase();
    const accountKey = `account:${email}`;
    const failures = await this.throttle.peek(accountKey, this.config.loginWindowSeconds);
    if (failures.attempts >= this.config.loginMaxFailuresPerAccount) {
      throw new AppError(
        'TOO_MANY_REQUESTS',
        'Too many failed logins for this account. Retry later.',
        {
          retry_after: failures.retryAfter,
        },
        { 'Retry-After': String(failures.retryAfter) },
      );
    }
    const user = await this.users.findByEmail(email);
    const valid = user
      ? await this.hasher.verify(form.password, user.hashed_password)
      : await this.hasher.verifyNothing(form.password);
    if (!user || !valid || !user.is_active) {
      await this.throttle.hit(accountKey, this.config.loginWindowSeconds);
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (failures.attempts > 0) await this.throttle.clear(accountKey);
    return this.tx.run(async (m) => (await this.issue(user, client, m)).pair);
  }

  /** Rotation: the presented token is revoked and a new pair issued. Re-use of a revoked token revokes them all. */
  async refresh(token: string, client: ClientInfo): Promise<TokenPair> {
    await this.throttleIp(client.ip);
    const hash = hashRefreshToken(token);
    let revokedAll = false;
    const outcome = await this.tx.run(async (m) => {
      const stored = await this.refreshTokens.findByHashForUpdate(hash, m);
      if (!stored) return new AppError('REFRESH_TOKEN_INVALID');
      if (stored.revoked_at) {
        // A rotated token presented again means it leaked: end every session of the user, access tokens
        // too. A token revoked by a logout is merely stale.
        if (stored.replaced_by) {
          await this.users.endSessions(stored.user_id, m);
          revokedAll = true;
        }
        return new AppError('REFRESH_TOKEN_REVOKED');
      }
      if (stored.expires_at.getTime() <= Date.now()) return new AppError('REFRESH_TOKEN_EXPIRED');
      const user = await this.users.findActive(stored.user_id, m);
      if (!user?.is_active) return new AppError('INVALID_CREDENTIALS');
      const issued = await this.issue(user, client, m);
      await this.refreshTokens.markRotated(stored.id, issued.refreshTokenId, m);
      return issued.pair;
    });
    // Errors are returned, not thrown, so the reuse revocation above commits.
    if (revokedAll) await this.tokenState.propagated();
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  }

  async logout(token: string): Promise<void> {
    await this.refreshTokens.revokeByHash(hashRefreshToken(token));
  }

  /** Revokes every refresh token and every access token issued so far. */
  async logoutAll(user: AuthUser): Promise<void> {
    await this.tx.run(async (m) => {
      await this.users.endSessions(user.id, m);
    });
    // Answered once every replica refuses the revoked access tokens (ADR 0023).
    await this.tokenState.propagated();
  }

  private async issue(
    user: UserEntity,
    client: ClientInfo,
    m: EntityManager,
  ): Promise<{ pair: TokenPair; refreshTokenId: string }> {
    const days =
      user.user_type === 'technical'
        ? this.config.technicalRefreshTokenTtlDays
        : this.config.refreshTokenTtlDays;
    const refresh = this.tokens.newRefreshToken();
    const refreshTokenId = await this.refreshTokens.insert(
      {
        token_hash: refresh.hash,
        user_id: user.id,
        expires_at: new Date(Date.now() + days * DAY_MS),
        client_info: client.userAgent?.slice(0, 255) ?? null,
      },
      m,
    );
    const pair: TokenPair = {
      access_token: await this.tokens.signAccess(user.id, user.token_version),
      refresh_token: refresh.token,
      token_type: 'bearer',
      expires_in: this.tokens.accessTtlSeconds,
    };
    return { pair, refreshTokenId };
  }
}
