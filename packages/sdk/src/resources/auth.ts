import { contract, type TokenPair } from '@aide/schemas';
import type { RequestOptions } from '../core/request-options.js';
import type { ApiClient } from '../internal/api.js';
import type { Credentials } from '../internal/auth.js';

/**
 * `/api/v1/login`: the token calls. The client logs in and refreshes by itself; these are for explicit
 * control — logging in eagerly, ending sessions, or reusing tokens obtained elsewhere.
 */
export class AuthResource {
  readonly #api: ApiClient;

  constructor(api: ApiClient) {
    this.#api = api;
  }

  /** The contract routes this client (and its token manager) calls. */

  /**
   * `POST /login` (form-encoded) with the given credentials, or those the client was built with, and
   * keeps the returned tokens. Given credentials replace the client's for later re-logins.
   */
  login(credentials?: Credentials, options?: RequestOptions): Promise<TokenPair> {
    return this.#api.tokens.login(credentials, options);
  }

  /** `POST /login/refresh` — exchanges the held refresh token for a new pair (the old one stops working). */
  refresh(options?: RequestOptions): Promise<TokenPair> {
    return this.#api.tokens.refresh(options);
  }

  /**
   * `POST /login/logout` — revokes the held refresh token and forgets both tokens. A client with
   * credentials logs in again on its next call.
   */
  async logout(options?: RequestOptions): Promise<void> {
    const token = this.#api.tokens.takeRefreshToken();
    if (token === undefined) return;
    await this.#api.invoke(contract.auth.logout, { body: { refresh_token: token }, options });
  }

  /**
   * `POST /login/logout-all` — ends every session of the user: all refresh tokens and all access tokens
   * issued so far stop working, on every client. This client forgets its tokens too.
   */
  async logoutAll(options?: RequestOptions): Promise<void> {
    await this.#api.invoke(contract.auth.logoutAll, { options });
    this.#api.tokens.forget();
  }

  /**
   * Uses tokens obtained elsewhere (a persisted session, another process's login). Without a refresh
   * token the client renews by logging in again, when it has credentials.
   */
  setTokens(tokens: { access_token: string; refresh_token?: string | undefined }): void {
    this.#api.tokens.set(tokens);
  }
}
