import type { OpenLineageIntakeResult, ParsedOpenLineageEvent } from '@aide/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import { preparingQueries } from '../../database/prepared-query.js';
import { Transactions } from '../../database/transactions.js';
import { LineageObservationsRecorder } from './observations/lineage-observations.recorder.js';
import { LineageRunRecorder } from './runs/lineage-run-recorder.js';
import { OpenLineageDatasetLinks } from './openlineage-dataset-links.js';
import {
  type Entry,
  entriesOf,
  type EventDatasets,
  fieldEdgesOf,
  matchedOf,
  ref,
  type Result,
} from './openlineage-entries.js';
import { datasetsOf, outcomeOf, receivedEventOf, storedAnswer } from './openlineage-event-kinds.js';
import { OpenLineageFieldLinks } from './openlineage-field-links.js';
import {
  databaseFits,
  databaseOf,
  lookupOf,
  namespacesOf,
  normalizeNamespace,
  type SystemNaming,
} from './openlineage-naming.js';
import { type DatasetRequest, OpenLineageRepository, type ReceivedEvent } from './openlineage.repository.js';

/**
 * OpenLineage intake (ADR 0022, ADR 0051): a RunEvent's or JobEvent's inputs and outputs are matched to
 * registered datasets (`openlineage-naming.ts`, docs/openlineage.md), each matched input → output pair
 * becomes a dataset link pinned to both current versions or confirms the active one, and `columnLineage`
 * facets become field links under the original's field-link rules; a DatasetEvent's dataset is matched
 * and its schema compared. What cannot be matched or linked is reported, with the reason. One
 * transaction: an event whose key (`openlineage-event-kinds.ts`) is stored is answered with the stored
 * result instead of applying again; a new one's row is written last, with its answer (ADR 0063).
 */
