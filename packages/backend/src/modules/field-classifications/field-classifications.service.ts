import type { CreateFieldClassification, FieldClassification, ListQuery, Page } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetsLookup } from '../datasets/datasets.lookup.js';
import { FieldsLookup } from '../fields/fields.lookup.js';
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
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<FieldClassification>> {
    return mapPage(await this.classifications.crud.findPage(query), toFieldClassification);
  }

  get(id: string): Promise<FieldClassification> {
    return this.classifications.crud.getActivePrepared(id).then(toFieldClassification);
  }

  create(input: CreateFieldClassification, actor: AuthUser): Promise<FieldClassification> {
    const tags = [...new Set(input.pii_tags)];
    return this.tx.run(async (m) => {
      // FOR UPDATE, not FOR SHARE: the insert's trigger updates the field's current tags (ADR 0018), and
      // two transactions holding a share lock on the same field would deadlock upgrading it.
      await this.fields.lockForClassification(input.field_id, m);
      const row = await this.classifications.crud.insert({ ...input, pii_tags: tags }, actor.id, m);
      return toFieldClassification(row);
    });
  }

  async currentOfField(fieldId: string): Promise<FieldClassification> {
    await this.fields.requireActive(fieldId);
    const row = await this.classifications.currentOfField(fieldId);
    if (!row) throw new AppError('FIELD_CLASSIFICATION_NOT_FOUND', 'The field has never been classified.');
    return toFieldClassification(row);
  }

  async currentOfDataset(datasetId: string): Promise<FieldClassification[]> {
    await this.datasets.requireActive(datasetId);
    return (await this.classifications.currentOfDataset(datasetId)).map(toFieldClassification);
  }
}
