import { describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  folderCycles,
  folderOf,
  foreignCrudCalls,
  foreignRepositoryImports,
  type ImportEdge,
  readImports,
} from './module-graph.js';

/**
 * The dependency rule of `packages/backend/src` (ADR 0026, docs/ARCHITECTURE.md "Module boundaries"):
 * no import cycle between the folders `modules/*` and `common/*`, and no module importing another
 * module's `*.repository.ts` — except these folder pairs, each with its reason.
 */
const REPOSITORY_ALLOWLIST: Readonly<Record<string, readonly string[]>> = {
  // A publish writes a version's header, its new root fields and its bindings in one set-based
  // transaction (ADR 0017): schema-versions is the write side of those three tables' version aggregate.
  'modules/schema-versions': ['modules/dataset-schemas', 'modules/fields', 'modules/field-bindings'],
  // Applying a template inserts root fields under the dataset's field-tree lock.
  'modules/tech-field-templates': ['modules/fields'],
};

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('module boundaries', () => {
  const edges = readImports(SRC);

  it('reads the imports of the modules and common folders', () => {
    const folders = new Set(edges.map((e) => folderOf(e.from)).filter(Boolean));
    expect(folders.has('modules/datasets')).toBe(true);
    expect(folders.has('common/crud')).toBe(true);
    // A known import, so that a reader that silently finds nothing cannot pass.
    expect(edges).toContainEqual({
      from: 'modules/datasets/datasets.module.ts',
      to: 'modules/systems/systems.module.ts',
    });
  });

  it('has no import cycle between folders', () => {
    expect(folderCycles(edges)).toEqual([]);
  });

  it('imports no other module’s repository outside the allowlist', () => {
    const { violations } = foreignRepositoryImports(edges, REPOSITORY_ALLOWLIST);
    expect(violations).toEqual([]);
  });

  it('calls no `.crud` on another module’s repository, allowlisted ones included', () => {
    expect(foreignCrudCalls(SRC)).toEqual([]);
  });

  it('has no stale allowlist entry', () => {
    const { used } = foreignRepositoryImports(edges, REPOSITORY_ALLOWLIST);
    const listed = Object.entries(REPOSITORY_ALLOWLIST).flatMap(([from, to]) =>
      to.map((t) => `${from} -> ${t}`),
    );
    expect(listed.filter((pair) => !used.has(pair))).toEqual([]);
  });
});

describe('module graph checks', () => {
  const edge = (from: string, to: string): ImportEdge => ({ from, to });

  it('finds a cycle through three folders, and none in a chain', () => {
    const chain = [
      edge('modules/a/a.service.ts', 'modules/b/b.lookup.ts'),
      edge('modules/b/b.lookup.ts', 'common/crud/x.ts'),
    ];
    expect(folderCycles(chain)).toEqual([]);
    const cycle = [...chain, edge('common/crud/x.ts', 'modules/a/a.entity.ts')];
    expect(folderCycles(cycle)).toEqual([
      {
        folders: ['common/crud', 'modules/a', 'modules/b'],
        imports: [
          'common/crud/x.ts -> modules/a/a.entity.ts',
          'modules/a/a.service.ts -> modules/b/b.lookup.ts',
          'modules/b/b.lookup.ts -> common/crud/x.ts',
        ],
      },
    ]);
  });

  it('flags a foreign repository import unless its folder pair is allowed', () => {
    const edges = [
      edge('modules/a/a.service.ts', 'modules/b/b.repository.ts'),
      edge('modules/b/b.service.ts', 'modules/b/b.repository.ts'),
    ];
    expect(foreignRepositoryImports(edges, {}).violations).toEqual([
      'modules/a/a.service.ts -> modules/b/b.repository.ts',
    ]);
    expect(foreignRepositoryImports(edges, { 'modules/a': ['modules/b'] }).violations).toEqual([]);
  });

  it('flags `this.<field>.crud` on a field typed by another module’s class, not by its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'module-graph-'));
    try {
      mkdirSync(join(dir, 'modules', 'a'), { recursive: true });
      writeFileSync(
        join(dir, 'modules', 'a', 'a.service.ts'),
        [
          "import { ARepository } from './a.repository.js';",
          "import { BRepository } from '../b/b.repository.js';",
          'export class AService {',
          '  constructor(private readonly own: ARepository, private readonly other: BRepository) {}',
          '  run() {',
          "    return [this.own.crud.getActive('x'), this.other.crud.getActive('y')];",
          '  }',
          '}',
        ].join('\n'),
      );
      expect(foreignCrudCalls(dir)).toEqual(['modules/a/a.service.ts:6 this.other.crud.getActive']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
