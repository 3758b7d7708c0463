import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Mappers build the wire's read shapes (docs/ARCHITECTURE.md "Adding a column to an entity"): the
 * compiler checks each against the zod-inferred read type, which a type assertion (`as X`, `<X>`)
 * would silently switch off — a column added to the schema only would still compile. So a mapper
 * holds no type assertion (`as const` aside).
 */
const MODULES = fileURLToPath(new URL('../../src/modules', import.meta.url));

/** The type assertions of a source text, as `line: text`. */
export function typeAssertions(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const asserted =
      (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) &&
      !(ts.isTypeReferenceNode(node.type) && node.type.getText(source) === 'const');
    if (asserted) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${line + 1}: ${node.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function mapperFiles(): string[] {
  return readdirSync(MODULES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(MODULES, d.name))
        .filter((f) => f.endsWith('.mapper.ts'))
        .map((f) => `${d.name}/${f}`),
    );
}

describe('mappers', () => {
  it('finds the mappers and the type assertions in a text', () => {
    expect(mapperFiles()).toContain('datasets/dataset.mapper.ts');
    expect(
      typeAssertions('x.ts', 'const a = b as Dataset;\nconst c = <X>d;\nconst e = [1] as const;'),
    ).toEqual(['1: b as Dataset', '2: <X>d']);
  });

  it('hold no type assertion', () => {
    const found = mapperFiles().flatMap((file) =>
      typeAssertions(file, readFileSync(join(MODULES, file), 'utf8')).map((a) => `${file}:${a}`),
    );
    expect(found).toEqual([]);
  });
});
