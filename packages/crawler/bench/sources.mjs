// `pnpm bench sources`: the files source on a tree of N Parquet files (C columns, P Hive partitions) on
// the local file system (issue 24 §3), against the least possible work in the same run — a bare loop
// reading each footer (last 8 bytes, then the footer) with the same library, hyparquet. Reports the
// ratio of times, bytes read per file against the footer size, and the process's peak RSS.
// The tree is generated once into a temp folder (one file written by hyparquet-writer, copied N times)
// and kept for later runs. `--sftp` measures the same tree through a local OpenSSH server
// (sftp-server.mjs): the bare loop then reads each footer over one SFTP session with ssh2.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  readSync,
  fstatSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parquetMetadata } from 'hyparquet';
import ssh2 from 'ssh2';
import { parquetWriteBuffer } from 'hyparquet-writer';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIST = join(HERE, '..', 'dist', 'sources', 'files');
export const TARGET_RATIO = 1.5;
export const TARGET_RSS_MB = 500;

const HELP = `usage: pnpm bench sources [--files N] [--columns C] [--partitions P] [--dir PATH] [--sftp]

  --files N        Parquet files (default 10000)
  --columns C      columns per file (default 200)
  --partitions P   dt=… partition folders the files are spread over (default 500)
  --dir PATH       where the tree is generated once (default: $TMPDIR/aide-bench-sources-N-C-P)
  --sftp           read the tree through a local OpenSSH server (Debian's openssh-server) instead

Needs packages/crawler built (pnpm --filter @aide/crawler build).`;

function generate(dir, files, columns, partitions) {
  const marker = join(dir, '_generated');
  if (existsSync(marker)) return;
  const types = ['INT64', 'STRING', 'DOUBLE', 'TIMESTAMP', 'BOOLEAN'];
  const columnData = Array.from({ length: columns }, (_, i) => {
    const type = types[i % types.length];
    const value = { INT64: 1n, STRING: 'x', DOUBLE: 1.5, TIMESTAMP: new Date(0), BOOLEAN: true }[type];
    return { name: `c${String(i).padStart(3, '0')}`, data: [value, value], type };
  });
  const source = join(dir, '_source.parquet');
  mkdirSync(dir, { recursive: true });
  writeFileSync(source, new Uint8Array(parquetWriteBuffer({ columnData })));
  for (let i = 0; i < files; i++) {
    const day = new Date(Date.UTC(2026, 0, 1) + (i % partitions) * 86_400_000).toISOString().slice(0, 10);
    const folder = join(dir, 'events', `dt=${day}`);
    mkdirSync(folder, { recursive: true });
    copyFileSync(source, join(folder, `part-${String(i).padStart(5, '0')}.parquet`));
  }
  writeFileSync(marker, '');
}

