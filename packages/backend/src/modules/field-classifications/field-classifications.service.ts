import {
  type CreateFieldClassification,
  type FieldClassification,
  isPiiTag,
  type ListQuery,
  type Page,
  type PiiTagCatalogue,
  SUGGESTED_PII_TAGS,
  suggestPiiTag,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { FieldsLookup } from '../fields/fields.lookup.js';
import { UsersLookup } from '../users/users.lookup.js';
import type { FieldClassificationEntity } from './field-classification.entity.js';
import { toFieldClassification } from './field-classification.mapper.js';
import { FieldClassificationsRepository } from './field-classifications.repository.js';

/** Append-only PII history: every call adds an entry; a field's current tags are its newest entry. */
@Injectable()
export class FieldClassificationsService implements CrudService<
  FieldClassification,
  CreateFieldClassification,
  never
> {
  constructor(
    private readonly classifications: FieldClassificationsRepository,
    private readonly fields: FieldsLookup,
    private readonly datasets: DatasetsLookup,
    private readonly users: UsersLookup,
    private readonly tx: Transactions,
  ) {}

  /** The read shapes of `rows`, their authors named by e-mail (one query for them all). */
  private async read(rows: FieldClassificationEntity[]): Promise<FieldClassification[]> {
    const emails = await this.users.emailsOf([
      ...new Set(rows.flatMap((r) => (r.created_by ? [r.created_by] : []))),
    ]);
    return rows.map((r) => toFieldClassification(r, emails));
  }

  private async readOne(row: FieldClassificationEntity): Promise<FieldClassification> {
    const [one] = await this.read([row]);
    if (!one) throw new Error('read() lost a row');
    return one;
  }

  async list(query: ListQuery): Promise<Page<FieldClassification>> {
    const page = await this.classifications.crud.findPage(query);
    return { ...page, items: await this.read(page.items) };
  }

  async get(id: string): Promise<FieldClassification> {
    return this.readOne(await this.classifications.crud.getActivePrepared(id));
  }

  async create(input: CreateFieldClassification, actor: AuthUser): Promise<FieldClassification> {
    const tags = [...new Set(input.pii_tags)];
    // One tag format (ADR 0058), checked before anything is locked; each refused tag with its likely form.
    const invalid = tags.filter((t) => !isPiiTag(t));
    if (invalid.length > 0)
      throw new AppError(
        'PII_TAG_INVALID',
        `Not in the PII tag format: ${invalid.map((t) => JSON.stringify(t)).join(', ')}.`,
        { invalid: invalid.map((tag) => ({ tag, suggestion: suggestPiiTag(tag) || null })) },
      );
    const row = await this.tx.run(async (m) => {
      // FOR UPDATE, not FOR SHARE: the insert's trigger updates the field's current tags (ADR 0018), and
      // two transactions holding a share lock on the same field would deadlock upgrading it.
      await this.fields.lockForClassification(input.field_id, m);
      return this.classifications.crud.insert({ ...input, pii_tags: tags }, actor.id, m);
    });
    return this.readOne(row);
  }

  /** The tags in use, most used first, and the suggested vocabulary. */
  async tags(): Promise<PiiTagCatalogue> {
    return { in_use: await this.classifications.tagsInUse(500), suggested: [...SUGGESTED_PII_TAGS] };
  }

  async currentOfField(fieldId: string): Promise<FieldClassification> {
    await this.fields.requireActive(fieldId);
    const row = await this.classifications.currentOfField(fieldId);
    if (!row) throw new AppError('FIELD_CLASSIFICATION_NOT_FOUND', 'The field has never been classified.');
    return this.readOne(row);
  }

  async currentOfDataset(datasetId: string): Promise<FieldClassification[]> {
    await this.datasets.requireActive(datasetId);
    return this.read(await this.classifications.currentOfDataset(datasetId));
  }
}
