// The Kafka schema sources: a folder of schema files and a Confluent-compatible Schema Registry.
export { kafkaSchemasDriver, type KafkaFolderTarget } from './kafka-schemas-driver.js';
export { schemaRegistryDriver, type SchemaRegistryTarget } from './schema-registry-driver.js';
export { schemaColumns } from './columns.js';
