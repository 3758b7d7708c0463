// Precompressed copies of the built UI (issue 28 #14): next to every text file of dist/ (scripts,
// styles, index.html, SVG, JSON) a `.gz` (gzip level 9) and a `.br` (brotli quality 11), written once
// at build time so the backend sends them as they are (`@fastify/static`'s `preCompressed`) instead of
// compressing on every request or sending 500 KB of plain JavaScript.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 256;

export interface Compressed {
  file: string;
  bytes: number;
  gzip: number;
  brotli: number;
}

/** Writes `<file>.gz` and `<file>.br` for every compressible file under `dir`; returns what it wrote. */
export function precompressDir(dir: string): Compressed[] {
  const out: Compressed[] = [];
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) {
      out.push(...precompressDir(file));
      continue;
    }
    if (!COMPRESSIBLE.test(name)) continue;
    const body = readFileSync(file);
    if (body.length < MIN_BYTES) continue;
    const gzip = gzipSync(body, { level: 9 });
    const brotli = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    writeFileSync(`${file}.gz`, gzip);
    writeFileSync(`${file}.br`, brotli);
    out.push({ file, bytes: body.length, gzip: gzip.length, brotli: brotli.length });
  }
  return out;
}

/** Vite plugin: precompresses the output directory once the bundle is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'aide-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
