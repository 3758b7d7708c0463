import type { RouteDef } from '@aide/schemas';
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

export async function logIn(username: string, password: string): Promise<Session> {
  const login = new AideClient({ baseUrl: baseUrl(), username, password, fetch: browserFetch });
  const pair = await login.auth.login();
  await login.close();
  const client = new AideClient({ baseUrl: baseUrl(), token: pair.access_token, fetch: browserFetch });
  client.auth.setTokens(pair);
  return { client, user: await client.users.me() };
}

export async function logOut(session: Session): Promise<void> {
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
