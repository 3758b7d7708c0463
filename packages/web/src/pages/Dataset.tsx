import { contract, MAX_IN_LIST, MAX_PAGE_SIZE } from '@aide/schemas';
import type { FieldClassification, SchemaVersion } from '@aide/sdk';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorMessage, Loaded, when } from '../components/common';
import { CheckCompatibility, DatasetLevel, VersionHistory } from '../components/Compatibility';
import { DatasetHeader } from '../components/DatasetHeader';
import { FieldLineage, Lineage } from '../components/Lineage';
import { isNotFound, NotFound, PageHeading } from '../components/Page';
import { TranslateVersion } from '../components/Translate';
import { CrawlRunTable } from './CrawlRuns';
import { VersionDiff } from '../components/VersionDiff';
import { useCan, useSession } from '../session';
import { useAsync } from '../use-async';

/**
 * A dataset: its compatibility level, current schema, version history (forced publishes with their
 * reasons) with a side-by-side diff, a compatibility check and translation of a version, PII, crawl
 * runs, lineage.
 */
export function DatasetPage({ id }: { id: string }) {
  const { client } = useSession();
  const [dataset] = useAsync(() => client.datasets.get(id), [id, client]);
  const [versions, reloadVersions] = useAsync(() => client.datasets.schemaVersions(id), [id, client]);
  const current = versions.state === 'done' ? versions.value[0] : undefined;
  const [schema, reloadSchema] = useAsync(
    async () => (current ? client.datasets.schemaVersion(id, current.version_num) : null),
    [id, current?.version_num, client],
  );
  // Column lineage on demand: a column's Lineage button, or `?field=` when arriving from a field node.
  const [field, setField] = useState<string | null>(() =>
    new URLSearchParams(window.location.search).get('field'),
  );
  // A column search hit (`?column=<field id>`): its row highlighted and scrolled into view.
  const [column] = useState(() => new URLSearchParams(window.location.search).get('column'));
  const columns = schema.state === 'done' && schema.value ? schema.value.columns : [];
  const fieldName = columns.find((c) => c.field_id === field)?.name ?? 'the field';
  // The versions the check and the translation work on: the current one until another is picked.
  const [checkNum, setCheckNum] = useState<number | undefined>();
  const [translateNum, setTranslateNum] = useState<number | undefined>();
  const pick = (set: (n: number) => void, section: string) => (num: number) => {
    set(num);
    document.getElementById(section)?.scrollIntoView({ block: 'start' });
  };
  // An unknown dataset is one not-found page, not the same 404 in every section.
  if (dataset.state === 'error' && isNotFound(dataset.error)) return <NotFound what="dataset" id={id} />;
  return (
    <section>
      <Loaded value={dataset}>
        {(d) => (
          <>
            <PageHeading title={d.object_name}>
              <span className="entity-name">{d.object_name}</span>
            </PageHeading>
            <DatasetHeader dataset={d} />
          </>
        )}
      </Loaded>
      <DatasetLevel datasetId={id} />
      <h2>Current schema</h2>
      <Loaded value={schema}>
        {(v) =>
          v ? (
            <SchemaTable version={v} onTagged={reloadSchema} onLineage={setField} highlighted={column} />
          ) : (
            <p>No published version yet.</p>
          )
        }
      </Loaded>
      <h2>Version history</h2>
      <Loaded value={versions}>
        {(list) => (
          <>
            <VersionHistory
              versions={list}
              onCheck={pick(setCheckNum, 'check-compatibility')}
              onTranslate={pick(setTranslateNum, 'translate')}
            />
            <VersionDiff datasetId={id} versions={list} />
          </>
        )}
      </Loaded>
      <h2 id="check-compatibility">Check compatibility</h2>
      <p className="muted small">
        Would a version be accepted now? Pick one (and edit it if you like) to see what the dataset&apos;s
        level makes of it, as a publish would.
      </p>
      <Loaded value={versions}>
        {(list) => (
          <CheckCompatibility
            datasetId={id}
            versions={list}
            versionNum={checkNum ?? current?.version_num}
            onVersion={setCheckNum}
            onPublished={reloadVersions}
          />
        )}
      </Loaded>
      <h2 id="translate">Translate to another flavor</h2>
      <Loaded value={versions}>
        {(list) => (
          <TranslateVersion
            datasetId={id}
            objectName={dataset.state === 'done' ? dataset.value.object_name : 'dataset'}
            versions={list}
            versionNum={translateNum ?? current?.version_num}
            onVersion={setTranslateNum}
          />
        )}
      </Loaded>
      <h2>PII classification history</h2>
      <Loaded value={schema}>{(v) => (v ? <PiiHistory version={v} /> : <p>No fields yet.</p>)}</Loaded>
      <h2>Crawl runs of its system</h2>
      <Loaded value={dataset}>{(d) => <SystemCrawlRuns systemId={d.system_id} />}</Loaded>
      <h2>Lineage</h2>
      <Lineage datasetId={id} />
      {field && (
        <section aria-labelledby="field-lineage">
          <h3 id="field-lineage">Column lineage of {fieldName}</h3>
          <button type="button" onClick={() => setField(null)}>
            Hide column lineage
          </button>
          <FieldLineage fieldId={field} fieldName={fieldName} key={field} />
        </section>
      )}
    </section>
  );
}

