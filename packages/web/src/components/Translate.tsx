import {
  MAX_PAGE_SIZE,
  type SystemFlavor,
  TRANSLATION_FORMATS,
  type TranslatedColumn,
  type Translation,
  type TranslationFormat,
  type TranslationOmission,
} from '@aide/schemas';
import { AideApiError, type SchemaVersionSummary } from '@aide/sdk';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useSession } from '../session';
import { useAsync } from '../use-async';
import { ErrorMessage, Loaded, ScrollBox } from './common';

// "Translate to…" (issue 25 §2): a stored version rendered into another flavor by the API through the
// cast rules, with what the translation loses shown before the output, never hidden under it.

const FORMAT_LABELS: Record<TranslationFormat, string> = {
  ddl: 'DDL',
  avro: 'Avro schema',
  json_schema: 'JSON Schema',
  protobuf: 'Protobuf message',
  parquet: 'Parquet schema',
};

const EXTENSIONS: Record<TranslationFormat, string> = {
  ddl: 'sql',
  avro: 'avsc',
  json_schema: 'schema.json',
  protobuf: 'proto',
  parquet: 'parquet.txt',
};

/** The file name of a download: the dataset, the version, the target flavor and the format's extension. */
export function downloadName(
  objectName: string,
  t: Pick<Translation, 'version_num' | 'target_flavor' | 'format'>,
) {
  const base = objectName.replace(/[^\w.-]+/g, '_') || 'dataset';
  return `${base}.v${t.version_num}.${t.target_flavor}.${EXTENSIONS[t.format]}`;
}

/** The columns whose cast loses something (lossy, or not mapped at all). */
export const lossyColumns = (columns: readonly TranslatedColumn[]) =>
  columns.filter((c) => c.fidelity === 'lossy' || c.fidelity === null || c.loss.length > 0);

/**
 * What a TRANSLATION_LOSSY error's `details` list, in the loss report's shapes: `lossy_columns` (the
 * translation model's columns: `name`, `source_type`, the cast `type` with its `rendered` text,
 * `fidelity`, `loss`; a wire `TranslatedColumn` is read too) and `omissions`. What is not an object
 * is skipped.
 */
export function lossOfError(error: AideApiError): {
  columns: TranslatedColumn[];
  omissions: TranslationOmission[];
} {
  const details = error.details ?? {};
  const list = (key: string) => (Array.isArray(details[key]) ? (details[key] as unknown[]) : []);
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const targetOf = (c: Record<string, unknown>) => {
    if (typeof c['target_type'] === 'string') return c['target_type'];
    const type = c['type'];
    return isObject(type) ? (text(type['rendered']) ?? text(type['code'])) : null;
  };
  return {
    columns: [...list('lossy_columns'), ...list('columns')].filter(isObject).map((c) => ({
      path: String(c['path'] ?? c['name'] ?? ''),
      source_type: text(c['source_type']),
      target_type: targetOf(c),
      fidelity: (c['fidelity'] as TranslatedColumn['fidelity']) ?? null,
      loss: Array.isArray(c['loss']) ? c['loss'].map(String) : [],
    })),
    omissions: list('omissions')
      .filter(isObject)
      .map((o) => ({
        kind: o['kind'] as TranslationOmission['kind'],
        path: text(o['path']),
        reason: String(o['reason'] ?? ''),
      })),
  };
}

/** "2 columns lose information, 1 thing is left out." */
export function lossSentence(columns: number, omissions: number): string {
  const cast = columns === 1 ? '1 column loses information' : `${columns} columns lose information`;
  const left =
    omissions === 0 ? '' : omissions === 1 ? ', 1 thing is left out' : `, ${omissions} things are left out`;
  return `${cast}${left}.`;
}

