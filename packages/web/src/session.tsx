import { contract, type RouteDef } from '@aide/schemas';
import { AideClient, type User } from '@aide/sdk';
import { createContext, useContext } from 'react';

/**
 * Tokens live in this module's memory only (never localStorage or cookies): a reload signs the user
 * out. The password is used for one login call and not kept; renewal goes through the refresh token
 * (the SDK refreshes once on a 401 and rotates it).
 */
export interface Session {
  client: AideClient;
  /** `GET /users/me` at sign-in: its `is_superuser` decides which controls the pages show. */
  user: User;
}

/**
 * Whether the signed-in user may call a route, from the route's declared `auth` (the contract is the
 * one source of truth): the UI hides a control exactly when the API would refuse it with FORBIDDEN.
 */
export function can(user: Pick<User, 'is_superuser'>, route: Pick<RouteDef, 'auth'> | undefined): boolean {
  if (!route) return false;
  // No route of the UI is `technical`; a browser user is never a service account, so only superusers.
  return route.auth === 'superuser' || route.auth === 'technical' ? user.is_superuser : true;
}

const baseUrl = () => window.location.origin;
const browserFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);

/**
 * Why the last session ended, as the login page tells it. A session ends when the server refuses to
 * renew it (the refresh token was revoked by a logout-all, expired or is unknown), when the user signs
 * out, or when the page is reloaded: tokens live in memory only, so a reload cannot keep them.
 */
const ENDED_BY_CODE: Record<string, string> = {
  REFRESH_TOKEN_REVOKED: 'Your session ended: you were signed out everywhere. Sign in again to continue.',
  REFRESH_TOKEN_EXPIRED: 'Your session ended: it expired. Sign in again to continue.',
  REFRESH_TOKEN_INVALID: 'Your session ended: the server no longer knows it. Sign in again to continue.',
};
export const ENDED_BY_RELOAD =
  'The page was reloaded, which signs you out: for safety, a session lives in this tab’s memory only and ' +
  'does not survive a reload. Sign in again to continue.';
export const ENDED_BY_USER = 'You signed out.';

/** The login page's sentence for a session the server ended with `code`. */
export function endedMessage(code: string): string {
  return ENDED_BY_CODE[code] ?? 'Your session ended. Sign in again to continue.';
}

/** Whether this document was loaded by a reload (the Navigation Timing entry), when the browser says. */
const reloaded = (): boolean => {
  try {
    const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return entry?.type === 'reload';
  } catch {
    return false;
  }
};

// Nothing is stored (no token, no flag): a reload is told by the navigation entry, and only until the
// user has signed in on this page.
let signedInHere = false;
let lastReason: string | null = null;
const endListeners = new Set<(reason: string) => void>();

/** Ends the session for `reason`: the listeners (the app) sign the user out; the login page shows it. */
export function endSession(reason: string): void {
  lastReason = reason;
  for (const listener of endListeners) listener(reason);
}

/** Subscribes to ended sessions; returns the unsubscribe. */
export function onSessionEnded(listener: (reason: string) => void): () => void {
  endListeners.add(listener);
  return () => endListeners.delete(listener);
}

/**
 * The reason to show on the login page: an ended session's, or the reload's when the page was reloaded
 * and nobody has signed in on it since. Reading it changes nothing; the next sign-in clears it.
 */
export function endedReason(): string | null {
  return lastReason ?? (!signedInHere && reloaded() ? ENDED_BY_RELOAD : null);
}

const urlOf = (input: RequestInfo | URL): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/**
 * The session's fetch: a refused renewal (401 from the refresh route, after the SDK's one retry) ends
 * the session with the server's error code, instead of leaving every page showing the 401.
 */
const sessionFetch: typeof fetch = async (input, init) => {
  const response = await browserFetch(input, init);
  if (response.status === 401 && new URL(urlOf(input), baseUrl()).pathname === contract.auth.refresh.path) {
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => null);
    const code =
      body && typeof body === 'object' && typeof (body as { error_code?: unknown }).error_code === 'string'
        ? (body as { error_code: string }).error_code
        : 'UNAUTHORIZED';
    endSession(endedMessage(code));
  }
  return response;
};

export async function logIn(username: string, password: string): Promise<Session> {
  const login = new AideClient({ baseUrl: baseUrl(), username, password, fetch: browserFetch });
  const pair = await login.auth.login();
  await login.close();
  const client = new AideClient({ baseUrl: baseUrl(), token: pair.access_token, fetch: sessionFetch });
  client.auth.setTokens(pair);
  const session = { client, user: await client.users.me() };
  lastReason = null;
  signedInHere = true;
  return session;
}

export async function logOut(session: Session): Promise<void> {
  lastReason = ENDED_BY_USER;
  await session.client.auth.logout().catch(() => undefined);
  await session.client.close();
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

/** `can` for the signed-in user. */
export function useCan(): (route: Pick<RouteDef, 'auth'> | undefined) => boolean {
  const { user } = useSession();
  return (route) => can(user, route);
}
