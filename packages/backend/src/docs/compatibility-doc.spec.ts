import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { COMPATIBILITY_RULE_IDS } from '@aide/schemas';
import {
  buildCompatibilityDoc,
  COMPATIBILITY_DOC_FILE,
  COMPATIBILITY_DOC_STALE_MESSAGE,
} from './compatibility-doc.js';

describe('docs/compatibility.md', () => {
  it('is the page the rule table generates', async () => {
    const committed = await readFile(COMPATIBILITY_DOC_FILE, 'utf8').catch(() => '');
    expect(committed === buildCompatibilityDoc() ? 'current' : COMPATIBILITY_DOC_STALE_MESSAGE).toBe(
      'current',
    );
  });

  it('has one row per rule, NONE accepting all and FULL only what both directions survive', () => {
    const rows = buildCompatibilityDoc()
      .split('\n')
      .filter((line) => /^\| `/.test(line));
    expect(rows).toHaveLength(COMPATIBILITY_RULE_IDS.length);
    const removed = rows.find((r) => r.startsWith('| `COLUMN_REMOVED`'));
    // Backward ✓, forward ✗: NONE ✓, BACKWARD ✓, FORWARD ✗, FULL ✗.
    expect(
      removed
        ?.split('|')
        .slice(2, 8)
        .map((c) => c.trim()),
    ).toEqual(['✓', '✗', '✓', '✓', '✗', '✗']);
  });
});
