// The README's examples are TypeScript and are type-checked here against the built package (imported
// by name), so that they cannot drift from the SDK (test/helpers/readme-examples.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { readmeExamples, typecheckReadmeExamples } from './helpers/readme-examples.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');

describe('the README', () => {
  it('shows its examples in TypeScript', () => {
    expect(readme.match(/```(js|javascript|mjs)\n/g) ?? []).toEqual([]);
    expect(readmeExamples(readme).length).toBeGreaterThanOrEqual(15);
  });

  it('has examples that type-check against the built package, in strict mode', async () => {
    expect(await typecheckReadmeExamples(packageDir)).toBe('');
  }, 120_000);
});
