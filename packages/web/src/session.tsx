import { AideClient, type User } from '@aide/sdk';
import { createContext, useContext } from 'react';

/**
 * Tokens live in this module's memory only (never localStorage or cookies): a reload signs the user
 * out. The password is used for one login call and not kept; renewal goes through the refresh token
 * (the SDK refreshes once on a 401 and rotates it).
 */
export interface Session {
  client: AideClient;
  user: User;
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
