import { describe, expect, it } from '@jest/globals';
import { isDatasetLayer, linkLayerOrder } from './index.js';

// The one lineage-direction rule that links, lake syncs and dataflow lineage apply (issue 23 §2).
describe('linkLayerOrder', () => {
  it.each([
    ['source', 'cdc', 'ordered'],
    ['raw', 'core', 'ordered'],
    ['source', 'core', 'ordered'],
    ['raw', 'raw', 'reversed'],
    ['core', 'raw', 'reversed'],
    [null, 'raw', 'missing'],
    ['raw', null, 'missing'],
    ['bronze', 'raw', 'missing'],
  ] as const)('%s → %s is %s', (source, target, order) => {
    expect(linkLayerOrder(source, target)).toBe(order);
  });

  it('knows no layer inherited from Object', () => {
    expect(isDatasetLayer('toString')).toBe(false);
    expect(isDatasetLayer('kafka')).toBe(true);
  });
});
