// The run state machine (ADR 0053): NEW → RUNNING → COMPLETED | FAILED | ABORTED, driven by event types
// that may arrive in any order.
import type { LineageRunState, OpenLineageEventType } from '@aide/schemas';

const TERMINAL: ReadonlySet<LineageRunState> = new Set(['COMPLETED', 'FAILED', 'ABORTED']);

const STATE_OF: Record<OpenLineageEventType, LineageRunState | null> = {
  START: 'RUNNING',
  RUNNING: 'RUNNING',
  COMPLETE: 'COMPLETED',
  FAIL: 'FAILED',
  ABORT: 'ABORTED',
  OTHER: null,
};

export const isTerminal = (state: LineageRunState) => TERMINAL.has(state);

export interface RunClock {
  state: LineageRunState;
  /** The eventTime of the event that set `state`. */
  state_time: Date;
  started_at: Date | null;
  ended_at: Date | null;
}

/**
 * The run after one more event. START and RUNNING make a run RUNNING unless it ended: a late START never
 * undoes an end. An end event ends the run; of two end events the one with the later eventTime decides.
 * OTHER keeps the state. `started_at` is the START's eventTime (a run has one START: the intake keeps
 * one event per run id and type), or the RUNNING's while no START arrived; `ended_at` the deciding end
 * event's.
 */
export function nextClock(run: RunClock, eventType: OpenLineageEventType, eventTime: Date): RunClock {
  const next = { ...run };
  if (eventType === 'START' || (eventType === 'RUNNING' && run.started_at === null)) {
    next.started_at = eventTime;
  }
  const target = STATE_OF[eventType];
  if (target === null) return next;
  if (isTerminal(target)) {
    if (!isTerminal(run.state) || eventTime >= run.state_time) {
      next.state = target;
      next.state_time = eventTime;
      next.ended_at = eventTime;
    }
  } else if (!isTerminal(run.state)) {
    next.state = target;
    if (run.state === 'NEW' || eventTime > run.state_time) next.state_time = eventTime;
  }
  return next;
}
