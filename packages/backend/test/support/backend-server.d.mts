// Types of backend-server.mjs (plain JavaScript, so other packages load it without a build).
import type { ChildProcess } from 'node:child_process';

/** The backend package's directory. */
export declare const BACKEND_DIR: string;

/** A TCP port free on the loopback interface right now. */
export declare function freePort(): Promise<number>;

/** `serverUrl` with its database replaced by `database`. */
export declare function databaseUrl(serverUrl: string, database: string): string;

/** Creates `database` on the server (empty, or a copy of `template`) and returns its URL. */
export declare function createDatabase(
  serverUrl: string,
  database: string,
  options?: { template?: string | undefined },
): Promise<string>;

/** Drops `database`, closing its connections. */
export declare function dropDatabase(serverUrl: string, database: string): Promise<void>;

/**
 * Creates `database`, migrated and seeded with the reference data (kinds, flavors, data types, casts),
 * to copy with `createDatabase(…, { template })`. No users: each backend creates its own superuser.
 */
export declare function createTemplateDatabase(serverUrl: string, database: string): Promise<string>;

/** DATABASE_URL's server when set, otherwise an embedded PostgreSQL with its data in `dir`. */
export declare function startPostgres(dir: string): Promise<{ url: string; stop(): Promise<void> }>;

export interface StartBackendOptions {
  databaseUrl: string;
  /** Created on start when missing (an existing one keeps its password). */
  superuser: { email: string; password: string };
  /** Migrate and seed on start (default true); false for a copy of a template database. */
  migrateAndSeed?: boolean | undefined;
  /** More environment variables, or overrides of the defaults. */
  env?: Record<string, string> | undefined;
  /** Node options before dist/main.js (e.g. `--cpu-prof`). */
  nodeArgs?: readonly string[] | undefined;
}

export interface BackendServer {
  baseUrl: string;
  /** The JWT signing secret the server was given. */
  jwtSecret: string;
  child: ChildProcess;
  /** The last 20,000 characters of its stdout and stderr. */
  output(): string;
  /** SIGTERM (SIGKILL after 10 s), then removes its working directory. The database is the caller's. */
  stop(): Promise<void>;
}

/** Starts `node dist/main.js` on a free loopback port and resolves once /health/ready answers 200. */
export declare function startBackendServer(options: StartBackendOptions): Promise<BackendServer>;
