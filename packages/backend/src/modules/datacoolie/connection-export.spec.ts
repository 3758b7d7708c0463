import { describe, expect, it } from '@jest/globals';
import { exportConnection, type ProfileExportInput, type ProfileRow } from './connection-export.js';

// A profile as DataCoolie sees it (ADR 0050): an `as_written` one exactly as its document wrote it —
// compared as JSON text, so key order counts — and one made in AIDE with its derived configure.
const text = (value: unknown) => JSON.stringify(value);

const system = { extra: { host: 'sys.internal', port: 5432 }, flavor_code: 'postgres14', kind_code: 'rdbms' };

function input(
  profile: Partial<ProfileRow>,
  secrets: ProfileExportInput['secrets'] = [],
): ProfileExportInput {
  return {
    profile: {
      id: '6f1c1f7e-0000-4000-8000-000000000001',
      workspace_id: '6f1c1f7e-0000-4000-8000-0000000000ff',
      name: 'acc_pg',
      connection_type: 'database',
      format: 'sql',
      catalog: null,
      database: 'erp',
      configure: {},
      use_schema_hint: true,
      is_active: true,
      ...profile,
    },
    system,
    secrets,
  };
}

const secrets = [
  { configure_field: 'username', provider: 'store-b', path: 'user-secret' },
  { configure_field: 'password', provider: 'store-a', path: 'password-secret' },
  { configure_field: 'token', provider: 'store-b', path: 'token-secret' },
];

describe('exportConnection', () => {
  it('serves an as-written profile in its key order, secrets in place, nothing derived', () => {
    const connection = exportConnection(
      input(
        {
          datacoolie_id: 'conn-pg',
          as_written: true,
          description: 'ERP',
          configure: { port: 1, host: 'h', options: { z: 1, a: 2 } },
          configure_keys: ['port', 'username', 'host', 'password', 'options', 'token'],
        },
        secrets,
      ),
      'ws-code',
    );
    expect(text(connection)).toBe(
      text({
        connection_id: 'conn-pg',
        workspace_id: 'ws-code',
        name: 'acc_pg',
        connection_type: 'database',
        format: 'sql',
        catalog: null,
        database: 'erp',
        configure: {
          port: 1,
          username: 'user-secret',
          host: 'h',
          password: 'password-secret',
          options: { z: 1, a: 2 },
          token: 'token-secret',
        },
        secrets_ref: { 'store-b': ['username', 'token'], 'store-a': ['password'] },
        is_active: true,
        description: 'ERP',
      }),
    );
  });

  it('keeps use_schema_hint only where the document wrote it, and keys the order misses after it', () => {
    const connection = exportConnection(
      input(
        {
          as_written: true,
          use_schema_hint: false,
          configure: { b: 1, use_schema_hint: 'false', a: 2, ['__proto__']: { x: 1 } },
          configure_keys: ['use_schema_hint', 'b'],
        },
        [secrets[1]],
      ),
    );
    expect(text(connection.configure)).toBe(
      text(
        JSON.parse(
          '{"use_schema_hint":"false","b":1,"a":2,"__proto__":{"x":1},"password":"password-secret"}',
        ),
      ),
    );
    // A key named `__proto__` stays a key (an assignment would have set the prototype instead).
    expect(Object.hasOwn(connection.configure, '__proto__')).toBe(true);
    expect(connection.connection_id).toBe('6f1c1f7e-0000-4000-8000-000000000001');
    expect('description' in connection).toBe(false);
    expect(exportConnection(input({ as_written: true })).configure).toEqual({});
  });

  it('derives the configure of a profile made in AIDE from its system, its own configure on top', () => {
    const connection = exportConnection(
      input({ configure: { port: 6432 }, description: null }, [secrets[1]]),
    );
    expect(text(connection.configure)).toBe(
      text({
        host: 'sys.internal',
        port: 6432,
        database_type: 'postgresql',
        schema_hint_type_system: 'postgresql',
        use_schema_hint: true,
        password: 'password-secret',
      }),
    );
    expect(connection.workspace_id).toBe('6f1c1f7e-0000-4000-8000-0000000000ff');
    expect('description' in connection).toBe(false);
  });
});
