// The import plan (ADR 0050) as a person reads it: one line per object, each update's changed fields
// below it, a summary, and the problems that kept the plan from being applied.
import type { DataCoolieImportPlan } from '@aide/schemas';

/** Longest value shown for a changed field; longer JSON is cut with an ellipsis. */
const MAX_VALUE = 80;

function valueText(value: unknown): string {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function outcome(plan: DataCoolieImportPlan): string {
  if (plan.problems.length > 0) return `not applied: ${plan.problems.length} problem(s), nothing written`;
  if (plan.dry_run) return 'dry run: nothing written';
  const { create, update, delete: deleted } = plan.summary;
  return create + update + deleted === 0 ? 'nothing to do' : 'applied';
}

export function planText(plan: DataCoolieImportPlan): string {
  const lines = [`workspace ${plan.workspace.code} (${plan.workspace.action})`];
  const kindWidth = Math.max(0, ...plan.items.map((item) => item.kind.length));
  for (const item of plan.items) {
    lines.push(`${item.action.padEnd(10)} ${item.kind.padEnd(kindWidth)}  ${item.name}`);
    for (const change of item.changes) {
      lines.push(`    ${change.field}: ${valueText(change.before)} → ${valueText(change.after)}`);
    }
  }
  const { summary } = plan;
  lines.push(
    `${summary.create} to create, ${summary.update} to update, ${summary.unchanged} unchanged, ` +
      `${summary.delete} to delete${plan.prune ? '' : ' (no --prune)'} — ${outcome(plan)}`,
  );
  if (plan.problems.length > 0) {
    lines.push(`problems (${plan.problems.length}):`);
    for (const problem of plan.problems) {
      lines.push(
        `  ${problem.kind} ${problem.name}: ${problem.reason}${problem.code === null ? '' : ` [${problem.code}]`}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
