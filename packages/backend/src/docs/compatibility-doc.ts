import { fileURLToPath } from 'node:url';
import {
  COMPATIBILITY_LEVELS,
  COMPATIBILITY_RULE_IDS,
  COMPATIBILITY_RULES,
  type CompatibilityLevel,
  levelDirections,
} from '@aide/schemas';

// docs/compatibility.md, generated from the rule table of @aide/schemas (ADR 0048): one source of
// truth, and a test (compatibility-doc.spec.ts) that fails when the page is not what the table gives.

export const COMPATIBILITY_DOC_FILE = fileURLToPath(
  new URL('../../../../docs/compatibility.md', import.meta.url),
);
export const COMPATIBILITY_DOC_STALE_MESSAGE =
  'docs/compatibility.md is stale: run `pnpm --filter @aide/backend docs:compatibility`';

const mark = (ok: boolean) => (ok ? '✓' : '✗');

/** Whether a level accepts a change of this rule (against each version it compares). */
function allowed(level: CompatibilityLevel, rule: (typeof COMPATIBILITY_RULE_IDS)[number]): boolean {
  return levelDirections(level).every((d) => COMPATIBILITY_RULES[rule][d]);
}

export function buildCompatibilityDoc(): string {
  const levels = COMPATIBILITY_LEVELS.filter((l) => !l.endsWith('_TRANSITIVE'));
  const header = `| Rule | Backward | Forward | ${levels.join(' | ')} | What it covers |`;
  const rule = `|---|:-:|:-:|${levels.map(() => ':-:').join('|')}|---|`;
  const rows = COMPATIBILITY_RULE_IDS.map((id) => {
    const r = COMPATIBILITY_RULES[id];
    const verdicts = levels.map((l) => mark(allowed(l, id)));
    return `| \`${id}\` | ${mark(r.backward)} | ${mark(r.forward)} | ${verdicts.join(' | ')} | ${r.description} |`;
  });
  return [
    '# Compatibility levels: the rule table',
    '',
    '<!-- Generated from COMPATIBILITY_RULES (@aide/schemas) by `pnpm --filter @aide/backend docs:compatibility`;',
    '     a test fails when this page is stale. The why is in docs/adr/0048-compatibility-levels.md. -->',
    '',
    'Every change the classifier finds carries one of these rules. **Backward**: the new version reads',
    'data written under the old one. **Forward**: the old version reads data written under the new one.',
    'A level accepts a change when every direction it asks for survives it (✓): BACKWARD asks for',
    'backward, FORWARD for forward, FULL for both, NONE for neither. A `_TRANSITIVE` level gives the same',
    'verdict per rule, against every earlier version instead of the latest only.',
    '',
    header,
    rule,
    ...rows,
    '',
  ].join('\n');
}
