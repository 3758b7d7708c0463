// The README's examples are TypeScript and are type-checked here against the built package (imported
// by name), so that they cannot drift from the SDK. A block may be preceded by
// `<!-- ts-prelude: ... -->`, declarations giving a fragment its context (`declare const client: ...`).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { typecheck } from './helpers/typecheck.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');

interface Example {
  line: number;
  source: string;
}

function examples(): Example[] {
  const found: Example[] = [];
  const block = /(?:<!-- ts-prelude:\n([\s\S]*?)-->\n\n?)?```ts\n([\s\S]*?)```/g;
  for (const match of readme.matchAll(block)) {
    const line = readme.slice(0, match.index).split('\n').length;
    // `export {}` makes a fragment a module (top-level await, its own scope).
    found.push({ line, source: `${match[1] ?? ''}${match[2] ?? ''}\nexport {};\n` });
  }
  return found;
}

describe('the README', () => {
  it('shows its examples in TypeScript', () => {
    expect(readme.match(/```(js|javascript|mjs)\n/g) ?? []).toEqual([]);
    expect(examples().length).toBeGreaterThanOrEqual(15);
  });

  it('has examples that type-check against the built package, in strict mode', async () => {
    // Inside the package directory, so that `@aide/sdk` resolves to the package itself (self-reference).
    const dir = join(packageDir, '.readme-examples');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const files = examples().map(({ line, source }) => {
      const file = `readme-line-${line}.ts`;
      writeFileSync(join(dir, file), source);
      return file;
    });
    // Errors name the README line of their block: readme-line-<n>.ts(<line in block>,<column>).
    expect(await typecheck(dir, files)).toBe('');
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
