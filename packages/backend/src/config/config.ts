import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

// dist/config/config.js (or src/config/config.ts) → the repository root, where `.aide/` lives.
const DEFAULT_DATA_DIR = join(
  resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..'),
  '.aide',
);

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Comma-separated IP addresses and CIDR ranges, e.g. `10.0.0.0/8, 192.168.1.7, fd00::/8`. */
const addressList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .pipe(
    z.array(
      z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
        error: (issue) => `${JSON.stringify(issue.input)} is not an IP address or a CIDR range`,
      }),
    ),
  );

const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { message: 'must be a whole number' })
    .transform(Number)
    .pipe(z.int().min(min).max(max));

/** Every environment variable the server reads, with its default. The README's table mirrors this. */
const EnvSchema = z.object({
  PORT: int(0, 65535).default(8001),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  AIDE_DATA_DIR: z.string().min(1).optional(),
  AIDE_EMBEDDED_PG_PORT: int(1024, 65535).default(54329),
  AIDE_MIGRATE_ON_START: bool.optional(),
  AIDE_SEED_ON_START: bool.optional(),
  AIDE_DB_POOL_SIZE: int(1, 500).default(20),
  AIDE_DB_JIT: bool.optional(),
  AIDE_SEARCH_CONCURRENCY: int(1, 500).optional(),
  AIDE_SEARCH_QUEUE: int(0, 10000).optional(),
  AIDE_SEARCH_STATEMENT_TIMEOUT_MS: int(1, 600000).default(5000),
  AIDE_JWT_SECRET: z.string().optional(),
  AIDE_ACCESS_TOKEN_TTL_MINUTES: int(1, 1440).default(30),
  AIDE_REFRESH_TOKEN_TTL_DAYS: int(1, 365).default(14),
  AIDE_TECHNICAL_REFRESH_TOKEN_TTL_DAYS: int(1, 3650).default(365),
  AIDE_SUPERUSER_EMAIL: z.email().optional(),
  AIDE_SUPERUSER_PASSWORD: z.string().min(8).optional(),
  AIDE_BCRYPT_COST: int(12, 16).default(12),
  AIDE_LOGIN_MAX_PER_IP: int(1, 100000).default(30),
  AIDE_LOGIN_MAX_FAILURES_PER_ACCOUNT: int(1, 100000).default(10),
  AIDE_LOGIN_WINDOW_SECONDS: int(1, 86400).default(60),
  AIDE_BODY_LIMIT_BYTES: int(1024, 100 * 1024 * 1024).default(1024 * 1024),
  AIDE_WATERMARK_MAX_BYTES: int(1, 100 * 1024 * 1024).default(64 * 1024),
  AIDE_WATERMARK_HISTORY_KEPT: int(1, 1_000_000).default(100),
  AIDE_SHUTDOWN_TIMEOUT_MS: int(0, 600000).default(10000),
  AIDE_OPENLINEAGE_MAX_DATASET_PAIRS: int(1, 1_000_000).default(10_000),
  AIDE_OPENLINEAGE_MAX_FIELD_EDGES: int(1, 1_000_000).default(10_000),
  AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS: int(1, 36_500).optional(),
  AIDE_CORS_ORIGINS: z.string().optional(),
  AIDE_TRUSTED_PROXIES: addressList.optional(),
  AIDE_METRICS_TOKEN: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  AIDE_WEB_DIR: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AIDE_LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** The names of the variables the server reads (the deployment manifests' test checks theirs). */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

export interface AppConfig {
  port: number;
  host: string;
  /** Undefined means: run the embedded PostgreSQL under `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  migrateOnStart: boolean;
  seedOnStart: boolean;
  dbPoolSize: number;
  /** PostgreSQL JIT for the API's sessions (AIDE_DB_JIT, off by default). */
  dbJit: boolean;
  /** Searches running at once (each holds a pool connection); below the pool size (ADR 0034). */
  searchConcurrency: number;
  /** Searches waiting for a turn; beyond them 503 SEARCH_BUSY. */
  searchQueue: number;
  /** statement_timeout of each search statement; beyond it 503 SEARCH_TIMEOUT. */
  searchStatementTimeoutMs: number;
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  technicalRefreshTokenTtlDays: number;
  superuserEmail: string | undefined;
  superuserPassword: string | undefined;
  bcryptCost: number;
  loginMaxPerIp: number;
  loginMaxFailuresPerAccount: number;
  loginWindowSeconds: number;
  bodyLimitBytes: number;
  /** Largest watermark text a write may store, in UTF-8 bytes (422 WATERMARK_TOO_LARGE beyond). */
  watermarkMaxBytes: number;
  /** Writes of each dataflow's watermark kept in its history; a write prunes the older ones. */
  watermarkHistoryKept: number;
  shutdownTimeoutMs: number;
  /**
   * The work one OpenLineage event may ask for (413 OPENLINEAGE_EVENT_TOO_LARGE beyond): input → output
   * pairs of registered datasets, and column-lineage edges (output field ← input field).
   */
  openLineageMaxDatasetPairs: number;
  openLineageMaxFieldEdges: number;
  /** Days a run's raw events are kept (ADR 0053); undefined: for ever. */
  openLineageEventRetentionDays: number | undefined;
  corsOrigins: string[];
  /**
   * The load balancers and proxies whose `X-Forwarded-For` is believed (addresses and CIDR ranges). The
   * client address is the right-most entry of the header that is not one of them; empty: the peer.
   */
  trustedProxies: string[];
  /** Bearer token of `GET /metrics`; undefined disables the route. */
  metricsToken: string | undefined;
  /** The built web UI served at /ui (default: packages/web/dist of this checkout). */
  webDir: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  logFormat: 'json' | 'pretty';
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses and checks the environment once at start-up; a bad value is a ConfigError naming the variable. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: { requireJwtSecret?: boolean } = {},
): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.AIDE_JWT_SECRET !== undefined && Buffer.byteLength(e.AIDE_JWT_SECRET) < 32) {
    throw new ConfigError('Invalid configuration:\n  AIDE_JWT_SECRET: must be at least 32 bytes');
  }
  if (e.DATABASE_URL !== undefined && e.AIDE_JWT_SECRET === undefined && options.requireJwtSecret !== false) {
    // Replicas on a shared database must share the signing key, so it cannot be generated locally.
    throw new ConfigError('Invalid configuration:\n  AIDE_JWT_SECRET: required when DATABASE_URL is set');
  }
  if ((e.AIDE_SUPERUSER_EMAIL === undefined) !== (e.AIDE_SUPERUSER_PASSWORD === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  AIDE_SUPERUSER_EMAIL and AIDE_SUPERUSER_PASSWORD must be set together',
    );
  }
  // Searches get a bounded share of the pool (ADR 0034): by default a quarter, never all of it.
  const searchConcurrency = e.AIDE_SEARCH_CONCURRENCY ?? Math.max(1, Math.floor(e.AIDE_DB_POOL_SIZE / 4));
  if (e.AIDE_DB_POOL_SIZE > 1 && searchConcurrency >= e.AIDE_DB_POOL_SIZE) {
    throw new ConfigError(
      `Invalid configuration:\n  AIDE_SEARCH_CONCURRENCY: must be less than AIDE_DB_POOL_SIZE (${e.AIDE_DB_POOL_SIZE}), ` +
        'so that searches cannot hold every connection',
    );
  }
  const embedded = e.DATABASE_URL === undefined;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    // A relative AIDE_DATA_DIR is taken from the working directory.
    dataDir: e.AIDE_DATA_DIR ? resolve(e.AIDE_DATA_DIR) : DEFAULT_DATA_DIR,
    embeddedPgPort: e.AIDE_EMBEDDED_PG_PORT,
    migrateOnStart: e.AIDE_MIGRATE_ON_START ?? embedded,
    seedOnStart: e.AIDE_SEED_ON_START ?? embedded,
    dbPoolSize: e.AIDE_DB_POOL_SIZE,
    dbJit: e.AIDE_DB_JIT ?? false,
    searchConcurrency,
    searchQueue: e.AIDE_SEARCH_QUEUE ?? searchConcurrency * 4,
    searchStatementTimeoutMs: e.AIDE_SEARCH_STATEMENT_TIMEOUT_MS,
    jwtSecret: e.AIDE_JWT_SECRET,
    accessTokenTtlSeconds: e.AIDE_ACCESS_TOKEN_TTL_MINUTES * 60,
    refreshTokenTtlDays: e.AIDE_REFRESH_TOKEN_TTL_DAYS,
    technicalRefreshTokenTtlDays: e.AIDE_TECHNICAL_REFRESH_TOKEN_TTL_DAYS,
    superuserEmail: e.AIDE_SUPERUSER_EMAIL?.toLowerCase(),
    superuserPassword: e.AIDE_SUPERUSER_PASSWORD,
    bcryptCost: e.AIDE_BCRYPT_COST,
    loginMaxPerIp: e.AIDE_LOGIN_MAX_PER_IP,
    loginMaxFailuresPerAccount: e.AIDE_LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginWindowSeconds: e.AIDE_LOGIN_WINDOW_SECONDS,
    bodyLimitBytes: e.AIDE_BODY_LIMIT_BYTES,
    watermarkMaxBytes: e.AIDE_WATERMARK_MAX_BYTES,
    watermarkHistoryKept: e.AIDE_WATERMARK_HISTORY_KEPT,
    shutdownTimeoutMs: e.AIDE_SHUTDOWN_TIMEOUT_MS,
    openLineageMaxDatasetPairs: e.AIDE_OPENLINEAGE_MAX_DATASET_PAIRS,
    openLineageMaxFieldEdges: e.AIDE_OPENLINEAGE_MAX_FIELD_EDGES,
    openLineageEventRetentionDays: e.AIDE_OPENLINEAGE_EVENT_RETENTION_DAYS,
    metricsToken: e.AIDE_METRICS_TOKEN,
    webDir: e.AIDE_WEB_DIR,
    corsOrigins: e.AIDE_CORS_ORIGINS ? e.AIDE_CORS_ORIGINS.split(',').map((o) => o.trim()) : [],
    trustedProxies: e.AIDE_TRUSTED_PROXIES ?? [],
    logLevel: e.LOG_LEVEL,
    logFormat: e.AIDE_LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
  };
}

/** Injection token of the resolved AppConfig (with the JWT secret filled in). */
export const APP_CONFIG = Symbol('APP_CONFIG');

export interface ResolvedConfig extends AppConfig {
  databaseUrl: string;
  jwtSecret: string;
}
