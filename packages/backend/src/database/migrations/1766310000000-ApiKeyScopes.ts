import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What an API key reaches outside its workspaces (ADR 0020, amendment of issue 22): the scopes granted
 * when it was created, none by default. Keys that exist already keep the catalogue access they had
 * (reads, creates and updates of the shared catalogue, which no workspace owns): pipelines and
 * `aide-provider import` runs holding them go on working, while what they lose — other workspaces,
 * user and key administration, reference-data administration — is what they were never meant to have.
 */
export class ApiKeyScopes1766310000000 implements MigrationInterface {
  name = 'ApiKeyScopes1766310000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN scopes text[] NOT NULL DEFAULT '{}'`);
    await q.query(`UPDATE api_keys SET scopes = '{catalogue:read,catalogue:write}'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN scopes`);
  }
}
