// A package README's TypeScript examples, type-checked against the built package (imported by name),
// so that they cannot drift from it. A block may be preceded by `<!-- ts-prelude: ... -->`,
// declarations giving a fragment its context (`declare const client: ...`). @aide/provider's
// README test uses it too.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { typecheck } from './typecheck.js';

export interface ReadmeExample {
  line: number;
  source: string;
}

/** The ```ts blocks of a README, each with its prelude and the README line it starts on. */
export function readmeExamples(readme: string): ReadmeExample[] {
  const found: ReadmeExample[] = [];
  const block = /(?:<!-- ts-prelude:\n([\s\S]*?)-->\n\n?)?```ts\n([\s\S]*?)```/g;
  for (const match of readme.matchAll(block)) {
    const line = readme.slice(0, match.index).split('\n').length;
    // `export {}` makes a fragment a module (top-level await, its own scope).
    found.push({ line, source: `${match[1] ?? ''}${match[2] ?? ''}\nexport {};\n` });
  }
  return found;
}

/**
 * Type-checks the README examples of the package in `packageDir` in strict mode, from a folder inside
 * it (so that the package's own name resolves to itself). Returns tsc's report: empty when clean;
 * errors name the README line of their block: readme-line-<n>.ts(<line in block>,<column>).
 */
export async function typecheckReadmeExamples(packageDir: string): Promise<string> {
  const dir = join(packageDir, '.readme-examples');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const files = readmeExamples(readme).map(({ line, source }) => {
    const file = `readme-line-${line}.ts`;
    writeFileSync(join(dir, file), source);
    return file;
  });
  const report = await typecheck(dir, files);
  rmSync(dir, { recursive: true, force: true });
  return report;
}
