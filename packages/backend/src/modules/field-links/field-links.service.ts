import {
  type CreateFieldLink,
  type CreateLinkFieldLink,
  type FieldLink,
  type ListQuery,
  MAX_BATCH_SIZE,
  type Page,
  type UpdateFieldLink,
} from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertUniqueInBatch } from '../../common/crud/batch.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { DatasetLinksLookup } from '../dataset-links/dataset-links.lookup.js';
import { FieldsLookup } from '../fields/fields.lookup.js';
import { toFieldLink } from './field-link.mapper.js';
import { canonicalTransformations } from './field-transformations.js';
import { FieldLinksRepository } from './field-links.repository.js';

type Ends = Pick<CreateFieldLink, 'source_field_id' | 'target_field_id' | 'transformations' | 'note'>;

/** Which item of a request an error is about (bulk requests name the index). */
function at(index: number, count: number, details: Record<string, unknown>): Record<string, unknown> {
  return count > 1 ? { index, ...details } : details;
}

@Injectable()
export class FieldLinksService implements CrudService<FieldLink, CreateFieldLink, UpdateFieldLink> {
  constructor(
    private readonly fieldLinks: FieldLinksRepository,
    private readonly links: DatasetLinksLookup,
    private readonly fields: FieldsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<FieldLink>> {
    return mapPage(await this.fieldLinks.crud.findPage(query), toFieldLink);
  }

  get(id: string): Promise<FieldLink> {
    return this.fieldLinks.crud.getActivePrepared(id).then(toFieldLink);
  }

  /** The field links of an active dataset link (404 for an unknown one, unlike the original's `[]`). */
  async listOfLink(linkId: string): Promise<FieldLink[]> {
    await this.links.requireActive(linkId);
    return (await this.fieldLinks.findByLink(linkId)).map(toFieldLink);
  }

  create(input: CreateFieldLink, actor: AuthUser): Promise<FieldLink> {
    return this.createInLink(input.dataset_link_id, [input], actor).then(([row]) => row);
  }

  /** `POST /dataset-links/{id}/field-links[/bulk]`: the path names the link, whatever the body says. */
  createInLink(
    linkId: string,
    items: readonly (CreateLinkFieldLink | Ends)[],
    actor: AuthUser,
  ): Promise<FieldLink[]> {
    if (items.length > MAX_BATCH_SIZE) {
      throw new AppError(
        'BATCH_TOO_LARGE',
        `Batch too large: ${items.length} items; max is ${MAX_BATCH_SIZE}.`,
        {
          count: items.length,
          max: MAX_BATCH_SIZE,
        },
      );
    }
    // Duplicates inside the request, before any read (the original answers 500 from the unique index).
    assertUniqueInBatch(
      items,
      (i) => `${i.source_field_id}>${i.target_field_id}`,
      'FIELD_LINK_ALREADY_EXISTS',
    );
    // A target may have several sources in a link (ADR 0052): only the same edge twice is a duplicate.
    const n = items.length;
    return this.tx.run(async (m) => {
      const link = await this.links.lockActive(linkId, m);
      // Locked so that an origin change of a target cannot pass its check concurrently.
      const fields = await this.fields.lockActiveMany(
        items.flatMap((i) => [i.source_field_id, i.target_field_id]),
        m,
      );
      items.forEach((item, index) => {
        const source = fields.get(item.source_field_id);
        const target = fields.get(item.target_field_id);
        if (!source || !target) {
          const missing = source ? item.target_field_id : item.source_field_id;
          throw new AppError('FIELD_NOT_FOUND', undefined, at(index, n, { field_id: missing }));
        }
        if (source.dataset_id !== link.source_dataset_id) {
          throw new AppError(
            'FIELD_LINK_SOURCE_DATASET_MISMATCH',
            undefined,
            at(index, n, { field_id: source.id }),
          );
        }
        if (target.dataset_id !== link.target_dataset_id) {
          throw new AppError(
            'FIELD_LINK_TARGET_DATASET_MISMATCH',
            undefined,
            at(index, n, { field_id: target.id }),
          );
        }
        if (target.origin !== 'mapped') {
          throw new AppError(
            'FIELD_ORIGIN_CONFLICT',
            `Only a mapped field can be fed by a field link; this one is ${target.origin}.`,
            at(index, n, { field_id: target.id, origin: target.origin }),
          );
        }
      });
      const bound = await this.fieldLinks.boundPairs(
        items
          .flatMap((i) => [
            { fieldId: i.source_field_id, schemaId: link.source_schema_id },
            { fieldId: i.target_field_id, schemaId: link.target_schema_id },
          ])
          // An unpinned side (ADR 0054) has no binding: FIELD_BINDING_MISSING below.
          .filter((p): p is { fieldId: string; schemaId: string } => p.schemaId !== null),
        m,
      );
      items.forEach((item, index) => {
        for (const [side, fieldId, schemaId] of [
          ['source', item.source_field_id, link.source_schema_id],
          ['target', item.target_field_id, link.target_schema_id],
        ] as const) {
          if (!bound.has(`${fieldId}:${schemaId}`)) {
            throw new AppError('FIELD_BINDING_MISSING', undefined, at(index, n, { side, field_id: fieldId }));
          }
        }
      });
      const existing = await this.fieldLinks.findEdges(linkId, items, m);
      for (const row of existing) {
        const index = items.findIndex(
          (i) => i.source_field_id === row.source_field_id && i.target_field_id === row.target_field_id,
        );
        throw new AppError(
          'FIELD_LINK_ALREADY_EXISTS',
          undefined,
          at(index, n, {
            field_link_id: row.id,
            source_field_id: row.source_field_id,
            target_field_id: row.target_field_id,
          }),
        );
      }
      const rows = await this.fieldLinks.crud.insertMany(
        items.map((i) => ({
          dataset_link_id: linkId,
          source_field_id: i.source_field_id,
          target_field_id: i.target_field_id,
          transformations: canonicalTransformations(i.transformations),
          note: i.note ?? null,
        })),
        actor.id,
        m,
      );
      return rows.map(toFieldLink);
    });
  }

  /** The note and the transformations change: the ends of a field link are its identity. */
  update(
    id: string,
    input: UpdateFieldLink,
    ifMatch: number | undefined,
    actor: AuthUser,
  ): Promise<FieldLink> {
    const { changes, version } = splitUpdate(input, ifMatch);
    if (changes.transformations !== undefined) {
      changes.transformations = canonicalTransformations(changes.transformations);
    }
    return this.tx.run(async (m) =>
      toFieldLink(await this.fieldLinks.crud.update(id, changes, version, actor.id, m)),
    );
  }

  remove(id: string): Promise<FieldLink> {
    return this.tx.run(async (m) => toFieldLink(await this.fieldLinks.crud.hardDelete(id, m)));
  }
}
