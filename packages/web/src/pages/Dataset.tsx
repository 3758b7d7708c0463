import { contract, isPiiTag, MAX_IN_LIST, MAX_PAGE_SIZE, suggestPiiTag } from '@aide/schemas';
import type { FieldClassification, SchemaVersion } from '@aide/sdk';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ErrorMessage, Loaded, ScrollBox, when } from '../components/common';
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
  // Counts the classifications made here: the history is read again after each.
  const [tagged, setTagged] = useState(0);
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
            <SchemaTable
              version={v}
              onTagged={() => {
                reloadSchema();
                setTagged((n) => n + 1);
              }}
              onLineage={setField}
              highlighted={column}
            />
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
      <Loaded value={schema}>
        {(v) => (v ? <PiiHistory version={v} key={tagged} /> : <p>No fields yet.</p>)}
      </Loaded>
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

/** The tags of a comma-separated text, trimmed, each once, in order. */
export const tagsOf = (text: string) => [
  ...new Set(
    text
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  ),
];

/**
 * Appends a classification with an optional reason (the history is append-only; an empty tag list
 * records "reviewed, no PII"). The tags in use and the suggested ones are offered as toggles; a tag
 * outside the tag format (ADR 0058) is named with the form it probably meant before anything is sent.
 * Shown to whoever the API lets classify: every signed-in user today.
 */
function TagForm(props: {
  fieldId: string;
  name: string;
  tags: string[];
  onDone: (changed: boolean) => void;
}) {
  const { client } = useSession();
  const id = useId();
  const [text, setText] = useState(props.tags.join(', '));
  const [reason, setReason] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [known] = useAsync(() => client.fieldClassifications.tags(), [client]);
  const tags = tagsOf(text);
  const invalid = tags.filter((t) => !isPiiTag(t));
  const toggle = (tag: string) =>
    setText((tags.includes(tag) ? tags.filter((t) => t !== tag) : [...tags, tag]).join(', '));
  const fix = (tag: string) => {
    const better = suggestPiiTag(tag);
    setText(
      tags.flatMap((t) => (t !== tag ? [t] : better && !tags.includes(better) ? [better] : [])).join(', '),
    );
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (invalid.length > 0) return;
    setBusy(true);
    setError(null);
    try {
      await client.fieldClassifications.create({
        field_id: props.fieldId,
        pii_tags: tags,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      props.onDone(true);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const offered =
    known.state === 'done'
      ? [
          ...known.value.in_use.slice(0, 20).map((t) => ({ tag: t.tag, count: t.field_count })),
          ...known.value.suggested
            .filter((t) => !known.value.in_use.slice(0, 20).some((u) => u.tag === t))
            .map((tag) => ({ tag, count: 0 })),
        ]
      : [];
  return (
    <form className="inline tag-form" onSubmit={(e) => void submit(e)}>
      <label>
        <span className="visually-hidden">PII tags of {props.name} (comma-separated)</span>
        <input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="email, phone"
          autoFocus
          aria-invalid={invalid.length > 0 || undefined}
          aria-describedby={invalid.length > 0 ? `${id}-invalid` : `${id}-format`}
        />
      </label>
      <label>
        <span className="visually-hidden">Reason for the classification of {props.name}</span>
        <input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="reason (optional)" />
      </label>
      <button type="submit" disabled={busy || invalid.length > 0}>
        Save
      </button>
      <button type="button" onClick={() => props.onDone(false)}>
        Cancel
      </button>
      <span id={`${id}-format`} className="muted small">
        Lower-case words joined by _ (e.g. birth_date).
      </span>
      {invalid.length > 0 && (
        <div id={`${id}-invalid`} className="error small" role="alert">
          {invalid.map((t) => (
            <p key={t}>
              “{t}” is not a tag: use lower-case letters and digits, words joined by _ - . or :{' '}
              {suggestPiiTag(t) && (
                <button type="button" className="link" onClick={() => fix(t)}>
                  Use {suggestPiiTag(t)}
                </button>
              )}
            </p>
          ))}
        </div>
      )}
      {offered.length > 0 && (
        <div role="group" aria-label={`Known PII tags for ${props.name}`} className="known-tags">
          {offered.map(({ tag, count }) => (
            <button
              type="button"
              key={tag}
              className="badge toggle"
              aria-pressed={tags.includes(tag)}
              title={count ? `on ${count} field${count === 1 ? '' : 's'}` : 'suggested'}
              onClick={() => toggle(tag)}
            >
              {tag}
              {count ? <span className="muted"> {count}</span> : null}
            </button>
          ))}
        </div>
      )}
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
          <ScrollBox label="PII classification history">
            <table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Column</th>
                  <th scope="col">Tags</th>
                  <th scope="col">Reason</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {items.map((h) => (
                  <tr key={h.id}>
                    <td>{when(h.created_at)}</td>
                    <td>{names.get(h.field_id)}</td>
                    <td>{h.pii_tags.length ? h.pii_tags.join(', ') : '(none)'}</td>
                    <td>{h.reason ?? ''}</td>
                    <td>{h.created_by_email ?? 'unknown'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
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