/** Pick a version, a target flavor, a format and strictness; show the loss report, then the output. */
export function TranslateVersion(props: {
  datasetId: string;
  objectName: string;
  versions: readonly SchemaVersionSummary[];
  versionNum: number | undefined;
  onVersion: (num: number) => void;
}) {
  const { client } = useSession();
  const id = useId();
  const [flavors] = useAsync(async () => {
    const all: SystemFlavor[] = [];
    for await (const f of client.systemFlavors.iterate({ sort: 'code', size: MAX_PAGE_SIZE })) all.push(f);
    return all;
  }, [client]);
  const [flavor, setFlavor] = useState('');
  const [format, setFormat] = useState<TranslationFormat | ''>('');
  const [strict, setStrict] = useState(false);
  const [result, setResult] = useState<{ translation?: Translation; error?: unknown; busy: boolean }>({
    busy: false,
  });
  if (props.versions.length === 0) return <p>No version to translate.</p>;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!flavor || props.versionNum === undefined) return;
    setResult({ busy: true });
    try {
      const translation = await client.datasets.translateSchemaVersion(props.datasetId, props.versionNum, {
        flavor,
        ...(format ? { format } : {}),
        ...(strict ? { strict: true } : {}),
      });
      setResult({ translation, busy: false });
    } catch (error) {
      setResult({ error, busy: false });
    }
  };
  return (
    <form className="translate" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <h3 id={`${id}-title`} className="visually-hidden">
        Translate a version to another flavor
      </h3>
      <div className="toolbar">
        <label>
          Version{' '}
          <select value={props.versionNum} onChange={(e) => props.onVersion(Number(e.target.value))}>
            {props.versions.map((v) => (
              <option key={v.version_num} value={v.version_num}>
                v{v.version_num}
              </option>
            ))}
          </select>
        </label>
        <Loaded value={flavors}>
          {(list) => (
            <label>
              Target flavor{' '}
              <select value={flavor} onChange={(e) => setFlavor(e.target.value)} required>
                <option value="">Choose…</option>
                {list.map((f) => (
                  <option key={f.id} value={f.code}>
                    {f.code}
                  </option>
                ))}
              </select>
            </label>
          )}
        </Loaded>
        <label>
          Format{' '}
          <select value={format} onChange={(e) => setFormat(e.target.value as TranslationFormat | '')}>
            <option value="">the flavor&apos;s own</option>
            {TRANSLATION_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={strict} onChange={(e) => setStrict(e.target.checked)} /> Strict
          (fail rather than lose anything)
        </label>
        <button type="submit" disabled={result.busy || !flavor}>
          Translate
        </button>
      </div>
      <div aria-live="polite">
        {result.busy && <p>Translating…</p>}
        {result.error !== undefined && <TranslateError error={result.error} onFormat={(f) => setFormat(f)} />}
      </div>
      {result.translation && (
        <TranslationView translation={result.translation} objectName={props.objectName} />
      )}
    </form>
  );
}

/** An error of the translate route; a refused strict translation lists what it would have lost. */
function TranslateError({ error, onFormat }: { error: unknown; onFormat: (f: TranslationFormat) => void }) {
  if (error instanceof AideApiError && error.errorCode === 'TRANSLATION_LOSSY') {
    const loss = lossOfError(error);
    return (
      <div role="alert" className="error envelope lossy-refused">
        <p>
          <strong>Not translated: the translation would lose information</strong> (strict mode,{' '}
          <code>{error.errorCode}</code>). Untick Strict to get it with this loss report.
        </p>
        <LossReport columns={loss.columns} omissions={loss.omissions} />
        {error.requestId && <p className="muted small">Request {error.requestId}</p>}
      </div>
    );
  }
  if (error instanceof AideApiError && error.errorCode === 'TRANSLATION_FORMAT_UNSUPPORTED') {
    const formats = (Array.isArray(error.details?.['formats']) ? error.details['formats'] : []).filter(
      (f): f is TranslationFormat => TRANSLATION_FORMATS.includes(f as TranslationFormat),
    );
    return (
      <div>
        <ErrorMessage error={error} />
        {formats.length > 0 && (
          <p>
            This flavor offers:{' '}
            {formats.map((f) => (
              <button key={f} type="button" className="link format-choice" onClick={() => onFormat(f)}>
                {FORMAT_LABELS[f]}
              </button>
            ))}
          </p>
        )}
      </div>
    );
  }
  return <ErrorMessage error={error} />;
}

