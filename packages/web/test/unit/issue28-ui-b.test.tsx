import { ERROR_CATALOGUE } from '@aide/schemas';
import { AideApiError, type CrawlRun } from '@aide/sdk';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorMessage, humanMessage } from '../../src/components/common';
import { Login } from '../../src/pages/Login';
import { describeRun, runKind } from '../../src/pages/CrawlRuns';
import { endedMessage, endSession, onSessionEnded } from '../../src/session';

afterEach(() => {
  cleanup();
});

const apiError = (errorCode: string, status: number, detail: string, details?: Record<string, unknown>) =>
  new AideApiError({
    status,
    errorCode,
    detail,
    requestId: 'req-9',
    details,
    headers: {},
    route: 'POST /api/v1/login',
  });

describe('error messages (#9)', () => {
  it('shows the catalogue text for the code, the technical text only behind Details', () => {
    const error = apiError('INVALID_CREDENTIALS', 401, 'Incorrect email or password.');
    const { container, getByRole } = render(<ErrorMessage error={error} />);
    const alert = getByRole('alert');
    // The first paragraph (visible) is the human message; code, route and request id are in <details>.
    const visible = alert.querySelector(':scope > p')?.textContent ?? '';
    expect(visible).toBe(ERROR_CATALOGUE.INVALID_CREDENTIALS.detail);
    expect(visible).not.toMatch(/401|INVALID_CREDENTIALS|request/);
    const details = container.querySelector('details');
    expect(details?.querySelector('summary')?.textContent).toBe('Details');
    expect(details?.textContent).toContain('INVALID_CREDENTIALS (401)');
    expect(details?.textContent).toContain('Request req-9');
    expect(details?.open).toBe(false);
  });

  it('keeps validation issues by field behind Details, with a human sentence in front', () => {
    const error = apiError('VALIDATION_ERROR', 422, 'Invalid input: expected string, received undefined', {
      issues: [{ path: ['name'], message: 'Invalid input: expected string, received undefined' }],
    });
    const { getByRole } = render(<ErrorMessage error={error} />);
    const alert = getByRole('alert');
    expect(alert.querySelector(':scope > p')?.textContent).toBe(ERROR_CATALOGUE.VALIDATION_ERROR.detail);
    expect(alert.querySelector('details')?.textContent).toContain('name Invalid input: expected string');
    expect(humanMessage(new TypeError('Failed to fetch'))).toMatch(/could not be reached/);
  });
});

describe('ended sessions (#4, #13)', () => {
  it('maps the refusal code to a reason and tells the app', () => {
    expect(endedMessage('REFRESH_TOKEN_REVOKED')).toMatch(/signed out everywhere/);
    expect(endedMessage('REFRESH_TOKEN_EXPIRED')).toMatch(/expired/);
    const heard: string[] = [];
    const off = onSessionEnded((r) => heard.push(r));
    endSession(endedMessage('REFRESH_TOKEN_REVOKED'));
    off();
    expect(heard).toEqual([endedMessage('REFRESH_TOKEN_REVOKED')]);
    const { getByRole } = render(<Login onSession={() => undefined} />);
    expect(getByRole('status').textContent).toMatch(/signed out everywhere/);
  });

  it('says a reload signed the user out, storing nothing', async () => {
    vi.resetModules();
    const entries = vi
      .spyOn(performance, 'getEntriesByType')
      .mockReturnValue([{ type: 'reload' } as unknown as PerformanceEntry]);
    // A fresh module (a reloaded page) has no reason of its own: the navigation entry speaks.
    const fresh = await import('../../src/session');
    expect(fresh.endedReason()).toBe(fresh.ENDED_BY_RELOAD);
    expect(fresh.ENDED_BY_RELOAD).toMatch(/reloaded/);
    entries.mockReturnValue([{ type: 'navigate' } as unknown as PerformanceEntry]);
    expect(fresh.endedReason()).toBeNull();
    entries.mockRestore();
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
  });
});

const run = (over: Partial<CrawlRun>): CrawlRun =>
  ({
    id: 'r1',
    system_id: 's1',
    status: 'completed',
    started_at: '2026-01-01T00:00:00Z',
    finished_at: '2026-01-01T00:01:00Z',
    config: { dialect: 'postgresql' },
    summary: null,
    diff_payload: null,
    error_message: null,
    ...over,
  }) as CrawlRun;

describe('crawl runs as read (#3)', () => {
  it('says a crawl result in counts, not JSON', () => {
    const r = run({
      summary: {
        datasets: { new: 1, changed: 2, removed: 0, unchanged: 4 },
        changes: { total: 5, compatible: 3, breaking: 2 },
        by_category: {},
        unmapped_columns: 0,
      },
    });
    expect(runKind(r)).toBe('crawl');
    expect(describeRun(r)).toBe('5 changes: 2 breaking, 3 compatible (datasets: 1 new, 2 changed)');
    expect(describeRun(run({ summary: { changes: { total: 1, compatible: 1, breaking: 0 } } }))).toBe(
      '1 change: 1 compatible',
    );
  });

  it('tells an apply from a crawl and says what it published', () => {
    const r = run({
      config: { command: 'apply', report_crawl_run_id: 'r0' },
      summary: { create: 1, publish: 2, already_applied: 0, stale: 0, kept: 0, failed: 0, incompatible: 1 },
    });
    expect(runKind(r)).toBe('apply');
    expect(describeRun(r)).toBe('Datasets: 1 created, 2 published, 1 refused as incompatible');
    expect(describeRun(run({ status: 'failed', error_message: 'boom' }))).toBe('Failed: boom');
  });
});
