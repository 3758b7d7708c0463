// The README's examples are TypeScript, type-checked here against the built package (imported by
// name), with the SDK's README helper.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { readmeExamples, typecheckReadmeExamples } from '../../sdk/test/helpers/readme-examples.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');

describe('the README', () => {
  it('shows its examples in TypeScript', () => {
    expect(readme.match(/```(js|javascript|mjs)\n/g) ?? []).toEqual([]);
    expect(readmeExamples(readme).length).toBeGreaterThanOrEqual(3);
  });

  it('has examples that type-check against the built package, in strict mode', async () => {
    expect(await typecheckReadmeExamples(packageDir)).toBe('');
  }, 120_000);
});
