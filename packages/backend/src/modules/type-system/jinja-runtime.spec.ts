// The render budget (jinja-runtime.ts) overrides methods of @huggingface/jinja's interpreter that its
// types do not declare: a new version may rename or bypass them and silently unmeter renders. The
// version is pinned exactly in package.json; this test fails when it changes, so that the change gets
// that review (then update JINJA_REVIEWED here).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import * as jinja from '@huggingface/jinja';

/** The @huggingface/jinja version whose interpreter jinja-runtime.ts was checked against. */
const JINJA_REVIEWED = '0.5.13';

describe('@huggingface/jinja, whose interpreter the render budget overrides', () => {
  it(`is the reviewed version ${JINJA_REVIEWED}, pinned exactly`, () => {
    const main = createRequire(import.meta.url).resolve('@huggingface/jinja');
    const installed = JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    const manifest = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(installed.version).toBe(JINJA_REVIEWED);
    expect(manifest.dependencies['@huggingface/jinja']).toBe(JINJA_REVIEWED);
  });

  it('still has the interpreter methods the meter wraps', () => {
    const prototype = (jinja as unknown as { Interpreter: { prototype: Record<string, unknown> } })
      .Interpreter.prototype;
    for (const method of ['run', 'renderBlock', 'evaluate', 'applyFilter']) {
      expect(typeof prototype[method]).toBe('function');
    }
  });
});
