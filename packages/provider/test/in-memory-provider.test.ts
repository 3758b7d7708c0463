// InMemoryMetadataProvider built from model arrays: the whole conformance suite.
import { InMemoryMetadataProvider } from '../src/index.js';
import { describe, expect, it } from '@jest/globals';
import { describeProviderConformance, HTTP_ONLY_CASES } from './conformance.js';
import { conn } from './fixtures.js';

describeProviderConformance(
  'InMemoryMetadataProvider',
  (scope, options) => {
    const provider = new InMemoryMetadataProvider({ ...options, ...scope });
    return { provider, setScope: (next) => provider.setMetadata(next) };
  },
  {
    notApplicable: {
      ...HTTP_ONLY_CASES,
    },
  },
);

describe('InMemoryMetadataProvider specifics', () => {
  const connectionIds = async (provider: InMemoryMetadataProvider) =>
    (await provider.getConnections()).map((connection) => connection.connection_id);

  it('setMetadata: the snapshot stays until clearCache(); with caching off the next read sees it', async () => {
    const cached = new InMemoryMetadataProvider({ connections: [conn()] });
    expect(await connectionIds(cached)).toEqual(['c-1']);
    cached.setMetadata({ connections: [conn('b', 'c-2')] });
    expect(await connectionIds(cached)).toEqual(['c-1']);
    await cached.clearCache();
    expect(await connectionIds(cached)).toEqual(['c-2']);

    const live = new InMemoryMetadataProvider({ enableCache: false, connections: [conn()] });
    expect(await connectionIds(live)).toEqual(['c-1']);
    live.setMetadata({ document: { connections: [{ name: 'b', connection_id: 'c-3' }] } });
    expect(await connectionIds(live)).toEqual(['c-3']);
  });

  it('takes one kind of metadata source, and initial watermarks', async () => {
    expect(() => new InMemoryMetadataProvider({ document: {}, connections: [] })).toThrow(TypeError);
    const provider = new InMemoryMetadataProvider({ watermarks: { 'df-1': '{"offset": 7}' } });
    expect(await provider.getWatermark('df-1')).toBe('{"offset": 7}');
    expect(provider.isInitialized).toBe(false);
  });
});
