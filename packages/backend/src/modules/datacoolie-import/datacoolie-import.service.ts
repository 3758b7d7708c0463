import type { DataCoolieImportPlan, DataCoolieImportProblem, DataCoolieImportRequest } from '@aide/schemas';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user.js';
import { assertWorkspaceInScope } from '../../common/auth/workspace-scope.js';
import { AppError } from '../../common/errors/app-error.js';
import { Transactions } from '../../database/transactions.js';
import { ConnectionProfilesService } from '../connection-profiles/connection-profiles.service.js';
import { CredentialRefsService } from '../credential-refs/credential-refs.service.js';
import { DataflowChecker } from '../datacoolie/dataflow-checker.js';
import { DataflowsService } from '../dataflows/dataflows.service.js';
import { DatasetsService } from '../datasets/datasets.service.js';
import { WorkspacesLookup } from '../workspaces/workspaces.lookup.js';
import { WorkspacesService } from '../workspaces/workspaces.service.js';
import { DatacoolieImportRepository } from './datacoolie-import.repository.js';
import { readDocument } from './import-document.js';
import { applySteps } from './import-plan.js';
import { ImportPlanner } from './import-planner.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Thrown to roll the import's transaction back once its plan is known (dry run, or problems). */
class RollBack extends Error {}

type ParsedRequest = Required<DataCoolieImportRequest>;

/**
 * A DataCoolie document imported into a workspace as one plan in one transaction (ADR 0050): the
 * document read with DataCoolie's models, planned against the workspace, then written through the
 * services' in-transaction methods (their rules run), each item under a savepoint so that every
 * refusal is reported. Any problem rolls everything back (422 with the plan); a dry run does the same
 * work and always rolls back, so it answers what the real run would.
 */
@Injectable()
export class DatacoolieImportService {
  constructor(
    private readonly repository: DatacoolieImportRepository,
    private readonly workspaces: WorkspacesLookup,
    private readonly workspacesService: WorkspacesService,
    private readonly credentialRefs: CredentialRefsService,
    private readonly datasets: DatasetsService,
    private readonly profiles: ConnectionProfilesService,
    private readonly dataflows: DataflowsService,
    private readonly checker: DataflowChecker,
    private readonly tx: Transactions,
  ) {}

  async import(workspaceRef: string, request: ParsedRequest, actor: AuthUser): Promise<DataCoolieImportPlan> {
    let plan: DataCoolieImportPlan | undefined;
    try {
      await this.tx.run(async (m) => {
        plan = await this.planAndApply(workspaceRef, request, actor, m);
        if (!plan.applied) throw new RollBack();
      });
    } catch (error) {
      if (!(error instanceof RollBack)) throw error;
    }
    const answer = plan!;
    if (!answer.applied) {
      // Rows made by a run that was rolled back (a dry run, or problems) do not exist: none is named.
      for (const item of answer.items) if (item.action === 'create') item.id = null;
      if (answer.workspace.action === 'create') answer.workspace.id = null;
    }
    if (answer.problems.length > 0) {
      throw new AppError(
        'DATACOOLIE_IMPORT_INVALID',
        `The document cannot be imported: ${answer.problems.length} problem(s); nothing was written.`,
        { plan: answer },
      );
    }
    return answer;
  }

  private async planAndApply(
    workspaceRef: string,
    request: ParsedRequest,
    actor: AuthUser,
    m: EntityManager,
  ): Promise<DataCoolieImportPlan> {
    const found = await this.workspaces.findActiveByRef(workspaceRef, m);
    if (!found && UUID.test(workspaceRef)) throw new AppError('WORKSPACE_NOT_FOUND');
    if (found) assertWorkspaceInScope(actor, found.id);
    else if (actor.workspace_ids) throw new AppError('FORBIDDEN', 'An API key cannot create workspaces.');
    const workspace = { id: found?.id ?? null, code: found?.code ?? workspaceRef };
    const problems: DataCoolieImportProblem[] = [];
    const doc = readDocument(request, problems);
    const planner = new ImportPlanner(
      {
        repository: this.repository,
        credentialRefs: this.credentialRefs,
        datasets: this.datasets,
        profiles: this.profiles,
        dataflows: this.dataflows,
        checker: this.checker,
      },
      actor,
      m,
      {
        workspaceId: workspace.id,
        resolveWorkspaceId: () => workspace.id!,
        systems: request.systems,
        prune: request.prune,
      },
    );
    await planner.plan(doc);
    problems.push(...planner.problems);
    // A plan with problems is not written: its items are all there is to report.
    if (problems.length === 0) {
      if (!found) {
        const created = await this.workspacesService.createIn(
          { code: workspaceRef, name: workspaceRef },
          actor,
          m,
        );
        workspace.id = created.id;
      }
      await applySteps(planner.steps, problems, m);
      await applySteps(planner.rechecks, problems, m);
    }
    const items = planner.steps.map((s) => s.item);
    const count = (action: string) => items.filter((i) => i.action === action).length;
    return {
      workspace: { ...workspace, action: found ? 'unchanged' : 'create' },
      dry_run: request.dry_run,
      prune: request.prune,
      applied: problems.length === 0 && !request.dry_run,
      items,
      summary: {
        create: count('create'),
        update: count('update'),
        unchanged: count('unchanged'),
        delete: count('delete'),
      },
      problems,
    };
  }
}
