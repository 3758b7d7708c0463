// `node dist/docs/generate-cast-matrix.js` (pnpm docs:cast-matrix): writes docs/cast-matrix.md from the
// shipped seeds. Only this entry point exits.
import { writeFile } from 'node:fs/promises';
import { loadSeedDirectory } from '../modules/type-system/seed-file.js';
import { buildCastMatrixDoc, CAST_MATRIX_FILE } from './cast-matrix-doc.js';

try {
  await writeFile(CAST_MATRIX_FILE, buildCastMatrixDoc(await loadSeedDirectory()));
  console.log(`Wrote ${CAST_MATRIX_FILE}`);
} catch (err) {
  console.error(err);
  process.exit(1);
}
