import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A dataset may have its own flavor (ADR 0045): `datasets.flavor_id`, null = the system's flavor, so a
 * Kafka cluster or Schema Registry can hold Avro, Protobuf and JSON Schema subjects side by side. And a
 * Kafka dataset's `partitions` and `retention_ms` may be unknown (a schema registry cannot know them).
 *
 * `down` refuses while a Kafka dataset lacks partitions or retention: no value would be true (-1 means
 * unlimited retention to Kafka), so the operator fills them first. The datasets' own flavors are lost.
 */
export class DatasetFlavors1766330000000 implements MigrationInterface {
  name = 'DatasetFlavors1766330000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE datasets ADD COLUMN flavor_id uuid,
      ADD CONSTRAINT fk_datasets_flavor FOREIGN KEY (flavor_id) REFERENCES system_flavors (id)`);
    await q.query(`CREATE INDEX ix_datasets_flavor ON datasets (flavor_id)`);
    await q.query(`ALTER TABLE dataset_kafka ALTER COLUMN partitions DROP NOT NULL,
      ALTER COLUMN retention_ms DROP NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    const rows = (await q.query(
      `SELECT count(*)::int AS n FROM dataset_kafka WHERE partitions IS NULL OR retention_ms IS NULL`,
    )) as { n: number }[];
    const unknown = rows[0]?.n ?? 0;
    if (unknown > 0) {
      throw new Error(
        `${unknown} Kafka datasets have no partitions or retention_ms: fill them before reverting DatasetFlavors.`,
      );
    }
    await q.query(`ALTER TABLE dataset_kafka ALTER COLUMN partitions SET NOT NULL,
      ALTER COLUMN retention_ms SET NOT NULL`);
    await q.query(`DROP INDEX ix_datasets_flavor`);
    await q.query(`ALTER TABLE datasets DROP COLUMN flavor_id`);
  }
}
