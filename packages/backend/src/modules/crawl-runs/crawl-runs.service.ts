import type { CrawlRun, CreateCrawlRun, ListQuery, Page, UpdateCrawlRun } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import type { CrudService } from '../../common/crud/crud-service.js';
import { mapPage } from '../../common/crud/list.js';
import { splitUpdate } from '../../common/crud/update-input.js';
import { AppError, validationError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { SystemsLookup } from '../systems/systems.lookup.js';
import type { CrawlRunEntity } from './crawl-run.entity.js';
import { toCrawlRun } from './crawl-run.mapper.js';
import { CrawlRunsRepository } from './crawl-runs.repository.js';

// Clocks of crawler hosts drift; a timestamp further in the future than this is a mistake.
const CLOCK_SKEW_MS = 5 * 60_000;

function notInFuture(value: Date, field: string): void {
  if (value.getTime() > Date.now() + CLOCK_SKEW_MS) {
    throw validationError([{ path: [field], message: 'must not be in the future' }]);
  }
}

/** The crawler's audit log: `running` → `completed` | `failed`, once; never deleted. */
@Injectable()
export class CrawlRunsService implements CrudService<CrawlRun, CreateCrawlRun, UpdateCrawlRun> {
  constructor(
    private readonly runs: CrawlRunsRepository,
    private readonly systems: SystemsLookup,
    private readonly tx: Transactions,
  ) {}

  async list(query: ListQuery): Promise<Page<CrawlRun>> {
    return mapPage(await this.runs.crud.findPage(query), toCrawlRun);
  }

  get(id: string): Promise<CrawlRun> {
    return this.runs.crud.getActivePrepared(id).then(toCrawlRun);
  }

  create(input: CreateCrawlRun, actor: AuthUser): Promise<CrawlRun> {
    const started = input.started_at ? new Date(input.started_at) : new Date();
    notInFuture(started, 'started_at');
    return this.tx.run(async (m) => {
      await this.systems.lockActive(input.system_id, m);
      const row = await this.runs.crud.insert(
        {
          system_id: input.system_id,
          status: 'running',
          started_at: started,
          config: input.config ?? {},
          note: input.note ?? null,
        },
        actor.id,
        m,
      );
      return toCrawlRun(row);
    });
  }

  update(id: string, input: UpdateCrawlRun, ifMatch: number | undefined, actor: AuthUser): Promise<CrawlRun> {
    const { changes, version } = splitUpdate(input, ifMatch);
    return this.tx.run(async (m) => {
      const current = await this.runs.crud.getActive(id, m, 'update');
      if (current.status !== 'running') {
        throw new AppError('CRAWL_RUN_INVALID_TRANSITION', `The run is already ${current.status}.`);
      }
      const { finished_at: _finishedAt, ...rest } = changes;
      const values: Partial<CrawlRunEntity> = { ...rest };
      if (changes.finished_at !== undefined && changes.status === undefined) {
        throw validationError([{ path: ['finished_at'], message: 'is set together with a final status' }]);
      }
      if (changes.status !== undefined) {
        const finished = changes.finished_at ? new Date(changes.finished_at) : new Date();
        notInFuture(finished, 'finished_at');
        if (finished.getTime() < current.started_at.getTime()) {
          throw validationError([{ path: ['finished_at'], message: 'must not be before started_at' }]);
        }
        values.finished_at = finished;
      }
      return toCrawlRun(await this.runs.crud.update(id, values, version, actor.id, m));
    });
  }
}
