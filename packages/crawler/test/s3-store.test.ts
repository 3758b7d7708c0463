// The S3 FileStore against a real S3-compatible server (s3rver, test/helpers/s3-server.ts), with
// credentials from the standard AWS chain (the environment variables set here): listing over several
// ListObjectsV2 pages, ranged reads, bytes read, and the errors a user sees (never with a secret).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { ExitCode, type CrawlerError } from '../src/errors.js';
import type { FileStore } from '../src/sources/files/file-store.js';
import { createS3Driver } from '../src/sources/files/s3-driver.js';
import { openS3Store } from '../src/sources/files/s3-store.js';
import { parseS3Url } from '../src/sources/files/s3-url.js';
import {
  DATA,
  crawlerFailure,
  expectRangedReads,
  inspectThrough,
  listAll,
  withOpened,
} from './helpers/file-stores.js';
import { S3RVER_KEY, startS3Server, type TestS3Server } from './helpers/s3-server.js';

let s3: TestS3Server;
const data = DATA;
const many: Record<string, string> = {};
for (let i = 0; i < 1010; i++) many[`tree/many/part-${String(i).padStart(4, '0')}.csv`] = `${i}\n`;
const saved = { ...process.env };

beforeAll(async () => {
  s3 = await startS3Server(['lake']);
  await s3.put('lake', {
    ...many,
    'tree/data.bin': data,
    'tree/nested/a/b/c.txt': 'deep',
    'tree/empty/': '', // a folder marker
    'tree-other/x.txt': 'outside the prefix',
    'solo.bin': data,
    'trailing space .txt': 'x',
  });
}, 300_000); // s3rver stores about 20 objects a second on a busy machine

afterAll(async () => {
  await s3?.stop();
});

beforeEach(() => {
  process.env['AWS_ACCESS_KEY_ID'] = S3RVER_KEY.accessKeyId;
  process.env['AWS_SECRET_ACCESS_KEY'] = S3RVER_KEY.secretAccessKey;
  delete process.env['AWS_PROFILE'];
});

afterEach(() => {
  process.env = { ...saved };
});

const url = (path: string) => `s3://lake/${path}?endpoint=${s3.endpoint}&force_path_style=true`;

const withStore = <T>(path: string, work: (store: FileStore) => Promise<T>) =>
  withOpened(openS3Store(parseS3Url(url(path))), work);