@Injectable()
export class OpenLineageService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: ResolvedConfig,
    private readonly tx: Transactions,
    private readonly repo: OpenLineageRepository,
    private readonly datasetLinks: OpenLineageDatasetLinks,
    private readonly fieldLinks: OpenLineageFieldLinks,
    private readonly observations: LineageObservationsRecorder,
    private readonly runs: LineageRunRecorder,
  ) {}

  async intake(
    event: ParsedOpenLineageEvent,
    actor: AuthUser,
  ): Promise<{ created: boolean; result: OpenLineageIntakeResult }> {
    const received = receivedEventOf(event);
    const datasets = this.checkedDatasetsOf(event);
    const entries = entriesOf(datasets);
    const repeated = (stored: Record<string, unknown>) => ({
      created: false,
      result: { ...storedAnswer(stored, received), duplicate: true },
    });
    try {
      // The hot path of integrations (ADR 0056): its statements are prepared once per connection and
      // planned once (generic plans: set-based statements over parameter arrays).
      return await this.tx.run(
        async (tm) => {
          const m = preparingQueries(tm);
          // An event received before is answered as it was. The event's row is written last, with its
          // answer (one write): a concurrent twin that commits first makes this one roll back.
          const { stored, systems } = await this.repo.storedAndSystems(
            received.key,
            namespacesOfEntries(entries),
            m,
          );
          if (stored) return repeated(stored);
          const result = await this.apply(received, event, entries, systems, actor, m, false);
          if (!(await this.repo.record(received, actor.id, result, m))) throw new ReceivedMeanwhile();
          return { created: true, result };
        },
        'READ COMMITTED',
        { genericPlans: true },
      );
    } catch (error) {
      if (!(error instanceof ReceivedMeanwhile)) throw error;
      const stored = await this.tx.run((m) => this.repo.storedResult(received.key, m));
      if (!stored) throw error;
      return repeated(stored);
    }
  }

  /**
   * Stored events applied again in the caller's transaction (ADR 0054: once a dataset they named is
   * registered), each answer stored in place of the first. Idempotent as the intake is: links are
   * confirmed, never duplicated; observations are counted once per event.
   */
  async replayIn(
    events: readonly ParsedOpenLineageEvent[],
    actor: AuthUser,
    m: EntityManager,
  ): Promise<{ event_key: string; result: OpenLineageIntakeResult }[]> {
    const answers: { event_key: string; result: OpenLineageIntakeResult }[] = [];
    for (const event of events) {
      const received = receivedEventOf(event);
      const entries = entriesOf(this.checkedDatasetsOf(event));
      const systems = await this.repo.systems(namespacesOfEntries(entries), m);
      const result = await this.apply(received, event, entries, systems, actor, m, true);
      await this.repo.saveResult(received.key, result, m);
      answers.push({ event_key: received.key, result });
    }
    return answers;
  }

  private checkedDatasetsOf(event: ParsedOpenLineageEvent): EventDatasets {
    const datasets = datasetsOf(event);
    checkLimit(
      'AIDE_OPENLINEAGE_MAX_FIELD_EDGES',
      'column-lineage edges (output field ← input field)',
      fieldEdgesOf(datasets),
      this.config.openLineageMaxFieldEdges,
    );
    return datasets;
  }

  /** `systems`: those the entries' namespaces may name (`OpenLineageRepository.systems`). */
  private async apply(
    event: ReceivedEvent,
    payload: ParsedOpenLineageEvent,
    entries: Entry[],
    systems: readonly SystemNaming[],
    actor: AuthUser,
    m: EntityManager,
    replay: boolean,
  ): Promise<Result> {
    await this.match(entries, systemsByNamespace(systems), m);
    const inputs = matchedOf(entries, 'input');
    const outputs = matchedOf(entries, 'output');
    const selfPairs = [...inputs.keys()].filter((id) => outputs.has(id)).length;
    checkLimit(
      'AIDE_OPENLINEAGE_MAX_DATASET_PAIRS',
      'input → output pairs of registered datasets',
      inputs.size * outputs.size - selfPairs,
      this.config.openLineageMaxDatasetPairs,
    );
    const outcome = outcomeOf(event);
    const linking = outcome.outcome === 'linked' && event.job !== null && inputs.size > 0 && outputs.size > 0;
    // One read of the matched datasets' current versions for the schema comparison, the pins of the
    // links and the drift; the datasets of the pairs share-locked while the links are written.
    const versions = await this.observations.currentVersions(
      [
        ...new Set(
          entries.flatMap((e) =>
            e.answer.status === 'matched' && e.answer.dataset_id ? [e.answer.dataset_id] : [],
          ),
        ),
      ],
      linking,
      m,
    );
    compareSchemas(entries, versions);
    const result: Result = {
      event_kind: event.kind,
      run_id: event.runId,
      event_type: event.eventType,
      job: event.job,
      dataset: event.dataset,
      event_time: event.eventTime,
      duplicate: false,
      ...outcome,
      datasets: entries.map((e) => e.answer),
      dataset_links: [],
      field_links: [],
      skipped: [],
      unknown_datasets: entries
        .filter((e) => e.answer.status === 'unknown')
        .map((e) => ({ role: e.role, ...ref(e) })),
    };
    if (result.outcome === 'linked' && event.job) {
      const pins = new Map([...versions].map(([id, v]) => [id, v.schema_id]));
      const links = await this.datasetLinks.apply(
        inputs,
        outputs,
        pins,
        { job: event.job },
        actor,
        m,
        result,
      );
      await this.fieldLinks.apply(entries, links, actor, m, result);
    }
    // Unknown datasets kept, schema facets compared (ADR 0054).
    await this.observations.record(event, payload, entries, result, versions, m, replay);
    // Jobs and runs (ADR 0053); a replay fills in the datasets matched since, nothing else changes.
    await this.runs.record(event, payload, result, m);
    return result;
  }

  /** Finds each entry's dataset: its name first, then its symlinks; one dataset or none is an answer. */
  private async match(
    entries: Entry[],
    systemsOf: ReadonlyMap<string, SystemNaming[]>,
    m: EntityManager,
  ): Promise<void> {
    const { requests, requestsOf } = datasetRequests(entries, systemsOf);
    const hitsOf = new Map<number, { dataset_id: string; exact: boolean }[]>();
    for (const hit of await this.repo.matchDatasets(requests, m)) {
      hitsOf.set(hit.key, [...(hitsOf.get(hit.key) ?? []), hit]);
    }
    entries.forEach((entry, i) => answerMatch(entry, requestsOf[i] ?? [], hitsOf));
  }
}

