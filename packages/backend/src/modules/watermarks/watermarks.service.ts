import type { Page, PutWatermark, Watermark, WatermarkHistoryEntry, WatermarkWritten } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { toHistoryEntry, toWatermark } from './watermark.mapper.js';
import { WatermarksRepository } from './watermarks.repository.js';

/**
 * Watermarks as DataCoolie keeps them (reference §5): raw text in, the same text out, never parsed;
 * last writer wins, each write counted by a revision and kept in the history. A missing, deleted or
 * (when a workspace is given) foreign dataflow is DATAFLOW_NOT_FOUND.
 */
@Injectable()
export class WatermarksService {
  constructor(
    private readonly watermarks: WatermarksRepository,
    private readonly tx: Transactions,
  ) {}

  async get(dataflowId: string, workspaceId: string | null = null): Promise<Watermark> {
    const row = await this.watermarks.read(dataflowId, workspaceId);
    if (!row) throw new AppError('DATAFLOW_NOT_FOUND');
    return toWatermark(row);
  }

  put(
    dataflowId: string,
    input: PutWatermark,
    actorId: string | null,
    workspaceId: string | null = null,
  ): Promise<WatermarkWritten> {
    return this.tx.run(async (m) => {
      const result = await this.watermarks.write(
        {
          dataflowId,
          workspaceId,
          value: input.current_value,
          jobId: input.job_id ?? null,
          dataflowRunId: input.dataflow_run_id ?? null,
          actorId,
        },
        m,
      );
      if (!result.owned) throw new AppError('DATAFLOW_NOT_FOUND');
      return { status: 'ok', revision: result.revision };
    });
  }

  async history(dataflowId: string, page: number, size: number): Promise<Page<WatermarkHistoryEntry>> {
    if (!(await this.watermarks.read(dataflowId, null))) throw new AppError('DATAFLOW_NOT_FOUND');
    const { rows, total } = await this.watermarks.history(dataflowId, size, (page - 1) * size);
    return { items: rows.map(toHistoryEntry), total, page, size, pages: Math.ceil(total / size) };
  }
}
