import { createHmac, randomBytes } from 'node:crypto';
import type { User } from '@aide/schemas';
import { Agent, type Dispatcher } from 'undici';
import { AideClient, type AideClientBaseOptions } from '../../src/index.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(
      `${name} is not set: run the tests through jest (test/global-setup.mjs starts the backend)`,
    );
  return value;
}

/** The backend started by test/global-setup.mjs. */
export const backend = {
  get baseUrl(): string {
    return required('AIDE_SDK_TEST_BASE_URL');
  },
  get username(): string {
    return required('AIDE_SDK_TEST_USERNAME');
  },
  get password(): string {
    return required('AIDE_SDK_TEST_PASSWORD');
  },
  get jwtSecret(): string {
    return required('AIDE_SDK_TEST_JWT_SECRET');
  },
};

type ExtraOptions = Omit<AideClientBaseOptions, 'baseUrl'>;

/** A client logged in as the run's superuser. */
export function adminClient(options: ExtraOptions = {}): AideClient {
  return new AideClient({
    baseUrl: backend.baseUrl,
    username: backend.username,
    password: backend.password,
    ...options,
  });
}

/** A client for the given credentials. */
export function clientFor(
  credentials: { username: string; password: string },
  options: ExtraOptions = {},
): AideClient {
  return new AideClient({ baseUrl: backend.baseUrl, ...credentials, ...options });
}

/** A code no other test (or earlier run against the same database) uses. */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** Creates a user through the admin client and returns its credentials. */
export async function createUser(
  admin: AideClient,
  overrides: { is_superuser?: boolean } = {},
): Promise<{ username: string; password: string; user: User }> {
  const username = `${unique('user')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await admin.users.create({
    email: username,
    password,
    full_name: 'SDK test user',
    ...overrides,
  });
  return { username, password, user };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * The same access token with other `iat`/`exp`, signed HS256 with the run's secret: a genuine token
 * of the backend, expired when `expiresInSeconds` is negative.
 */
export function resignAccessToken(token: string, expiresInSeconds: number): string {
  const [, payload] = token.split('.');
  const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >;
  const now = Math.floor(Date.now() / 1000);
  const signingInput = `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({
    ...claims,
    iat: now - 3600,
    exp: now + expiresInSeconds,
  })}`;
  const signature = createHmac('sha256', backend.jwtSecret).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

/** An Agent that records `METHOD /path?query` of every request it sends. */
export function recordingDispatcher(): {
  dispatcher: Dispatcher;
  requests: string[];
  count(route: string): number;
  close(): Promise<void>;
} {
  const requests: string[] = [];
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    requests.push(`${options.method} ${options.path}`);
    return dispatch(options, handler);
  });
  return {
    dispatcher,
    requests,
    count: (route) => requests.filter((r) => r === route || r.startsWith(`${route}?`)).length,
    close: () => agent.close(),
  };
}
