import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { loadSeedDirectory } from '../modules/type-system/seed-file.js';
import { buildCastMatrixDoc, CAST_MATRIX_FILE, CAST_MATRIX_STALE_MESSAGE } from './cast-matrix-doc.js';

describe('docs/cast-matrix.md', () => {
  it('is the page the shipped seeds generate', async () => {
    const generated = buildCastMatrixDoc(await loadSeedDirectory());
    const committed = await readFile(CAST_MATRIX_FILE, 'utf8').catch(() => '');
    expect(committed === generated ? 'current' : CAST_MATRIX_STALE_MESSAGE).toBe('current');
  });

  it('has a row for every source type into every other flavor', async () => {
    const seeds = await loadSeedDirectory();
    const page = buildCastMatrixDoc(seeds);
    const flavors = seeds.matrixTables.length;
    const types = seeds.matrixTables.reduce((n, t) => n + t.table.types.length, 0);
    const rows = page.split('\n').filter((line) => /^\| `/.test(line));
    expect(rows).toHaveLength(types * (flavors - 1));
  });
});