/** Raised inside the intake's transaction when a concurrent twin of the event committed first. */
class ReceivedMeanwhile extends Error {}

/** The namespaces (normalised) of every identity of the entries: the systems the intake reads. */
function namespacesOfEntries(entries: readonly Entry[]): string[] {
  return [...new Set(entries.flatMap((e) => e.identities.map((i) => normalizeNamespace(i.namespace))))];
}

/** The systems under each namespace they answer to (normalised). */
function systemsByNamespace(systems: readonly SystemNaming[]): Map<string, SystemNaming[]> {
  const systemsOf = new Map<string, SystemNaming[]>();
  for (const system of systems) {
    for (const ns of namespacesOf(system)) systemsOf.set(ns, [...(systemsOf.get(ns) ?? []), system]);
  }
  return systemsOf;
}

/**
 * A matched dataset's schema facet against its current version: the facet's fields without a column of
 * that name (case-insensitive) are reported, a sign that the registry is behind the data.
 */
function compareSchemas(
  entries: Entry[],
  versions: ReadonlyMap<string, { columns: { name: string }[] }>,
): void {
  for (const e of entries) {
    const id = e.answer.dataset_id;
    const schema = e.dataset?.facets?.schema;
    if (!id || !schema?.fields || schema._deleted) continue;
    const known = new Set((versions.get(id)?.columns ?? []).map((c) => c.name.toLowerCase()));
    e.answer.schema_fields_unknown = schema.fields
      .map((f) => f.name)
      .filter((name) => !known.has(name.toLowerCase()));
  }
}

/**
 * The dataset lookups of every identity of every entry, one per system whose database fits the name,
 * and, per entry and identity, the keys of its lookups.
 */
function datasetRequests(
  entries: readonly Entry[],
  systemsOf: ReadonlyMap<string, SystemNaming[]>,
): { requests: DatasetRequest[]; requestsOf: number[][][] } {
  const requests: DatasetRequest[] = [];
  const requestsOf: number[][][] = entries.map((e) =>
    e.identities.map((identity) => {
      const lookup = lookupOf(identity.namespace, identity.name);
      return (systemsOf.get(normalizeNamespace(identity.namespace)) ?? [])
        .filter((s) => databaseFits(databaseOf(s), lookup))
        .map((s) => {
          requests.push({ key: requests.length, systemId: s.id, lookup });
          return requests.length - 1;
        });
    }),
  );
  return { requests, requestsOf };
}

/**
 * An entry's answer from the first of its identities whose lookups found datasets: matched when they
 * found one (or exactly one exact match), else ambiguous with the candidates.
 */
function answerMatch(
  entry: Entry,
  keysOf: readonly number[][],
  hitsOf: ReadonlyMap<number, { dataset_id: string; exact: boolean }[]>,
): void {
  for (const [j, keys] of keysOf.entries()) {
    const hits = new Map<string, boolean>();
    for (const k of keys)
      for (const h of hitsOf.get(k) ?? []) hits.set(h.dataset_id, h.exact || hits.get(h.dataset_id) === true);
    if (hits.size === 0) continue;
    const exact = [...hits].filter(([, e]) => e).map(([id]) => id);
    const chosen = hits.size === 1 ? [...hits.keys()] : exact.length === 1 ? exact : [];
    const label = entry.identities[j]?.label ?? 'name';
    entry.answer =
      chosen.length === 1
        ? { ...entry.answer, status: 'matched', dataset_id: chosen[0], matched_by: label }
        : {
            ...entry.answer,
            status: 'ambiguous',
            matched_by: label,
            candidates: [...hits.keys()].sort(),
          };
    return;
  }
}

/**
 * The work one event may ask for (docs/operations.md, Limits): beyond it the event is refused whole,
 * before any link is written (inside the transaction, the event's claim is rolled back with it).
 */
function checkLimit(limit: string, what: string, count: number, max: number): void {
  if (count <= max) return;
  throw new AppError(
    'OPENLINEAGE_EVENT_TOO_LARGE',
    `The event has ${count} ${what}; one event may have at most ${max} (${limit}). Split the event.`,
    { limit, max, count },
  );
}
