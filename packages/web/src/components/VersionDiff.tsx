import type { SchemaVersion, SchemaVersionSummary } from '@aide/sdk';
import { useState } from 'react';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { Loaded, when } from './common';

type Change = 'same' | 'added' | 'removed' | 'changed';

export interface DiffRow {
  name: string;
  from: string | null;
  to: string | null;
  change: Change;
  /** Breaks a reader of the old version: a column gone, its type changed, or made NOT NULL. */
  breaking: boolean;
}

const describe = (c: SchemaVersion['columns'][number]) =>
  `${c.rendered_type ?? c.native_type ?? '?'}${c.nullable ? '' : ' not null'}`;

/** Side-by-side rows of two versions, matched by column name, in the newer version's order. */
export function diffRows(from: SchemaVersion, to: SchemaVersion): DiffRow[] {
  const before = new Map(from.columns.map((c) => [c.name, c]));
  const after = new Map(to.columns.map((c) => [c.name, c]));
  const rows: DiffRow[] = [];
  for (const c of to.columns) {
    const old = before.get(c.name);
    if (!old) rows.push({ name: c.name, from: null, to: describe(c), change: 'added', breaking: false });
    else {
      const typeChanged = (old.rendered_type ?? old.native_type) !== (c.rendered_type ?? c.native_type);
      const tightened = old.nullable && !c.nullable;
      const change: Change = typeChanged || old.nullable !== c.nullable ? 'changed' : 'same';
      rows.push({
        name: c.name,
        from: describe(old),
        to: describe(c),
        change,
        breaking: typeChanged || tightened,
      });
    }
  }
  for (const c of from.columns) {
    if (!after.has(c.name))
      rows.push({ name: c.name, from: describe(c), to: null, change: 'removed', breaking: true });
  }
  return rows;
}

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
      from === undefined || to === undefined
        ? null
        : Promise.all([
            client.datasets.schemaVersion(datasetId, from),
            client.datasets.schemaVersion(datasetId, to),
          ]),
    [datasetId, from, to, client],
  );
  if (versions.length === 0) return <p>No versions.</p>;
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
          const rows = diffRows(p[0], p[1]);
          const breaking = rows.filter((r) => r.breaking).length;
          return (
            <>
              <p aria-live="polite">
                {rows.every((r) => r.change === 'same')
                  ? 'No column changes.'
                  : `${rows.filter((r) => r.change !== 'same').length} column changes, ${breaking} breaking.`}
              </p>
              <div className="scroll">
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
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          );
        }}
      </Loaded>
    </>
  );
}
