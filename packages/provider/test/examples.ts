// The JSON examples of reference §1.10, as DataCoolie documents carry them.

export const erpPostgres = {
  connection_id: 'f62b7bbc-83db-5858-9505-42b62112b76b',
  workspace_id: 'ws-analytics-prod',
  name: 'erp_postgres',
  connection_type: 'database',
  format: 'sql',
  catalog: null,
  database: 'erp',
  configure: {
    database_type: 'postgresql',
    host: 'erp-db.internal.example.com',
    port: 5432,
    username: 'aide-erp-reader-user',
    password: 'aide-erp-reader-password',
    use_schema_hint: true,
    schema_hint_type_system: 'postgresql',
    read_options: { fetchsize: 10000 },
  },
  secrets_ref: { 'https://aide-kv.vault.azure.net/': ['username', 'password'] },
  is_active: true,
};

export const bronzeLakehouse = {
  connection_id: '7d1e9a40-1c3b-4d0e-b2a8-5c9f8e7d6a01',
  workspace_id: 'ws-analytics-prod',
  name: 'bronze_lakehouse',
  connection_type: 'lakehouse',
  format: 'delta',
  configure: { base_path: 'abfss://bronze@aidelake.dfs.core.windows.net/' },
  secrets_ref: null,
  is_active: true,
};

/** The dataflow example in its API/model shape (connections expanded). */
export const erpOrdersToBronze = {
  dataflow_id: '0b6f3c5e-5d7a-4f35-9d5b-6a1f0b2d9e41',
  workspace_id: 'ws-analytics-prod',
  name: 'erp_orders_to_bronze',
  description: 'Incremental copy of ERP orders into the bronze lakehouse',
  stage: 'source2bronze',
  group_number: 1,
  execution_order: 10,
  processing_mode: 'batch',
  is_active: true,
  source: {
    connection: {
      connection_id: 'f62b7bbc-83db-5858-9505-42b62112b76b',
      workspace_id: 'ws-analytics-prod',
      name: 'erp_postgres',
      connection_type: 'database',
      format: 'sql',
      database: 'erp',
      configure: { database_type: 'postgresql', host: 'erp-db.internal.example.com', port: 5432 },
      secrets_ref: null,
      is_active: true,
    },
    schema_name: 'sales',
    table: 'orders',
    query: null,
    python_function: null,
    watermark_columns: ['updated_at'],
    filter_expression: "status <> 'DRAFT'",
    configure: { backward_days: 2 },
  },
  destination: {
    connection: bronzeLakehouse,
    schema_name: 'erp',
    table: 'orders',
    load_type: 'merge_upsert',
    merge_keys: ['order_id'],
    partition_columns: [{ column: 'order_date', expression: null }],
    configure: { write_options: { mergeSchema: 'true' } },
  },
  transform: {
    deduplicate_columns: ['order_id'],
    latest_data_columns: ['updated_at'],
    filter_expression: null,
    additional_columns: [{ column: 'order_year', expression: 'year(order_date)' }],
    schema_hints: [],
    select_columns: [],
    drop_columns: ['internal_note'],
    rename_columns: { cust_id: 'customer_id' },
    value_rules: [{ operation: 'trim', columns: ['customer_email'], order: 100 }],
    hash_columns: [],
    masking_rules: [],
    configure: { missing_column_policy: 'error' },
  },
  configure: {},
};

export const amountHint = {
  column_name: 'amount',
  data_type: 'numeric',
  format: null,
  precision: 18,
  scale: 2,
  default_value: null,
  ordinal_position: 3,
  is_active: true,
};

/** The same scope as a file document: dataflows name their connections, hints are grouped. */
export const fileDocument = {
  connections: [erpPostgres, bronzeLakehouse],
  dataflows: [
    {
      ...erpOrdersToBronze,
      source: { ...erpOrdersToBronze.source, connection: undefined, connection_name: 'erp_postgres' },
      destination: {
        ...erpOrdersToBronze.destination,
        connection: undefined,
        connection_name: 'bronze_lakehouse',
      },
    },
  ].map((dataflow) => JSON.parse(JSON.stringify(dataflow)) as Record<string, unknown>),
  schema_hints: [
    {
      connection_name: 'erp_postgres',
      schema_name: 'sales',
      table_name: 'orders',
      hints: [{ column_name: 'amount', data_type: 'numeric', precision: 18, scale: 2 }],
    },
  ],
};
