import { gunzipSync } from 'node:zlib';
import { contract } from '@aide/schemas';
import { Controller } from '@nestjs/common';
import { respond, Route, type RouteInput } from '../../common/contract/route.decorator.js';
import { WatermarksService } from '../watermarks/watermarks.service.js';
import { DatacoolieApiService } from './datacoolie-api.service.js';
import { SchemaHintOverridesService } from '../datacoolie/schema-hint-overrides.service.js';
import { WorkspaceSnapshotService } from '../datacoolie/workspace-snapshot.service.js';
import type { AuthUser } from '../../common/auth/current-user.js';

const routes = contract.datacoolie;

/** `If-None-Match`: the entity tags it lists, quotes and weak markers removed. */
function entityTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((tag) =>
      tag
        .trim()
        .replace(/^W\//, '')
        .replace(/^"(.*)"$/, '$1'),
    )
    .filter((tag) => tag !== '');
}

/** The snapshot and DataCoolie's own REST contract, under `/api/v1/workspaces/{workspace_id}`. */
@Controller()
export class DatacoolieController {
  constructor(
    private readonly snapshots: WorkspaceSnapshotService,
    private readonly api: DatacoolieApiService,
    private readonly watermarks: WatermarksService,
    private readonly overrides: SchemaHintOverridesService,
  ) {}

  /**
   * The page as stored: gzip when the client accepts it (the document is large and repetitive), else
   * decompressed here. `ETag` is the revision of the snapshot the page belongs to.
   */
  @Route(routes.snapshot)
  async snapshot({ params, query, user, request, reply }: RouteInput<typeof routes.snapshot>) {
    const tags = entityTags(request.headers['if-none-match']);
    const answer = await this.snapshots.page(params.workspace_id, query, tags, user);
    // Kept by the caller's own cache only and revalidated on every use (If-None-Match → 304): the
    // `no-store` of the other authenticated routes would forbid the copy that revalidation needs.
    void reply
      .header('ETag', `"${answer.revision}"`)
      .header('Vary', 'Accept-Encoding')
      .header('Cache-Control', 'private, no-cache');
    if (answer.notModified) return respond(routes.snapshot, 304, undefined);
    void reply.header('Content-Type', 'application/json; charset=utf-8');
    const gzip = /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? ''));
    if (gzip) void reply.header('Content-Encoding', 'gzip');
    // The stored page is already the serialized body: sent as bytes, never parsed and re-encoded.
    return (gzip ? answer.gzip : gunzipSync(answer.gzip)) as never;
  }

  @Route(routes.connections)
  connections({ params, query, user }: RouteInput<typeof routes.connections>) {
    return this.api.connections(params.workspace_id, query, user);
  }

  @Route(routes.connection)
  connection({ params, user }: RouteInput<typeof routes.connection>) {
    return this.api.connection(params.workspace_id, params.connection_id, user);
  }

  @Route(routes.dataflows)
  dataflows({ params, query, user }: RouteInput<typeof routes.dataflows>) {
    return this.api.dataflows(params.workspace_id, query, user);
  }

  @Route(routes.dataflow)
  dataflow({ params, user }: RouteInput<typeof routes.dataflow>) {
    return this.api.dataflow(params.workspace_id, params.dataflow_id, user);
  }

  @Route(routes.schemaHints)
  schemaHints({ params, query, user }: RouteInput<typeof routes.schemaHints>) {
    return this.api.schemaHints(params.workspace_id, query, user);
  }

  @Route(routes.schemaHintOverrides)
  schemaHintOverrides({ params, user }: RouteInput<typeof routes.schemaHintOverrides>) {
    return this.overrides.get(params.workspace_id, params.dataset_id, user);
  }

  @Route(routes.putSchemaHintOverrides)
  putSchemaHintOverrides({ params, body, user }: RouteInput<typeof routes.putSchemaHintOverrides>) {
    return this.overrides.put(params.workspace_id, params.dataset_id, body, user);
  }

  /** `GET` and `PUT` of a watermark: the dataflow must be in the (in-scope) workspace. */
  @Route(routes.watermark)
  watermark(input: RouteInput<typeof routes.watermark>) {
    return this.inWorkspace(input, (id, user) => this.watermarks.get(input.params.dataflow_id, id, user));
  }

  @Route(routes.putWatermark)
  putWatermark(input: RouteInput<typeof routes.putWatermark>) {
    return this.inWorkspace(input, (id, user) =>
      this.watermarks.put(input.params.dataflow_id, input.body, user, id),
    );
  }

  private async inWorkspace<T>(
    { params, user }: { params: { workspace_id: string }; user: AuthUser },
    work: (workspaceId: string, user: AuthUser) => Promise<T>,
  ): Promise<T> {
    return work((await this.snapshots.workspace(params.workspace_id, user)).id, user);
  }
}
