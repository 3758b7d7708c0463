// `@aide/schemas/version-changes` (ADR 0041) is the zod-free door to the classifier: the same objects
// as the package root's, not copies, and the wire enums are built from its constants.
import { describe, expect, it } from '@jest/globals';
import * as root from './index.js';
import * as subpath from './version-changes/index.js';

describe('@aide/schemas/version-changes', () => {
  it('exports the very functions and constants of the package root', () => {
    const names = Object.keys(subpath);
    expect(names).toEqual(
      expect.arrayContaining(['classifyChanges', 'renderTypeNode', 'quoteName', 'CHANGE_CATEGORIES']),
    );
    for (const name of names) {
      expect((root as Record<string, unknown>)[name]).toBe((subpath as Record<string, unknown>)[name]);
    }
  });

  it('is what the wire enums are built from', () => {
    expect(root.ChangeCategorySchema.options).toEqual([...subpath.CHANGE_CATEGORIES]);
    expect(root.CompatibilitySchema.options).toEqual([...subpath.COMPATIBILITY_CLASSES]);
  });
});
