// `@aide/sdk/provider` as a consumer imports it: by package name, from the built package (the test
// script builds dist/ before jest runs), in a plain Node process.
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from '@jest/globals';

const run = promisify(execFile);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const program = `
import { InMemoryMetadataProvider, WatermarkManager, MetadataError } from '@aide/sdk/provider';
import { AideClient } from '@aide/sdk';
const provider = new InMemoryMetadataProvider({
  document: {
    connections: [{ name: 'landing', format: 'csv' }, { name: 'bronze', connection_type: 'lakehouse', format: 'delta' }],
    dataflows: [{ name: 'orders_flow', source: { connection_name: 'landing', table: 'orders' },
                  destination: { connection_name: 'bronze', table: 'orders' } }],
  },
});
const [dataflow] = await provider.getDataflows();
await new WatermarkManager(provider).saveWatermark(dataflow.dataflow_id, { offset: 1 });
const text = await provider.getWatermark(dataflow.dataflow_id);
await provider.close();
process.stdout.write(JSON.stringify({
  id: dataflow.dataflow_id, text, errors: typeof MetadataError, client: typeof AideClient,
}));
`;

describe('the built @aide/sdk/provider export', () => {
  it('loads in a plain Node program by package name', async () => {
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', program], {
      cwd: packageDir,
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({
      id: '1c172c53-13ba-5273-8d8f-66e8d480ccf5',
      text: '{"offset": 1}',
      errors: 'function',
      client: 'function',
    });
  });
});
