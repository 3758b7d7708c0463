// What an apply records on its crawl run stays under the server's body limit, whatever the size.
import { describe, expect, it } from '@jest/globals';
import { appliedPayload, type ApplyItem } from '../src/commands/apply.js';
import { MAX_DIFF_PAYLOAD_BYTES } from '../src/commands/crawl.js';

const item = (n: number, action: ApplyItem['action']): ApplyItem => ({
  object_name: `schema_${n % 10}.table_${n}`,
  schema: `schema_${n % 10}`,
  table: `table_${n}`,
  action,
  dataset_id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  base_version_num: 1,
  version_num: 2,
  compatibility: null,
  level_check: null,
  detail: null,
});

describe('the apply run payload', () => {
  it('lists every dataset when it is small', () => {
    const payload = appliedPayload([item(1, 'publish'), item(2, 'stale')], new Map());
    expect(payload).toEqual({
      applied: [expect.objectContaining({ action: 'publish' }), expect.objectContaining({ action: 'stale' })],
    });
  });

  it('keeps only the refused and failed datasets of 10,000, under the size limit', () => {
    const items = Array.from({ length: 10_000 }, (_, n) => item(n, n === 7 ? 'stale' : 'create'));
    const payload = appliedPayload(items, new Map([['schema_3.table_13', 'DATA_TYPE_NOT_FOUND: x']]));
    expect(JSON.stringify(payload).length).toBeLessThanOrEqual(MAX_DIFF_PAYLOAD_BYTES);
    expect(payload).toMatchObject({ truncated: true });
    expect((payload['applied'] as { object_name: string }[]).map((a) => a.object_name)).toEqual([
      'schema_7.table_7',
      'schema_3.table_13',
    ]);
  });
});
