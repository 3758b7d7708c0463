import { describe, expect, it } from '@jest/globals';
import type { OpenLineageEventType } from '@aide/schemas';
import { nextClock, type RunClock } from './lineage-run-state.js';

const t = (minute: number) => new Date(Date.UTC(2026, 11, 7, 10, minute));
const NEW: RunClock = { state: 'NEW', state_time: t(0), started_at: null, ended_at: null };

/** The clock after these events, in the order they arrive. */
const after = (...events: [OpenLineageEventType, number][]) =>
  events.reduce((clock, [type, minute]) => nextClock(clock, type, t(minute)), NEW);

describe('the run state machine (ADR 0053)', () => {
  it('goes NEW → RUNNING → an end, with its start and end times', () => {
    expect(after(['START', 1], ['RUNNING', 2], ['COMPLETE', 5])).toEqual({
      state: 'COMPLETED',
      state_time: t(5),
      started_at: t(1),
      ended_at: t(5),
    });
    expect(after(['OTHER', 1]).state).toBe('NEW');
    expect(after(['START', 1], ['OTHER', 2]).state).toBe('RUNNING');
  });

  it('never undoes an end with a late START or RUNNING, but takes the start time', () => {
    expect(after(['FAIL', 5], ['START', 1], ['RUNNING', 2])).toEqual({
      state: 'FAILED',
      state_time: t(5),
      started_at: t(1),
      ended_at: t(5),
    });
  });

  it('lets the later of two ends decide, whatever their arrival order', () => {
    expect(after(['COMPLETE', 9], ['FAIL', 5]).state).toBe('COMPLETED');
    expect(after(['FAIL', 5], ['ABORT', 9])).toMatchObject({ state: 'ABORTED', ended_at: t(9) });
  });

  it("prefers the START's time to a RUNNING's", () => {
    expect(after(['RUNNING', 3]).started_at).toEqual(t(3));
    expect(after(['RUNNING', 3], ['START', 1]).started_at).toEqual(t(1));
    expect(after(['START', 1], ['RUNNING', 3]).started_at).toEqual(t(1));
  });
});
