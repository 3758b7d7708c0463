// The three OpenLineage events the intake takes (ADR 0051): what each is recorded under, which of its
// datasets are matched, and what its type means.
import { createHash } from 'node:crypto';
import {
  openLineageEventKind,
  type OpenLineageEventType,
  type OpenLineageIntakeResult,
  type OpenLineageOutcome,
  type ParsedOpenLineageDatasetEvent,
  type ParsedOpenLineageEvent,
  type ParsedOpenLineageJobEvent,
  type ParsedOpenLineageRunEvent,
} from '@aide/schemas';
import { type EventDatasets, ref } from './openlineage-entries.js';
import type { ReceivedEvent } from './openlineage.repository.js';

/** Event types a run sends many of (Spark and Flink report progress in a stream of RUNNING events). */
const REPEATING: readonly OpenLineageEventType[] = ['RUNNING', 'OTHER'];

/**
 * The event as recorded. A RunEvent is keyed by its run id and event type (ADR 0022: START and COMPLETE
 * of one run are two events, a retry is one), and for RUNNING and OTHER also by its `eventTime`: each
 * progress report is an event of its own, a retry of one (same time) is not; a JobEvent or DatasetEvent has no run, so it is keyed by
 * the SHA-256 of its canonical JSON (keys sorted): the same event sent again is a duplicate, the same
 * job or dataset described again with another `eventTime` or another facet is a new event.
 */
export function receivedEventOf(event: ParsedOpenLineageEvent): ReceivedEvent {
  const common = { eventTime: event.eventTime, producer: event.producer };
  switch (openLineageEventKind(event)) {
    case 'run': {
      const run = event as ParsedOpenLineageRunEvent;
      const runId = run.run.runId.toLowerCase();
      const eventType: OpenLineageEventType = run.eventType ?? 'OTHER';
      return {
        ...common,
        kind: 'run',
        key: REPEATING.includes(eventType)
          ? `run:${runId}:${eventType}:${run.eventTime}`
          : `run:${runId}:${eventType}`,
        runId,
        eventType,
        job: ref(run.job),
        dataset: null,
      };
    }
    case 'job': {
      const job = event as ParsedOpenLineageJobEvent;
      return {
        ...common,
        kind: 'job',
        key: `job:${contentHash(job)}`,
        runId: null,
        eventType: null,
        job: ref(job.job),
        dataset: null,
      };
    }
    case 'dataset': {
      const dataset = event as ParsedOpenLineageDatasetEvent;
      return {
        ...common,
        kind: 'dataset',
        key: `dataset:${contentHash(dataset)}`,
        runId: null,
        eventType: null,
        job: null,
        dataset: ref(dataset.dataset),
      };
    }
  }
}

/**
 * The datasets the intake matches: a RunEvent's or JobEvent's inputs and outputs; a DatasetEvent's one
 * dataset, as an output (the side whose metadata an event describes), without its column lineage (no
 * job ran: links come from RunEvents and JobEvents).
 */
export function datasetsOf(event: ParsedOpenLineageEvent): EventDatasets {
  if (openLineageEventKind(event) !== 'dataset') return event as ParsedOpenLineageJobEvent;
  const { dataset } = event as ParsedOpenLineageDatasetEvent;
  const { columnLineage: _columnLineage, ...facets } = dataset.facets ?? {};
  return { inputs: [], outputs: [{ ...dataset, facets }] };
}

type Outcome = Pick<OpenLineageIntakeResult, 'applied' | 'outcome' | 'reason'>;

const OUTCOMES: Record<Exclude<OpenLineageOutcome, 'linked'>, Outcome> = {
  run_failed: {
    applied: false,
    outcome: 'run_failed',
    reason: 'The run failed (FAIL): its datasets are matched and reported, no link is written (ADR 0022).',
  },
  run_aborted: {
    applied: false,
    outcome: 'run_aborted',
    reason:
      'The run was aborted (ABORT): its datasets are matched and reported, no link is written (ADR 0022).',
  },
  observed: {
    applied: true,
    outcome: 'observed',
    reason:
      'A DatasetEvent describes one dataset: it is matched and its schema facet compared; no link is written.',
  },
};

/**
 * What an event's type means (ADR 0051): START, RUNNING, COMPLETE and OTHER (or none) report a job
 * reading its inputs and writing its outputs, so they link them, as does a JobEvent (a job's declared
 * lineage); FAIL and ABORT report a run that did not succeed, so they link nothing (ADR 0022).
 */
export function outcomeOf(event: Pick<ReceivedEvent, 'kind' | 'eventType'>): Outcome {
  if (event.kind === 'dataset') return OUTCOMES.observed;
  if (event.eventType === 'FAIL') return OUTCOMES.run_failed;
  if (event.eventType === 'ABORT') return OUTCOMES.run_aborted;
  return { applied: true, outcome: 'linked', reason: null };
}

/** A stored answer, with the fields added since (ADR 0051) filled in for answers stored before them. */
export function storedAnswer(stored: Record<string, unknown>, event: ReceivedEvent): OpenLineageIntakeResult {
  return {
    event_kind: event.kind,
    dataset: event.dataset,
    ...outcomeOf(event),
    ...stored,
  } as OpenLineageIntakeResult;
}

/** SHA-256 of the JSON of a value with every object's keys sorted: equal events, equal hashes. */
function contentHash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value, sortedKeys)).digest('hex');
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, record[k]]),
  );
}
