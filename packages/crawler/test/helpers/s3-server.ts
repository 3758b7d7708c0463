// An S3-compatible server for the s3:// tests: s3rver (npm) in its own process (test/fixtures/s3rver.mjs),
// on a free loopback port, storing in a temp folder. Clients authenticate with its built-in key pair through the standard AWS chain (the
// AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY variables the tests set), as the crawler does.
// s3rver walks its folders to list, so a key whose folder name is a prefix of a sibling name with a
// character below '/' (`a/x` beside `a-b`) comes out of S3's order there: the tests' keys avoid that.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

const MAIN = fileURLToPath(new URL('../fixtures/s3rver.mjs', import.meta.url));

/** s3rver's own account. */
export const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestS3Server {
  endpoint: string;
  /** Writes objects with the AWS SDK, a few at a time. */
  put(bucket: string, objects: Record<string, Uint8Array | string>): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3Server(buckets: string[]): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'aide-s3rver-'));
  const server = spawn(process.execPath, ['--openssl-legacy-provider', MAIN, directory, ...buckets], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Ready when it prints its port (it listens first); undefined when it exits before.
  const [line] = (await Promise.race([
    once(createInterface({ input: server.stdout }), 'line'),
    once(server, 'exit').then(() => [undefined]),
  ])) as [string | undefined];
  if (line === undefined) {
    rmSync(directory, { recursive: true, force: true });
    throw new Error('s3rver exited before listening');
  }
  const { port } = JSON.parse(line) as { port: number };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_KEY,
  });
  return {
    endpoint,
    async put(bucket, objects) {
      const entries = Object.entries(objects);
      for (let i = 0; i < entries.length; i += 32) {
        await Promise.all(
          entries
            .slice(i, i + 32)
            .map(([Key, body]) =>
              client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: Buffer.from(body) })),
            ),
        );
      }
    },
    async stop() {
      client.destroy();
      if (server.exitCode === null) {
        const exited = once(server, 'exit');
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
