import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory.js';
import { loadConfig, type ResolvedConfig } from '../../src/config/config.js';
import { createDataSource } from '../../src/database/data-source.js';
import { quoteIdent, withDatabase } from '../../src/database/naming.js';
import { withClient } from '../../src/database/pg-client.js';
import { TEMPLATE_DB, TEST_USERS } from '../test-users.mjs';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';
export const [ADMIN, USER] = TEST_USERS as [(typeof TEST_USERS)[number], (typeof TEST_USERS)[number]];

export interface TestContext {
  app: NestFastifyApplication;
  baseUrl: string;
  dataSource: DataSource;
  config: ResolvedConfig;
  adminToken: string;
  userToken: string;
  /** fetch against the test server; JSON bodies are encoded, the token sent as a bearer. */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  login(email: string, password: string): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function cloneTemplate(serverUrl: string): Promise<string> {
  const name = `aide_test_${randomBytes(6).toString('hex')}`;
  await withClient(serverUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(TEMPLATE_DB)}`),
  );
  return name;
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withClient(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}

/**
 * Starts the real application on its own database (a clone of the migrated template) on a random
 * loopback port. `env` overrides configuration, e.g. tighter login throttling.
 */
export async function createTestContext(env: Record<string, string> = {}): Promise<TestContext> {
  const serverUrl = process.env['AIDE_TEST_SERVER_URL'];
  if (!serverUrl)
    throw new Error('AIDE_TEST_SERVER_URL is not set: run the tests through jest (global setup)');
  const database = await cloneTemplate(serverUrl);
  const url = withDatabase(serverUrl, database);
  const base = loadConfig({
    DATABASE_URL: url,
    AIDE_JWT_SECRET: TEST_JWT_SECRET,
    AIDE_LOGIN_MAX_PER_IP: '1000',
    AIDE_LOGIN_MAX_FAILURES_PER_ACCOUNT: '100',
    LOG_LEVEL: 'silent',
    AIDE_LOG_FORMAT: 'json',
    ...env,
  });
  const config: ResolvedConfig = { ...base, databaseUrl: url, jwtSecret: TEST_JWT_SECRET };
  // 10 connections unless the test sets AIDE_DB_POOL_SIZE (as main.ts sizes the pool from it).
  const dataSource = createDataSource({
    url,
    poolSize: env['AIDE_DB_POOL_SIZE'] === undefined ? 10 : config.dbPoolSize,
  });
  await dataSource.initialize();
  const app = await createApp(config, dataSource, pino({ level: 'silent' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const baseUrl = `http://127.0.0.1:${port}`;

  const request = async (
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined;
    if (options.rawBody !== undefined) payload = options.rawBody;
    else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0)
      body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body };
  };

  const login = (email: string, password: string) =>
    request('POST', '/api/v1/login', {
      rawBody: new URLSearchParams({ username: email, password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  const tokenOf = async (email: string, password: string) => {
    const response = await login(email, password);
    if (response.status !== 200)
      throw new Error(`login failed for ${email}: ${JSON.stringify(response.body)}`);
    return response.body.access_token as string;
  };

  return {
    app,
    baseUrl,
    dataSource,
    config,
    adminToken: await tokenOf(ADMIN.email, ADMIN.password),
    userToken: await tokenOf(USER.email, USER.password),
    request,
    login,
    close: async () => {
      await app.close();
      await dataSource.destroy();
      await dropDatabase(serverUrl, database);
    },
  };
}

/** Asserts the error envelope and returns it. */
export function expectEnvelope(response: TestResponse, status: number, code: string) {
  expect({ status: response.status, code: response.body?.error_code }).toEqual({ status, code });
  expect(typeof response.body.detail).toBe('string');
  expect(response.body.request_id).toBe(response.headers.get('x-request-id'));
  return response.body;
}
