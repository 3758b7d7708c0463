// `node dist/docs/generate-compatibility.js` (pnpm docs:compatibility): writes docs/compatibility.md
// from the rule table of @aide/schemas. Only this entry point exits.
import { writeFile } from 'node:fs/promises';
import { buildCompatibilityDoc, COMPATIBILITY_DOC_FILE } from './compatibility-doc.js';

try {
  await writeFile(COMPATIBILITY_DOC_FILE, buildCompatibilityDoc());
  console.log(`Wrote ${COMPATIBILITY_DOC_FILE}`);
} catch (err) {
  console.error(err);
  process.exit(1);
}