describe('S3 file store', () => {
  it('lists every object under the prefix over several pages, in code-point order, without folder markers', async () => {
    const files = await withStore('tree', listAll);
    const expected = [
      'data.bin',
      ...Object.keys(many).map((k) => k.slice('tree/'.length)),
      'nested/a/b/c.txt',
    ];
    expect(files.map((f) => f.path)).toEqual(
      expected.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    expect(files).toHaveLength(1012); // more than one page of 1000 keys
    expect(files.find((f) => f.path === 'data.bin')).toMatchObject({ size: 100, modified: expect.any(Date) });
    expect(await withStore('tree/nested/', listAll)).toEqual([
      expect.objectContaining({ path: 'a/b/c.txt', size: 4 }),
    ]);
  });

  it('reads only the requested ranges, from the end too, and counts those bytes', async () => {
    await withStore('tree', async (store) => {
      expect(store.display).toBe('s3://lake/tree');
      await listAll(store); // reads from the end use the listed sizes
      await expectRangedReads(store);
      expect(Buffer.from(await store.read('nested/a/b/c.txt', 0))).toEqual(Buffer.from('deep'));
    });
  });

  it('reads from the end of a file it has not listed', async () => {
    await withStore('tree', async (store) => {
      expect(Buffer.from(await store.read('data.bin', -8))).toEqual(data.subarray(92));
      expect(Buffer.from(await store.read('data.bin', -300))).toEqual(data);
    });
  });

  it('serves a single object as a root', async () => {
    await withStore('solo.bin', async (store) => {
      expect((await listAll(store)).map((f) => [f.path, f.size])).toEqual([['solo.bin', 100]]);
      expect(Buffer.from(await store.read('solo.bin', -4))).toEqual(data.subarray(96));
    });
    expect((await withStore('trailing space .txt', listAll)).map((f) => f.path)).toEqual([
      'trailing space .txt',
    ]);
  });

  it('names a missing bucket, prefix or object', async () => {
    const store = (path: string) => openS3Store(parseS3Url(url(path).replace('s3://lake/', 's3://nope/')));
    expect(await crawlerFailure(() => store('tree'))).toBe('no such bucket: s3://nope');
    expect(await crawlerFailure(() => withStore('nothing', listAll))).toBe(
      'no such object: s3://lake/nothing',
    );
    await withStore('tree', async (s) => {
      expect(await crawlerFailure(() => s.read('missing.parquet', -8))).toBe(
        'no such object: s3://lake/tree/missing.parquet',
      );
    });
  });

  it('fails clearly on rejected or missing credentials, never showing the secret', async () => {
    // s3rver checks the access key id (it does not verify V4 signatures).
    process.env['AWS_ACCESS_KEY_ID'] = 'AKIAUNKNOWNKEY';
    process.env['AWS_SECRET_ACCESS_KEY'] = 'not-the-secret-0123456789';
    const rejected = await crawlerFailure(() => withStore('tree', listAll));
    expect(rejected).toBe('the AWS credentials were rejected for s3://lake/tree (InvalidAccessKeyId)');

    delete process.env['AWS_ACCESS_KEY_ID'];
    delete process.env['AWS_SECRET_ACCESS_KEY'];
    process.env['AWS_SHARED_CREDENTIALS_FILE'] = '/nonexistent/credentials';
    process.env['AWS_CONFIG_FILE'] = '/nonexistent/config';
    process.env['AWS_EC2_METADATA_DISABLED'] = 'true';
    expect(await crawlerFailure(() => withStore('tree', listAll))).toMatch(
      /^no AWS credentials found for s3:\/\/lake\/tree/,
    );
  });

  it('accepts no credentials in the URL and checks its parameters', () => {
    const usage = (text: string) => {
      try {
        parseS3Url(text);
      } catch (error) {
        expect((error as CrawlerError).exitCode).toBe(ExitCode.USAGE);
        return (error as Error).message;
      }
      throw new Error('expected a usage error');
    };
    const withSecret = usage('s3://AKIAEXAMPLE:very-secret@lake/tree');
    expect(withSecret).toMatch(/^credentials in an s3:\/\/ URL are not accepted/);
    expect(withSecret).not.toContain('very-secret');
    expect(withSecret).not.toContain('AKIAEXAMPLE');
    expect(usage('s3://lake/x?secret_key=1')).toMatch(/unknown parameter 'secret_key'/);
    expect(usage('s3://lake/x?endpoint=localhost:9000')).toMatch(/endpoint must be an http/);
    expect(usage('s3:///x')).toMatch(/names no bucket/);
    expect(parseS3Url('s3://lake?region=eu-west-1', {})).toMatchObject({
      bucket: 'lake',
      prefix: '',
      display: 's3://lake',
      region: 'eu-west-1',
      endpoint: undefined,
      forcePathStyle: false,
    });
    expect(parseS3Url('s3://lake/a', { AWS_SECRET_ACCESS_KEY: 'k' }).secrets).toEqual(['k']);
  });

  it('closes twice without error', async () => {
    const store = await openS3Store(parseS3Url(url('tree')));
    await store.close();
    await store.close();
  });

  it('s3: inspects through the files inspection it is given, then closes the store', async () => {
    const { driver, seen } = await inspectThrough(createS3Driver, url('tree'));
    expect(driver).toMatchObject({ name: 's3', schemes: ['s3'], flavors: ['storage_files', 'sftp_files'] });
    expect(seen).toEqual({ database: 'data.bin', kind: 'storage', flavor: 'storage_files' });
  });
});
