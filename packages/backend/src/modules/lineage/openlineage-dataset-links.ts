import type { ParsedOpenLineageRunEvent } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { type ActiveLink, DatasetLinkBatch, type PairOutcome } from '../dataset-links/dataset-link-batch.js';
import { type Entry, pairKey, type Result, skip } from './openlineage-entries.js';

/** The event's pairs with a link (by pairKey), and those of them confirmed rather than created. */
interface LinkedPairs {
  linkOf: Map<string, ActiveLink>;
  confirmed: Set<string>;
  /** Pairs a concurrent writer linked after the statement's snapshot (source id, target id). */
  raced: [string, string][];
}

/**
 * Each matched input → output pair: the active link confirmed, or one created on current versions. The
 * pairs are PostgreSQL's cross product (`DatasetLinkBatch.linkEvery`), bounded by the pair limit; a
 * dataset both read and written is reported once, and a pair with an unknown or ambiguous side is not
 * a pair at all (that dataset is reported once, in `datasets` and `unknown_datasets`).
 */
@Injectable()
export class OpenLineageDatasetLinks {
  constructor(private readonly linkBatch: DatasetLinkBatch) {}

  /**
   * Links every pair, answers each in `result`; the links by pairKey (for the field links). `pins`: the
   * current version of each dataset of the pairs (null: none), read and share-locked by the caller.
   */
  async apply(
    inputs: ReadonlyMap<string, Entry>,
    outputs: ReadonlyMap<string, Entry>,
    pins: ReadonlyMap<string, string | null>,
    event: Pick<ParsedOpenLineageRunEvent, 'job'>,
    actor: AuthUser,
    m: EntityManager,
    result: Result,
  ): Promise<Map<string, ActiveLink>> {
    skipSelfLinks(inputs, outputs, result);
    if (inputs.size === 0 || outputs.size === 0) return new Map<string, ActiveLink>();
    const sideOf = (id: string) => ({ id, schema_id: pins.get(id) ?? null });
    const note = `OpenLineage: ${event.job.namespace} ${event.job.name}`.slice(0, 1000);
    const outcomes = await this.linkBatch.linkEvery(
      [...inputs.keys()].map(sideOf),
      [...outputs.keys()].map(sideOf),
      note,
      actor.id,
      m,
    );
    const { linkOf, confirmed, raced } = linkedPairs(outcomes);
    // A pair linked by a concurrent writer since the statement's snapshot: that link is confirmed.
    for (const link of await this.linkBatch.activeOfPairs(raced, m)) {
      linkOf.set(pairKey(link), link);
      confirmed.add(pairKey(link));
    }
    for (const o of outcomes) {
      const link = linkOf.get(pairKey(o));
      if (!link) continue;
      result.dataset_links.push({
        dataset_link_id: link.id,
        source_dataset_id: link.source_dataset_id,
        target_dataset_id: link.target_dataset_id,
        status: confirmed.has(pairKey(o)) ? 'confirmed' : 'created',
      });
    }
    return linkOf;
  }
}

/** A dataset the job both reads and writes: no link to itself, reported. */
function skipSelfLinks(
  inputs: ReadonlyMap<string, Entry>,
  outputs: ReadonlyMap<string, Entry>,
  result: Result,
): void {
  for (const [id, output] of outputs) {
    const input = inputs.get(id);
    if (input)
      result.skipped.push(
        skip('dataset_link', 'SELF_LINK', 'The job reads and writes the same dataset.', input, output),
      );
  }
}

/**
 * What `linkEvery` made of each pair: a link confirmed or created (a side without a version is linked
 * unpinned, ADR 0054), or a pair raced by a concurrent writer (to read again).
 */
function linkedPairs(outcomes: readonly PairOutcome[]): LinkedPairs {
  const linkOf = new Map<string, ActiveLink>();
  const confirmed = new Set<string>();
  const raced: [string, string][] = [];
  for (const o of outcomes) {
    if (o.outcome === 'raced') raced.push([o.source_dataset_id, o.target_dataset_id]);
    else {
      linkOf.set(pairKey(o), {
        id: o.id as string,
        source_dataset_id: o.source_dataset_id,
        target_dataset_id: o.target_dataset_id,
        source_schema_id: o.source_schema_id,
        target_schema_id: o.target_schema_id,
      });
      if (o.outcome === 'confirmed') confirmed.add(pairKey(o));
    }
  }
  return { linkOf, confirmed, raced };
}
