import type {
  BulkCompatibilityCheckResult,
  BulkCompatibilityCheckSchema,
  CompatibilityCheck,
  PublishSchemaVersionSchema,
} from '@aide/schemas';
import { Injectable, Logger } from '@nestjs/common';
import type { z } from 'zod';
import type { ItemError } from '@aide/schemas';
import type { AuthUser } from '../../common/auth/current-user.js';
import { itemOutcome } from '../../common/crud/per-item.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { SchemaVersionImpactService } from '../dataset-links/schema-version-impact.service.js';
import { SchemaVersionPublisher } from './schema-version-publisher.js';

type PublishInput = z.output<typeof PublishSchemaVersionSchema>;
type CheckItem = z.output<typeof BulkCompatibilityCheckSchema>['items'][number];

/**
 * "Would this version be accepted?" (ADR 0048, as Schema Registry's `/compatibility/...`): the
 * publisher's own preparation and level check, in a transaction that writes nothing, and for a refused
 * version the downstream impact (ADR 0021). A publish refused with DATASET_SCHEMA_INCOMPATIBLE gets the
 * same impact in its details (`withImpact`).
 */
@Injectable()
export class SchemaVersionCheckService {
  private readonly logger = new Logger(SchemaVersionCheckService.name);

  constructor(
    private readonly publisher: SchemaVersionPublisher,
    private readonly impact: SchemaVersionImpactService,
    private readonly tx: Transactions,
  ) {}

  async check(datasetId: string, input: PublishInput, viewer: AuthUser): Promise<CompatibilityCheck> {
    const [outcome] = await this.tx.run((m) => this.publisher.checkAll(m, [{ datasetId, input }]));
    if (outcome?.ok !== true) throw outcome?.error;
    return this.withImpactOf(outcome.value, input, viewer);
  }

  async checkMany(items: readonly CheckItem[], viewer: AuthUser): Promise<BulkCompatibilityCheckResult> {
    const outcomes = await this.tx.run((m) =>
      this.publisher.checkAll(
        m,
        items.map(({ dataset_id, ...input }) => ({ datasetId: dataset_id, input })),
      ),
    );
    const results: BulkCompatibilityCheckResult['items'] = [];
    // One after the other: an impact analysis reads each refused item's links in a transaction.
    for (const [index, outcome] of outcomes.entries()) {
      const { value, error } = itemOutcome(index, items[index], outcome, this.logger);
      const { dataset_id, ...input } = items[index];
      results.push({
        index,
        dataset_id,
        check: value ? await this.withImpactOf(value, input, viewer) : null,
        error,
      });
    }
    return {
      items: results,
      summary: {
        accepted: results.filter((r) => r.check?.accepted === true).length,
        refused: results.filter((r) => r.check?.accepted === false).length,
        failed: results.filter((r) => r.check === null).length,
      },
    };
  }

  /** A publish's DATASET_SCHEMA_INCOMPATIBLE with the impact of the refused version in its details. */
  async withImpact(error: unknown, input: PublishInput, viewer: AuthUser): Promise<unknown> {
    if (!(error instanceof AppError) || error.code !== 'DATASET_SCHEMA_INCOMPATIBLE') return error;
    const check = await this.withImpactOf(
      error.details as unknown as CompatibilityCheck,
      input,
      viewer,
    ).catch(() => undefined);
    return check ? new AppError(error.code, error.message, check) : error;
  }

  /** The impact of publishing `input` (null when it cannot be computed: the publish answers why). */
  impactOf(datasetId: string, input: PublishInput, viewer: AuthUser) {
    return this.impact.preview(datasetId, input, viewer).catch(() => null);
  }

  /** A bulk publish item's DATASET_SCHEMA_INCOMPATIBLE with the impact in its details. */
  async itemWithImpact(
    error: ItemError | null,
    datasetId: string | null,
    input: PublishInput,
    viewer: AuthUser,
  ) {
    if (error?.error_code !== 'DATASET_SCHEMA_INCOMPATIBLE' || datasetId === null) return error;
    const check = error.details as unknown as CompatibilityCheck;
    const impact = await this.impact.preview(datasetId, input, viewer).catch(() => null);
    return { ...error, details: { ...check, impact } };
  }

  private async withImpactOf(
    check: CompatibilityCheck,
    input: PublishInput,
    viewer: AuthUser,
  ): Promise<CompatibilityCheck> {
    if (check.accepted) return check;
    return { ...check, impact: await this.impact.preview(check.dataset_id, input, viewer) };
  }
}