/** What is lost: the lossy or unmapped columns, with what each cast loses, and what the output omits. */
export function LossReport(props: {
  columns: readonly TranslatedColumn[];
  omissions: readonly TranslationOmission[];
}) {
  const lossy = lossyColumns(props.columns);
  return (
    <div className="loss-report">
      {lossy.length > 0 && (
        <ScrollBox label="Lossy columns">
          <table>
            <caption>Columns that lose information</caption>
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Fidelity</th>
                <th scope="col">What is lost</th>
              </tr>
            </thead>
            <tbody>
              {lossy.map((c) => (
                <tr key={c.path}>
                  <th scope="row">{c.path}</th>
                  <td>
                    <code>{c.source_type ?? '—'}</code>
                  </td>
                  <td>
                    <code>{c.target_type ?? '(not mapped)'}</code>
                  </td>
                  <td>
                    <span className={`badge fidelity-${c.fidelity ?? 'none'}`}>{c.fidelity ?? 'none'}</span>
                  </td>
                  <td>
                    {c.loss.length > 0 ? c.loss.join('; ') : c.target_type ? '' : 'no cast into the flavor'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {props.omissions.length > 0 && (
        <>
          <p>Left out of the output:</p>
          <ul className="omissions">
            {props.omissions.map((o, i) => (
              <li key={i}>
                <span className="badge">{o.kind.replaceAll('_', ' ')}</span>
                {o.path && <code>{o.path}</code>}: {o.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** The translation: the loss report first, then the output with copy and download, then every column. */
function TranslationView({ translation: t, objectName }: { translation: Translation; objectName: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const url = useMemo(() => URL.createObjectURL(new Blob([t.content], { type: t.media_type })), [t]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const lossy = lossyColumns(t.columns);
  const copy = () =>
    navigator.clipboard.writeText(t.content).then(
      () => setCopied('Copied.'),
      () => setCopied('Copy failed: select the text instead.'),
    );
  return (
    <section className="translation" aria-label={`Translation to ${t.target_flavor}`}>
      <h3>
        v{t.version_num} in {t.target_flavor} ({FORMAT_LABELS[t.format]})
      </h3>
      <div className={`loss-summary ${t.lossy ? 'lossy' : 'exact'}`} role="status">
        {t.lossy ? (
          <p>
            <strong>Lossy:</strong> {lossSentence(lossy.length, t.omissions.length)}
          </p>
        ) : (
          <p>
            <strong>Nothing lost:</strong> every column casts exactly or widens, nothing is left out.
          </p>
        )}
        {t.lossy && <LossReport columns={t.columns} omissions={t.omissions} />}
      </div>
      <div className="buttons">
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <a className="button" href={url} download={downloadName(objectName, t)}>
          Download
        </a>
        <span className="small muted" aria-live="polite">
          {copied ?? t.media_type}
        </span>
      </div>
      <pre className="schema translation-content" tabIndex={0} aria-label={`Output in ${t.target_flavor}`}>
        {t.content}
      </pre>
      <details>
        <summary>All {t.columns.length} columns and their casts</summary>
        <ScrollBox label="Columns and their casts">
          <table>
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Fidelity</th>
              </tr>
            </thead>
            <tbody>
              {t.columns.map((c) => (
                <tr key={c.path}>
                  <th scope="row">{c.path}</th>
                  <td>
                    <code>{c.source_type ?? '—'}</code>
                  </td>
                  <td>
                    <code>{c.target_type ?? '(not mapped)'}</code>
                  </td>
                  <td>
                    <span className={`badge fidelity-${c.fidelity ?? 'none'}`}>{c.fidelity ?? 'none'}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      </details>
    </section>
  );
}
