import pg from 'pg';

// Every pg Client and Pool of the backend is made here (the lint config forbids `new pg.Client` and
// `new pg.Pool` elsewhere), so that each has an 'error' listener: node-postgres emits 'error' when the
// server drops a connection, and an 'error' event without a listener ends the process.

/** Bounds the wait for a connection, so that an unreachable server fails a request instead of hanging it. */
export const CONNECT_TIMEOUT_MS = 10_000;

export interface ClientOptions {
  /** Called with a connection error; the pending query fails with it anyway. Default: ignored. */
  onError?: (error: Error) => void;
  /** Shown in pg_stat_activity. Default: node-postgres's (none). */
  applicationName?: string;
}

/** A connected client for one-off statements (admin work, tools). End it with `client.end()`. */
export async function connectClient(url: string, options: ClientOptions = {}): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
  });
  client.on('error', options.onError ?? (() => undefined));
  await client.connect();
  return client;
}

/** Runs `work` on a fresh connection and closes it. */
export async function withClient<T>(
  url: string,
  work: (client: pg.Client) => Promise<T>,
  options: ClientOptions = {},
): Promise<T> {
  const client = await connectClient(url, options);
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