function SchemaTable(props: {
  version: SchemaVersion;
  onTagged: () => void;
  onLineage: (fieldId: string) => void;
  highlighted?: string | null;
}) {
  const { version, onTagged, highlighted } = props;
  const highlightedRow = useRef<HTMLTableRowElement>(null);
  // Braces: a newer Chromium's scrollIntoView returns a promise, which must not become the cleanup.
  useEffect(() => {
    void highlightedRow.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  const mayTag = useCan()(contract.fieldClassifications.create);
  const pk = new Set(
    ((version as unknown as { primary_key?: { columns: string[] } | null }).primary_key?.columns ?? []).map(
      String,
    ),
  );
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <>
      <p className="muted">
        Version {version.version_num}, published {when(version.created_at)}
      </p>
      <div className="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              <th scope="col">Nullable</th>
              <th scope="col">Default</th>
              <th scope="col">Keys</th>
              <th scope="col">Comment</th>
              <th scope="col">PII tags</th>
              <th scope="col">
                <span className="visually-hidden">Lineage</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {version.columns.map((c) => (
              <tr
                key={c.field_id}
                {...(c.field_id === highlighted
                  ? { ref: highlightedRow, className: 'highlighted', 'aria-current': true as const }
                  : {})}
              >
                <th scope="row">{c.name}</th>
                <td>
                  <code>{c.rendered_type ?? c.native_type ?? '—'}</code>
                </td>
                <td>{c.nullable ? 'yes' : 'no'}</td>
                <td>{c.default ? <code>{c.default}</code> : ''}</td>
                <td>{pk.has(c.name) ? 'PK' : ''}</td>
                <td>{c.comment ?? ''}</td>
                <td>
                  {editing === c.field_id ? (
                    <TagForm
                      fieldId={c.field_id}
                      name={c.name}
                      tags={c.pii_tags ?? []}
                      onDone={(changed) => {
                        setEditing(null);
                        if (changed) onTagged();
                      }}
                    />
                  ) : (
                    <>
                      {(c.pii_tags ?? []).map((t) => (
                        <span key={t} className="badge pii">
                          {t}
                        </span>
                      ))}{' '}
                      {mayTag && (
                        <button type="button" className="link" onClick={() => setEditing(c.field_id)}>
                          Tag<span className="visually-hidden"> {c.name}</span>
                        </button>
                      )}
                    </>
                  )}
                </td>
                <td>
                  <button type="button" className="link" onClick={() => props.onLineage(c.field_id)}>
                    Lineage<span className="visually-hidden"> of {c.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * Appends a classification with an optional reason (the history is append-only; an empty tag list
 * records "reviewed, no PII"). Shown to whoever the API lets classify: every signed-in user today.
 */
function TagForm(props: {
  fieldId: string;
  name: string;
  tags: string[];
  onDone: (changed: boolean) => void;
}) {
  const { client } = useSession();
  const [text, setText] = useState(props.tags.join(', '));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const pii_tags = text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    setBusy(true);
    setError(null);
    try {
      await client.fieldClassifications.create({
        field_id: props.fieldId,
        pii_tags,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      props.onDone(true);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <form className="inline" onSubmit={(e) => void submit(e)}>
      <label>
        <span className="visually-hidden">PII tags of {props.name} (comma-separated)</span>
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder="email, phone" autoFocus />
      </label>
      <label>
        <span className="visually-hidden">Reason for the classification of {props.name}</span>
        <input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="reason (optional)" />
      </label>
      <button type="submit" disabled={busy}>
        Save
      </button>
      <button type="button" onClick={() => props.onDone(false)}>
        Cancel
      </button>
      {error !== null && <ErrorMessage error={error} />}
    </form>
  );
}

/** `items` in runs of at most `size` (the list contract's `__in` takes 100 ids). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(items.length / size) }, (_, i) =>
    items.slice(i * size, (i + 1) * size),
  );
}

/** Newest first, then by id: the order of the merged histories of several `field_id__in` lists. */
export const newestFirst = (a: { created_at: string; id: string }, b: { created_at: string; id: string }) =>
  b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id);

/**
 * The PII history of every field of the version: the field ids by 100 (`field_id__in`), each list
 * read whole with the SDK's `for await` paging, merged newest first.
 */
function PiiHistory({ version }: { version: SchemaVersion }) {
  const { client } = useSession();
  const names = new Map(version.columns.map((c) => [c.field_id, c.name]));
  const ids = [...names.keys()];
  const [history] = useAsync(async () => {
    const lists = await Promise.all(
      chunks(ids, MAX_IN_LIST).map(async (part) => {
        const entries: FieldClassification[] = [];
        for await (const entry of client.fieldClassifications.iterate({
          field_id__in: part.join(','),
          sort: '-created_at',
          size: MAX_PAGE_SIZE,
        }))
          entries.push(entry);
        return entries;
      }),
    );
    return lists.flat().sort(newestFirst);
  }, [ids.join(','), client]);
  return (
    <Loaded value={history}>
      {(items) =>
        items.length === 0 ? (
          <p>No field has been classified.</p>
        ) : (
          <div className="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Column</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {items.map((h) => (
                  <tr key={h.id}>
                    <td>{when(h.created_at)}</td>
                    <td>{names.get(h.field_id)}</td>
                    <td>{h.pii_tags.length ? h.pii_tags.join(', ') : '(none)'}</td>
                    <td>{h.reason ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </Loaded>
  );
}

export function SystemCrawlRuns({ systemId }: { systemId?: string }) {
  const { client } = useSession();
  const [runs] = useAsync(
    () =>
      client.crawlRuns.list({ ...(systemId ? { system_id: systemId } : {}), sort: '-started_at', size: 20 }),
    [systemId, client],
  );
  return (
    <Loaded value={runs}>
      {(p) => (p.items.length === 0 ? <p>No crawl runs.</p> : <CrawlRunTable runs={p.items} />)}
    </Loaded>
  );
}
