import type { Page, PutWatermark, Watermark, WatermarkHistoryEntry, WatermarkWritten } from '@aide/schemas';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertWorkspaceInScope } from '../../common/auth/workspace-scope.js';
import { AppError } from '../../common/errors/app-error.js';
import { APP_CONFIG, type ResolvedConfig } from '../../config/config.js';
import { Transactions } from '../../database/transactions.js';
import { toHistoryEntry, toWatermark } from './watermark.mapper.js';
import { WatermarksRepository } from './watermarks.repository.js';

/**
 * Watermarks as DataCoolie keeps them (reference §5): raw text in, the same text out, never parsed;
 * last writer wins, each write counted by a revision and kept in the history (the last
 * `watermarkHistoryKept` writes). A text over `watermarkMaxBytes` is WATERMARK_TOO_LARGE. A missing,
 * deleted or (when a workspace is given) foreign dataflow is DATAFLOW_NOT_FOUND. Watermarks are keyed
 * by the registry's dataflow id; DataCoolie's routes (a workspace given) name the dataflow by the id
 * DataCoolie sees (`datacoolie_id`, ADR 0050), or by its registry id when no `datacoolie_id` matches.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The dataflow a call is about (its registry id) and the workspace it is bound to, if any. */
interface Target {
  dataflowId: string;
  scope: string | null;
}

@Injectable()
export class WatermarksService {
  constructor(
    private readonly watermarks: WatermarksRepository,
    private readonly tx: Transactions,
    @Inject(APP_CONFIG) private readonly config: ResolvedConfig,
  ) {}

  /**
   * The dataflow named and the workspace the call is bound to: the one named (DataCoolie's routes),
   * else, for an API key, the dataflow's own — either way within the key's scope (403 otherwise).
   */
  private async targetOf(ref: string, workspaceId: string | null, user?: AuthUser): Promise<Target> {
    if (workspaceId !== null) {
      assertWorkspaceInScope(user, workspaceId);
      const dataflowId = await this.watermarks.resolveInWorkspace(
        workspaceId,
        ref,
        UUID.test(ref) ? ref : null,
      );
      if (dataflowId === undefined) throw new AppError('DATAFLOW_NOT_FOUND');
      return { dataflowId, scope: workspaceId };
    }
    // The registry's routes take registry ids, which are UUIDs: another text names no dataflow.
    if (!UUID.test(ref)) throw new AppError('DATAFLOW_NOT_FOUND');
    if (!user?.workspace_ids) return { dataflowId: ref, scope: null };
    const owner = await this.watermarks.workspaceOf(ref);
    if (owner === undefined) throw new AppError('DATAFLOW_NOT_FOUND');
    assertWorkspaceInScope(user, owner);
    return { dataflowId: ref, scope: owner };
  }

  async get(ref: string, workspaceId: string | null = null, user?: AuthUser): Promise<Watermark> {
    const { dataflowId, scope } = await this.targetOf(ref, workspaceId, user);
    const row = await this.watermarks.read(dataflowId, scope);
    if (!row) throw new AppError('DATAFLOW_NOT_FOUND');
    return toWatermark(row);
  }

  async put(
    ref: string,
    input: PutWatermark,
    user: AuthUser | null,
    workspaceId: string | null = null,
  ): Promise<WatermarkWritten> {
    this.assertStorable(input.current_value);
    const { dataflowId, scope } = await this.targetOf(ref, workspaceId, user ?? undefined);
    return this.tx.run(async (m) => {
      const result = await this.watermarks.write(
        {
          dataflowId,
          workspaceId: scope,
          value: input.current_value,
          jobId: input.job_id ?? null,
          dataflowRunId: input.dataflow_run_id ?? null,
          actorId: user?.id ?? null,
          historyKept: this.config.watermarkHistoryKept,
        },
        m,
      );
      if (!result.owned) throw new AppError('DATAFLOW_NOT_FOUND');
      return { status: 'ok', revision: result.revision };
    });
  }

  /** Sized in UTF-8 bytes, as stored: what a write costs the database (value, previous value, history). */
  private assertStorable(value: string): void {
    const max = this.config.watermarkMaxBytes;
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > max) {
      throw new AppError(
        'WATERMARK_TOO_LARGE',
        `The watermark value is ${bytes} bytes; at most ${max} are kept.`,
        { max_bytes: max, value_bytes: bytes },
      );
    }
  }

  async history(
    dataflowId: string,
    page: number,
    size: number,
    user?: AuthUser,
  ): Promise<Page<WatermarkHistoryEntry>> {
    const { scope } = await this.targetOf(dataflowId, null, user);
    if (!(await this.watermarks.read(dataflowId, scope))) throw new AppError('DATAFLOW_NOT_FOUND');
    const { rows, total } = await this.watermarks.history(dataflowId, size, (page - 1) * size);
    return { items: rows.map(toHistoryEntry), total, page, size, pages: Math.ceil(total / size) };
  }
}
