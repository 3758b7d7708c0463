import { contract, TokenPairSchema, type TokenPair } from '@aide/schemas';
import { AideApiError, AideError, RateLimitError } from '../core/errors.js';
import type { RequestOptions } from '../core/request-options.js';
import { parseResponse } from './parse.js';
import type { Transport } from './transport.js';

export interface Credentials {
  username: string;
  password: string;
}

export const LOGIN_PATH = contract.auth.login.path;
export const REFRESH_PATH = contract.auth.refresh.path;

/**
 * Holds the client's tokens. Logs in lazily on first use; on a 401 renews once: refresh (rotation),
 * falling back to a fresh login when the refresh token is refused and credentials are known.
 *
 * Single flight: one login or renewal at a time. Calls that need a token while one is running wait for
 * it, and a call whose 401 came with a token that has since been replaced just retries with the new one,
 * so twenty concurrent calls failing with the same expired token cause one refresh, not twenty.
 */
export class TokenManager {
  readonly #transport: Transport;
  readonly #validate: boolean;
  #credentials: Credentials | undefined;
  #access: string | undefined;
  #refresh: string | undefined;
  #inflight: Promise<void> | undefined;

  constructor(
    transport: Transport,
    init: { credentials?: Credentials | undefined; token?: string | undefined; validate: boolean },
  ) {
    this.#transport = transport;
    this.#credentials = init.credentials;
    this.#access = init.token;
    this.#validate = init.validate;
  }

  /** The current access token, logging in first when there is none yet. */
  async accessToken(): Promise<string> {
    while (this.#inflight) await this.#inflight;
    if (this.#access !== undefined) return this.#access;
    if (!this.#credentials) {
      throw new AideError(
        'No access token: the client has been logged out and has no credentials to log in again.',
      );
    }
    await this.#singleFlight(() => this.#loginNow(undefined).then(() => undefined));
    return this.accessToken();
  }

  /**
   * Called after a 401 answered a request sent with `stale`. Returns the token to retry with, or
   * undefined when there is no way to get a new one (a static token without credentials).
   */
  async renew(stale: string): Promise<string | undefined> {
    if (this.#inflight) {
      await this.#inflight;
      return this.#access;
    }
    if (this.#access !== undefined && this.#access !== stale) return this.#access;
    if (this.#refresh === undefined && this.#credentials === undefined) return undefined;
    await this.#singleFlight(() => this.#renewNow());
    return this.#access;
  }

  /** `POST /login` with the given or the configured credentials; given ones replace the configured. */
  async login(credentials: Credentials | undefined, options: RequestOptions | undefined): Promise<TokenPair> {
    if (credentials) this.#credentials = credentials;
    return this.#loginNow(options);
  }

  /** `POST /login/refresh` with the held refresh token (rotation: the old one stops working). */
  async refresh(options: RequestOptions | undefined): Promise<TokenPair> {
    const token = this.#refresh;
    if (token === undefined)
      throw new AideError('No refresh token: the client has not logged in with credentials.');
    const response = await this.#transport.send({
      method: 'POST',
      path: REFRESH_PATH,
      json: { refresh_token: token },
      options,
      retryThrottled: true,
    });
    return this.#install(parseResponse(TokenPairSchema, response, this.#validate));
  }

  /** The refresh token to revoke on logout; forgets both tokens. */
  takeRefreshToken(): string | undefined {
    const token = this.#refresh;
    this.forget();
    return token;
  }

  /** The user changed their password through this client: later logins use the new one. */
  passwordChanged(password: string): void {
    if (this.#credentials) this.#credentials = { ...this.#credentials, password };
  }

  forget(): void {
    this.#access = undefined;
    this.#refresh = undefined;
  }

  set(tokens: { access_token: string; refresh_token?: string | undefined }): void {
    this.#access = tokens.access_token;
    if (tokens.refresh_token !== undefined) this.#refresh = tokens.refresh_token;
  }

  async #loginNow(options: RequestOptions | undefined): Promise<TokenPair> {
    const credentials = this.#credentials;
    if (!credentials) throw new AideError('No credentials: construct the client with username and password.');
    const response = await this.#transport.send({
      method: 'POST',
      path: LOGIN_PATH,
      form: { username: credentials.username, password: credentials.password },
      options,
      retryThrottled: true,
    });
    return this.#install(parseResponse(TokenPairSchema, response, this.#validate));
  }

  async #renewNow(): Promise<void> {
    if (this.#refresh !== undefined) {
      try {
        await this.refresh(undefined);
        return;
      } catch (error) {
        // A refused refresh token (expired, revoked by a logout-all, rotated by someone else) is
        // replaced by a fresh login. Throttling and network failures would fail the login too.
        const refused =
          error instanceof AideApiError && !(error instanceof RateLimitError) && error.status < 500;
        if (!refused || !this.#credentials) throw error;
        this.#refresh = undefined;
      }
    }
    await this.#loginNow(undefined);
  }

  #install(pair: TokenPair): TokenPair {
    this.#access = pair.access_token;
    this.#refresh = pair.refresh_token;
    return pair;
  }

  #singleFlight(run: () => Promise<void>): Promise<void> {
    this.#inflight ??= run().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }
}