/** The least possible work: each footer read with two positioned reads and parsed by hyparquet. */
function bareLoop(dir) {
  let bytes = 0;
  let files = 0;
  const tail = Buffer.alloc(8);
  for (const entry of readdirSync(join(dir, 'events'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const fd = openSync(join(entry.parentPath ?? entry.path, entry.name), 'r');
    const size = fstatSync(fd).size;
    readSync(fd, tail, 0, 8, size - 8);
    const length = tail.readUInt32LE(0);
    const footer = Buffer.alloc(length + 8);
    readSync(fd, footer, 0, length, size - 8 - length);
    tail.copy(footer, length);
    closeSync(fd);
    parquetMetadata(footer, { geoparquet: false });
    bytes += length + 8;
    files++;
  }
  return { files, bytes };
}

export async function run(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      files: { type: 'string' },
      columns: { type: 'string' },
      partitions: { type: 'string' },
      dir: { type: 'string' },
      sftp: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const files = Number(values.files ?? 10_000);
  const columns = Number(values.columns ?? 200);
  const partitions = Number(values.partitions ?? 500);
  const dir = values.dir ?? join(tmpdir(), `aide-bench-sources-${files}-${columns}-${partitions}`);
  if (!existsSync(join(DIST, 'driver.js'))) {
    process.stderr.write('packages/crawler is not built: pnpm --filter @aide/crawler build\n');
    return 1;
  }
  const started = Date.now();
  generate(dir, files, columns, partitions);
  process.stdout.write(
    `tree: ${dir} (${files} files × ${columns} columns, ${partitions} partitions; ready in ${Date.now() - started} ms)\n`,
  );
  const filters = {
    schemas: [],
    exclude_schemas: [],
    tables: [],
    exclude_tables: [],
    include_partitions: false,
  };

  const measured = values.sftp ? await overSftp(dir, filters) : await locally(dir, filters);
  const { bare, bareMs, driverMs, inspection, store } = measured;
  const rssMb = process.resourceUsage().maxRSS / 1024;

  const dataset = inspection.tables.find((table) => table.name === 'events');
  const ratio = driverMs / bareMs;
  const perFile = store.bytesRead / bare.files;
  const footer = bare.bytes / bare.files;
  const lines = [
    `${values.sftp ? 'SFTP' : 'local files'} · bare loop (hyparquet, sequential):  ${bareMs.toFixed(0)} ms for ${bare.files} footers`,
    `files driver (list, group, read, merge, partitions): ${driverMs.toFixed(0)} ms — ${inspection.tables.length} dataset(s), ${dataset?.columns.length ?? 0} columns, ${inspection.problems.length} problems`,
    `ratio: ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`,
    `bytes read per file: ${perFile.toFixed(0)} (footer + 8: ${footer.toFixed(0)}) ${perFile <= footer ? 'PASS' : 'FAIL'}`,
    `peak RSS: ${rssMb.toFixed(0)} MB (target < ${TARGET_RSS_MB} MB) ${rssMb < TARGET_RSS_MB ? 'PASS' : 'FAIL'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  return ratio <= TARGET_RATIO && perFile <= footer && rssMb < TARGET_RSS_MB ? 0 : 1;
}

async function locally(dir, filters) {
  const { LocalFileStore } = await import(pathToFileURL(join(DIST, 'local-store.js')).href);
  const { inspectFileStore } = await import(pathToFileURL(join(DIST, 'inspect-store.js')).href);
  // Warm the page cache for both, then time each.
  bareLoop(dir);
  let t = performance.now();
  const bare = bareLoop(dir);
  const bareMs = performance.now() - t;
  t = performance.now();
  const store = await LocalFileStore.open(join(dir, 'events'));
  const inspection = await inspectFileStore(store, { filters, kind: 'storage', source: 'files' });
  return { bare, bareMs, driverMs: performance.now() - t, inspection, store };
}

async function overSftp(dir, filters) {
  const { startSftpServer } = await import('./sftp-server.mjs');
  const { parseSftpUrl } = await import(pathToFileURL(join(DIST, 'sftp-url.js')).href);
  const { openSftpStore } = await import(pathToFileURL(join(DIST, 'sftp-store.js')).href);
  const { inspectFileStore } = await import(pathToFileURL(join(DIST, 'inspect-store.js')).href);
  const server = await startSftpServer();
  try {
    bareLoop(dir); // the page cache warm for both
    let t = performance.now();
    const bare = await sftpBareLoop(server, join(dir, 'events'));
    const bareMs = performance.now() - t;
    const url = `sftp://${server.user}@127.0.0.1:${server.port}${join(dir, 'events')}?identity=${server.userKey}&known_hosts=${server.knownHosts}`;
    t = performance.now();
    const store = await openSftpStore(parseSftpUrl(url));
    try {
      const inspection = await inspectFileStore(store, { filters, kind: 'sftp', source: 'sftp' });
      return { bare, bareMs, driverMs: performance.now() - t, inspection, store };
    } finally {
      await store.close();
    }
  } finally {
    await server.stop();
  }
}

/** The least possible work over SFTP: one session, a recursive listing, two reads per footer. */
async function sftpBareLoop(server, root) {
  const { readFileSync } = await import('node:fs');
  const client = new ssh2.Client();
  await new Promise((resolve, reject) =>
    client
      .once('ready', resolve)
      .once('error', reject)
      .connect({
        host: '127.0.0.1',
        port: server.port,
        username: server.user,
        privateKey: readFileSync(server.userKey),
      }),
  );
  client.setNoDelay(true);
  const call = (fn) =>
    new Promise((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value))));
  try {
    const sftp = await call((cb) => client.sftp(cb));
    const paths = [];
    const walk = async (folder) => {
      for (const entry of await call((cb) => sftp.readdir(folder, cb))) {
        const path = `${folder}/${entry.filename}`;
        if (entry.attrs.isDirectory()) await walk(path);
        else if (entry.filename.endsWith('.parquet')) paths.push({ path, size: entry.attrs.size });
      }
    };
    await walk(root);
    let bytes = 0;
    for (const { path, size } of paths) {
      const handle = await call((cb) => sftp.open(path, 'r', cb));
      const tail = Buffer.alloc(8);
      await call((cb) => sftp.read(handle, tail, 0, 8, size - 8, cb));
      const length = tail.readUInt32LE(0);
      const footer = Buffer.alloc(length + 8);
      await call((cb) => sftp.read(handle, footer, 0, length, size - 8 - length, cb));
      tail.copy(footer, length);
      await call((cb) => sftp.close(handle, cb));
      parquetMetadata(footer, { geoparquet: false });
      bytes += length + 8;
    }
    return { files: paths.length, bytes };
  } finally {
    client.end();
  }
}
