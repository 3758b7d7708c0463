// The crawler's side of the registry, through @aide/sdk: connection settings from flags and env vars,
// the system a crawl is for, and the crawl-run audit record. Every registry failure becomes one clear
// CrawlerError line; the password is never part of a message.
import type { CrawlRun, UpdateCrawlRun } from '@aide/schemas';
import { AideApiError, AideClient, AideConnectionError, AideError, AuthenticationError } from '@aide/sdk';
import { Agent } from 'undici';
import { CrawlerError, ExitCode } from '../errors.js';
import type { Io } from '../io.js';
import type { SourceDriver } from '../sources/source-driver.js';
import type { ReportSystem } from '../report/report.js';

import {
  METASTORE_API_KEY_ENV,
  METASTORE_PASSWORD_ENV,
  METASTORE_TOKEN_ENV,
  METASTORE_USER_ENV,
  metastoreClientOptions,
  metastoreSettings,
  type MetastoreOptions,
} from '@aide/sdk/cli';
/** Per request: a batch of 500 datasets is one request. */
const BATCH_TIMEOUT_MS = 300_000;

/** The registry flags every registry command takes (`METASTORE_OPTIONS` of @aide/sdk/cli). */
export type RegistryFlags = MetastoreOptions;

/** A registry client that counts the HTTP requests it sends (the benchmark and crawl runs report them). */
export interface Registry {
  client: AideClient;
  /** Requests sent so far, logins and retries included. */
  requests(): number;
  close(): Promise<void>;
}

/** Opens a client from the flags, else the env vars; a missing credential is a usage error. */
export function connectRegistry(flags: RegistryFlags, io: Io): Registry {
  // The same settings as every AIDE command line: flags, else env vars (an empty one is unset).
  const settings = metastoreSettings(flags, io.env);
  try {
    new URL(settings.baseUrl);
  } catch {
    throw new CrawlerError(`invalid --metastore-url '${settings.baseUrl}'`, { exitCode: ExitCode.USAGE });
  }
  const credentials = metastoreClientOptions(settings);
  if (credentials === undefined) {
    throw new CrawlerError(
      `--metastore-user and --metastore-password (or ${METASTORE_USER_ENV} and ${METASTORE_PASSWORD_ENV}, ` +
        `or ${METASTORE_API_KEY_ENV} or ${METASTORE_TOKEN_ENV}) are required`,
      { exitCode: ExitCode.USAGE },
    );
  }
  let requests = 0;
  const agent = new Agent();
  const dispatcher = agent.compose((dispatch) => (request, handler) => {
    requests++;
    return dispatch(request, handler);
  });
  // Batch writes of 500 datasets take a while on a busy server: a timeout must not cut them short.
  const client = new AideClient({
    ...credentials,
    userAgent: 'aide-crawler',
    dispatcher,
    timeoutMs: BATCH_TIMEOUT_MS,
  });
  return {
    client,
    requests: () => requests,
    async close() {
      await client.close();
      await agent.close();
    },
  };
}

/** A registry failure as one line: what was being done and what the registry (or the network) said. */
export function registryFailure(doing: string, error: unknown): CrawlerError {
  if (error instanceof CrawlerError) return error;
  let reason: string;
  if (error instanceof AuthenticationError) {
    reason = 'the registry refused the credentials (check --metastore-user and --metastore-password)';
  } else if (error instanceof AideApiError) {
    reason = `${error.errorCode}: ${error.detail}${error.requestId ? ` (request ${error.requestId})` : ''}`;
  } else if (error instanceof AideConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    reason = `the registry is unreachable${cause}`;
  } else if (error instanceof AideError || error instanceof Error) {
    reason = error.message;
  } else {
    reason = String(error);
  }
  return new CrawlerError(`cannot ${doing}: ${reason}`, { cause: error });
}

/** Runs a registry call, turning its failure into a CrawlerError. */
export async function registryCall<T>(doing: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw registryFailure(doing, error);
  }
}

/**
 * The system a crawl is for, checked before anything is recorded: it exists, its flavor is one of
 * those the source's driver maps types to, and that flavor has data types.
 */
export async function resolveSystem(
  client: AideClient,
  code: string,
  source: Pick<SourceDriver, 'name' | 'flavors'>,
): Promise<ReportSystem> {
  const page = await registryCall(`look up system '${code}'`, () => client.systems.list({ code, size: 1 }));
  const system = page.items[0];
  if (system === undefined) throw new CrawlerError(`system '${code}' not found in the registry`);
  const flavor = await registryCall(`read the flavor of system '${code}'`, () =>
    client.systemFlavors.get(system.flavor_id),
  );
  if (!source.flavors.includes(flavor.code)) {
    const expected = source.flavors.map((f) => `'${f}'`).join(' or ');
    throw new CrawlerError(
      `system '${code}' has flavor '${flavor.code}', but a ${source.name} source is described with ` +
        `flavor ${expected}`,
    );
  }
  const types = await registryCall(`read the data types of flavor '${flavor.code}'`, () =>
    client.dataTypes.list({ system_flavor_id: flavor.id, size: 1 }),
  );
  if (types.total === 0) {
    throw new CrawlerError(
      `flavor '${flavor.code}' has no data types: seed them before crawling (pnpm seed:data-types)`,
    );
  }
  return { id: system.id, code: system.code, flavor: flavor.code };
}

/** The crawl-run audit record: created `running`, finished once. */
export class CrawlRunRecord {
  private constructor(
    private readonly client: AideClient,
    private run: CrawlRun,
  ) {}

  static async start(
    client: AideClient,
    systemId: string,
    config: Record<string, unknown>,
  ): Promise<CrawlRunRecord> {
    const run = await registryCall('record the crawl run', () =>
      client.crawlRuns.create({ system_id: systemId, config }),
    );
    return new CrawlRunRecord(client, run);
  }

  /** Reads an existing run (for `apply`, which adds what it applied). */
  static async open(client: AideClient, id: string): Promise<CrawlRunRecord> {
    const run = await registryCall(`read crawl run ${id}`, () => client.crawlRuns.get(id));
    return new CrawlRunRecord(client, run);
  }

  get id(): string {
    return this.run.id;
  }

  get current(): CrawlRun {
    return this.run;
  }

  async update(body: Omit<UpdateCrawlRun, 'row_version'>): Promise<void> {
    this.run = await registryCall('update the crawl run', () =>
      this.client.crawlRuns.update(this.run.id, { ...body, row_version: this.run.row_version }),
    );
  }

  async complete(summary: Record<string, unknown>, diffPayload: Record<string, unknown>): Promise<void> {
    await this.update({ status: 'completed', summary, diff_payload: diffPayload });
  }

  /**
   * Marks the run failed with the error's message (and what was done before, when given); a failure
   * to do so is reported, not thrown.
   */
  async fail(error: unknown, io: Io, diffPayload?: Record<string, unknown>): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    try {
      await this.update({
        status: 'failed',
        error_message: message.slice(0, 20_000),
        ...(diffPayload === undefined ? {} : { diff_payload: diffPayload }),
      });
    } catch (recordError) {
      io.stderr(`aide-crawler: ${(recordError as Error).message}\n`);
    }
  }
}
