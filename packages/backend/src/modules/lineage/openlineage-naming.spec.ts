import { describe, expect, it } from '@jest/globals';
import {
  databaseFits,
  jdbcIdentityOf,
  lookupOf,
  namespacesOf,
  normalizeNamespace,
} from './openlineage-naming.js';

describe('OpenLineage naming', () => {
  it.each([
    ['postgres://db.example.com:5432', 'postgres://db.example.com:5432'],
    ['postgresql://DB.Example.com:5432/', 'postgres://db.example.com:5432'],
    ['mariadb://h:3306', 'mysql://h:3306'],
    ['s3a://Bucket/warehouse/', 's3://bucket/warehouse'],
    ['snowflake://MyOrg-Account1', 'snowflake://myorg-account1'],
    ['bigquery', 'bigquery'],
    ['jdbc:postgresql://Postgres:5432/db', 'postgres://postgres:5432/db'],
    ['bigquery://', 'bigquery'],
    ['file', 'file'],
    [' kafka://broker:9092 ', 'kafka://broker:9092'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizeNamespace(input)).toBe(expected);
  });

  it('collects declared namespaces and the system code', () => {
    const system = {
      id: 'x',
      code: 'Shop',
      extra: {
        openlineage_namespace: 'postgresql://h:5432',
        openlineage_namespaces: ['mysql://m:3306', 7, ''],
      },
    };
    expect(namespacesOf(system)).toEqual(['postgres://h:5432', 'mysql://m:3306', 'shop']);
    expect(namespacesOf({ id: 'y', code: 'lake', extra: null })).toEqual(['lake']);
  });

  it('splits a name into the parts a lookup uses, and checks a declared database', () => {
    const pg = lookupOf('postgres://h:5432', 'shop.public.orders');
    expect(pg).toMatchObject({
      last: 'orders',
      second: 'public',
      third: 'shop',
      uri: 'postgres://h:5432/shop.public.orders',
    });
    expect(pg.objectNames).toEqual(['shop.public.orders', 'public.orders', 'orders']);
    expect(lookupOf('kafka://b:9092', 'orders')).toMatchObject({ last: 'orders', second: null, third: null });
    expect(lookupOf('s3://bucket', '/warehouse/raw.db/orders').uri).toBe(
      's3://bucket/warehouse/raw.db/orders',
    );
    expect(databaseFits('shop', pg)).toBe(true);
    expect(databaseFits('other', pg)).toBe(false);
    expect(databaseFits('shop', lookupOf('mysql://m:3306', 'shop.orders'))).toBe(true);
  });

  it('reads a JDBC URL namespace as the server and database.schema.table (Flink, Spark JDBC)', () => {
    const server = 'postgres://postgres:5432';
    expect(jdbcIdentityOf('jdbc:postgresql://postgres:5432/shop', 'orders')).toEqual({
      namespace: server,
      name: 'shop.public.orders',
    });
    expect(jdbcIdentityOf('jdbc:postgresql://postgres:5432/shop', 'sales.orders')).toEqual({
      namespace: server,
      name: 'shop.sales.orders',
    });
    expect(jdbcIdentityOf('jdbc:mysql://h:3306/shop', 'orders')).toEqual({
      namespace: 'mysql://h:3306',
      name: 'shop.orders',
    });
    expect(jdbcIdentityOf('jdbc:postgresql://postgres:5432', 'orders')).toBeNull();
    expect(jdbcIdentityOf('postgres://postgres:5432', 'shop.public.orders')).toBeNull();
  });
});
