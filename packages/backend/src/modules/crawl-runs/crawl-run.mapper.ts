import type { CrawlRun } from '@aide/schemas';
import { withAudit } from '../../common/crud/audit-mapper.js';
import type { CrawlRunEntity } from './crawl-run.entity.js';

export function toCrawlRun(e: CrawlRunEntity): CrawlRun {
  return withAudit<CrawlRun>(e, {
    system_id: e.system_id,
    status: e.status,
    started_at: e.started_at.toISOString(),
    finished_at: e.finished_at ? e.finished_at.toISOString() : null,
    config: e.config,
    summary: e.summary,
    diff_payload: e.diff_payload,
    error_message: e.error_message,
  });
}
