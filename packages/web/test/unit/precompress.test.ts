// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';

describe('precompressDir (#14)', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes .gz and .br copies of text files that decompress to the original', () => {
    dir = mkdtempSync(join(tmpdir(), 'aide-precompress-'));
    mkdirSync(join(dir, 'assets'));
    const js = 'export const a = 1;\n'.repeat(200);
    writeFileSync(join(dir, 'assets/index-abc.js'), js);
    writeFileSync(join(dir, 'index.html'), `<!doctype html>${'<p></p>'.repeat(100)}`);
    writeFileSync(join(dir, 'assets/tiny.css'), 'a{}');
    writeFileSync(join(dir, 'assets/logo.png'), Buffer.alloc(4096));
    const written = precompressDir(dir).map((c) => c.file.slice(dir.length + 1));
    expect(written.sort()).toEqual(['assets/index-abc.js', 'index.html']);
    expect(gunzipSync(readFileSync(join(dir, 'assets/index-abc.js.gz'))).toString()).toBe(js);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets/index-abc.js.br'))).toString()).toBe(js);
    // Too small to gain, and already-compressed binaries, are left alone.
    expect(existsSync(join(dir, 'assets/tiny.css.gz'))).toBe(false);
    expect(existsSync(join(dir, 'assets/logo.png.br'))).toBe(false);
  });
});
