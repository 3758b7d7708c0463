import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each stored read shape's structural fingerprint (ADR 0032): the SHA-256 of the version's structure
 * as a crawler compares it, computed with the shape (`@aide/schemas/fingerprint`). A shape stored
 * before this migration has none and counts as not current: the next full read of its version (the
 * snapshot, or the crawler fetching it because its fingerprint is unknown) rebuilds it with one. No
 * backfill here: the fingerprint is computed by TypeScript code the migration should not freeze.
 */
export class ReadShapeFingerprints1766240000000 implements MigrationInterface {
  name = 'ReadShapeFingerprints1766240000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE schema_version_read_shapes ADD COLUMN fingerprint text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE schema_version_read_shapes DROP COLUMN fingerprint`);
  }
}
