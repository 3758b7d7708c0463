import { COLUMN_CHANGE_CATEGORIES } from '@aide/schemas';
import type { SchemaVersion, SchemaVersionDiff, SchemaVersionSummary } from '@aide/sdk';
import { useState } from 'react';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { Loaded, ScrollBox, when } from './common';

type Change = 'same' | 'added' | 'removed' | 'changed';
type ServerChange = SchemaVersionDiff['changes'][number];

export interface DiffRow {
  name: string;
  from: string | null;
  to: string | null;
  change: Change;
  /** The registry classed one of this column's changes breaking (the UI has no rules of its own). */
  breaking: boolean;
  /** What changed besides the type shown, as the registry reports it (e.g. a comment, before → after). */
  details: string[];
}

const shown = (v: unknown): string =>
  v === null || v === undefined ? '(none)' : typeof v === 'string' ? `“${v}”` : JSON.stringify(v);

/** A change's own words for a column row: the category, and for a comment or default its old and new value. */
export function changeDetail(c: ServerChange): string {
  const what = c.category.replace(/_changed$/, '').replaceAll('_', ' ');
  if (c.category === 'comment_changed' || c.category === 'default_changed')
    return `${what}: ${shown(c.before)} → ${shown(c.after)}`;
  return c.category.endsWith('_changed') ? `${what} changed` : what;
}

/** "1 column change", "3 column changes". */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const describe = (c: SchemaVersion['columns'][number]) =>
  `${c.rendered_type ?? c.native_type ?? '?'}${c.nullable ? '' : ' not null'}`;

/**
 * Side-by-side rows of two versions, matched by column name, in the newer version's order; what
 * changed and whether it breaks is the diff route's classification (`diff.changes`), shown as it is.
 */
export function diffRows(from: SchemaVersion, to: SchemaVersion, diff: SchemaVersionDiff): DiffRow[] {
  const byColumn = new Map<string, ServerChange[]>();
  for (const c of diff.changes) {
    if (c.name === null || !COLUMN_CHANGE_CATEGORIES.has(c.category)) continue;
    byColumn.set(c.name, [...(byColumn.get(c.name) ?? []), c]);
  }
  const row = (name: string, before: string | null, after: string | null): DiffRow => {
    const changes = byColumn.get(name) ?? [];
    const categories = new Set(changes.map((c) => c.category));
    const change: Change = categories.has('column_added')
      ? 'added'
      : categories.has('column_removed')
        ? 'removed'
        : changes.length > 0
          ? 'changed'
          : 'same';
    return {
      name,
      from: before,
      to: after,
      change,
      breaking: changes.some((c) => c.compatibility === 'breaking'),
      details: change === 'changed' ? changes.map((c) => `${changeDetail(c)} (${c.compatibility})`) : [],
    };
  };
  const before = new Map(from.columns.map((c) => [c.name, c]));
  const after = new Set(to.columns.map((c) => c.name));
  const rows = to.columns.map((c) => {
    const old = before.get(c.name);
    return row(c.name, old ? describe(old) : null, describe(c));
  });
  for (const c of from.columns) if (!after.has(c.name)) rows.push(row(c.name, describe(c), null));
  return rows;
}

/** The registry's changes to the table itself, its constraints and indexes (not shown by a column row). */
export const tableChanges = (diff: SchemaVersionDiff): ServerChange[] =>
  diff.changes.filter((c) => c.name === null || !COLUMN_CHANGE_CATEGORIES.has(c.category));

export function VersionDiff({
  datasetId,
  versions,
}: {
  datasetId: string;
  versions: SchemaVersionSummary[];
}) {
  const { client } = useSession();
  const newest = versions[0]?.version_num;
  const [from, setFrom] = useState(versions[1]?.version_num ?? newest);
  const [to, setTo] = useState(newest);
  const [pair] = useAsync(
    async () =>
      from === undefined || to === undefined || versions.length < 2
        ? null
        : Promise.all([
            client.datasets.schemaVersion(datasetId, from),
            client.datasets.schemaVersion(datasetId, to),
            client.datasets.diffSchemaVersions(datasetId, from, to),
          ]),
    [datasetId, from, to, client],
  );
  if (versions.length === 0) return <p>No versions.</p>;
  if (versions.length === 1)
    return <p>Only one version so far (v{versions[0]?.version_num}): nothing to compare yet.</p>;
  const picker = (label: string, value: number | undefined, set: (n: number) => void) => (
    <label>
      {label}{' '}
      <select value={value} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((v) => (
          <option key={v.version_num} value={v.version_num}>
            v{v.version_num} ({when(v.created_at)}, {v.column_count} columns)
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <div className="toolbar">
        {picker('Compare', from, setFrom)}
        {picker('with', to, setTo)}
      </div>
      <Loaded value={pair}>
        {(p) => {
          if (!p) return null;
          const rows = diffRows(p[0], p[1], p[2]);
          const breaking = rows.filter((r) => r.breaking).length;
          const changed = rows.filter((r) => r.change !== 'same').length;
          const others = tableChanges(p[2]);
          return (
            <>
              <p aria-live="polite">
                {rows.every((r) => r.change === 'same')
                  ? 'No column changes.'
                  : `${plural(changed, 'column change')}, ${breaking} breaking.`}
                {p[2].compatibility && (
                  <>
                    {' '}
                    Overall:{' '}
                    <strong className={`compatibility-${p[2].compatibility}`}>{p[2].compatibility}</strong>.
                  </>
                )}
              </p>
              {others.length > 0 && (
                <ul className="table-changes">
                  {others.map((c, i) => (
                    <li key={i}>
                      {c.category.replaceAll('_', ' ')}
                      {c.name === null ? '' : ` ${c.name}`}: {c.compatibility} ({c.reason})
                    </li>
                  ))}
                </ul>
              )}
              <ScrollBox label="Column changes">
                <table className="diff">
                  <thead>
                    <tr>
                      <th scope="col">Column</th>
                      <th scope="col">v{p[0].version_num}</th>
                      <th scope="col">v{p[1].version_num}</th>
                      <th scope="col">Change</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.name} className={`diff-${r.change}`}>
                        <th scope="row">{r.name}</th>
                        <td>{r.from ?? '—'}</td>
                        <td>{r.to ?? '—'}</td>
                        <td>
                          {r.change === 'same' ? '' : r.change}
                          {r.breaking && <strong className="breaking"> breaking</strong>}
                          {r.details.length > 0 && (
                            <ul className="change-details">
                              {r.details.map((d) => (
                                <li key={d}>{d}</li>
                              ))}
                            </ul>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollBox>
            </>
          );
        }}
      </Loaded>
    </>
  );
}
