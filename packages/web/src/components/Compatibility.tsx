import {
  COMPATIBILITY_LEVELS,
  COMPATIBILITY_RULES,
  type CompatibilityCheck,
  CompatibilityCheckSchema,
  type CompatibilityLevel,
  CompatibilityLevelSchema,
  type CompatibilityOverride,
  type CompatibilityViolation,
  contract,
  type DatasetCompatibility,
  type PublishResult,
  type PublishSchemaVersion,
  type SchemaVersion,
  type TypeInstanceTree,
  type TypeSpec,
} from '@aide/schemas';
import { AideApiError, type SchemaVersionSummary } from '@aide/sdk';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useCan, useSession } from '../session';
import { useAsync } from '../use-async';
import { ErrorMessage, Loaded, ScrollBox, when } from './common';

// Compatibility levels in the UI (ADR 0048): the level a dataset's next publish must pass and where it
// comes from, the forced publishes of its history, and a check of a would-be version. Every verdict is
// the API's; the UI only shows it, with the contract's words for what a level or a rule means.

/**
 * What each level means, cut out of the level's description in the contract (one source of truth):
 * `BACKWARD — …; FORWARD — …; FULL — …; _TRANSITIVE — …; NONE — …`; a _TRANSITIVE level gets its base
 * level's meaning and the transitive part.
 */
export function levelMeanings(description = CompatibilityLevelSchema.description ?? '') {
  const parts = new Map<string, string>();
  const body = description.slice(description.indexOf(':') + 1);
  for (const part of body.split(';')) {
    const [name, ...text] = part.split('—');
    if (name && text.length > 0) parts.set(name.trim(), text.join('—').trim());
  }
  const meaning = (level: CompatibilityLevel): string => {
    if (level.endsWith('_TRANSITIVE')) {
      const base = parts.get(level.slice(0, -'_TRANSITIVE'.length));
      const transitive = parts.get('_TRANSITIVE');
      return [base, transitive].filter(Boolean).join(', ') || level;
    }
    const text = parts.get(level);
    // FULL is "both": both directions spelled out.
    if (text === 'both' && parts.has('BACKWARD') && parts.has('FORWARD'))
      return `both: ${parts.get('BACKWARD')}, and ${parts.get('FORWARD')}`;
    return text ?? level;
  };
  return Object.fromEntries(COMPATIBILITY_LEVELS.map((l) => [l, meaning(l)])) as Record<
    CompatibilityLevel,
    string
  >;
}

export const LEVEL_MEANINGS = levelMeanings();

/** What a rule id covers, from the contract's rule table. */
export const ruleMeaning = (rule: string): string =>
  (COMPATIBILITY_RULES as Record<string, { description: string } | undefined>)[rule]?.description ?? '';

const SOURCE_TEXT: Record<DatasetCompatibility['source'], string> = {
  dataset: 'set on this dataset',
  system: "its system's default",
  registry: "the registry's default",
};

/** A level with its meaning as a tooltip. */
export function LevelName({ level }: { level: CompatibilityLevel }) {
  return (
    <abbr className="level" title={LEVEL_MEANINGS[level]}>
      {level}
    </abbr>
  );
}

/** The seven levels and what each asks of a new version. */
export function LevelGlossary() {
  return (
    <details className="glossary">
      <summary>What the levels mean</summary>
      <dl>
        {COMPATIBILITY_LEVELS.map((level) => (
          <div key={level}>
            <dt>
              <code>{level}</code>
            </dt>
            <dd>{LEVEL_MEANINGS[level]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/**
 * The level the dataset's next publish must pass, where it comes from, and the chain it was taken from;
 * superusers (whom the API lets set it) may set the dataset's own level or clear it.
 */
export function DatasetLevel({ datasetId }: { datasetId: string }) {
  const { client } = useSession();
  const maySet = useCan()(contract.compatibility.setDataset);
  const [loaded] = useAsync(
    () => client.compatibility.getDatasetCompatibility(datasetId),
    [datasetId, client],
  );
  const [saved, setSaved] = useState<DatasetCompatibility | null>(null);
  return (
    <Loaded value={loaded}>
      {(fetched) => {
        const c = saved ?? fetched;
        return (
          <div className="compatibility-level" data-testid="compatibility-level">
            <p>
              Compatibility level: <LevelName level={c.effective_level} />{' '}
              <span className="muted">({SOURCE_TEXT[c.source]})</span>
            </p>
            <p className="small muted">{LEVEL_MEANINGS[c.effective_level]}.</p>
            <p className="small muted">
              Dataset: {c.level ?? 'inherited'} · System default: {c.system_level ?? 'inherited'} · Registry
              default: {c.registry_level}
            </p>
            {maySet && <SetLevel current={c} onSaved={setSaved} />}
            <LevelGlossary />
          </div>
        );
      }}
    </Loaded>
  );
}

/** `PUT /datasets/{id}/compatibility`: the dataset's own level, or none (inherit). */
function SetLevel({
  current,
  onSaved,
}: {
  current: DatasetCompatibility;
  onSaved: (c: DatasetCompatibility) => void;
}) {
  const { client } = useSession();
  const [choice, setChoice] = useState<CompatibilityLevel | ''>(current.level ?? '');
  const [state, setState] = useState<{ busy: boolean; error?: unknown }>({ busy: false });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState({ busy: true });
    try {
      onSaved(await client.compatibility.setDatasetCompatibility(current.dataset_id, choice || null));
      setState({ busy: false });
    } catch (error) {
      setState({ busy: false, error });
    }
  };
  return (
    <form className="inline" onSubmit={(e) => void submit(e)}>
      <label>
        Dataset&apos;s own level{' '}
        <select value={choice} onChange={(e) => setChoice(e.target.value as CompatibilityLevel | '')}>
          <option value="">inherit (system, then registry)</option>
          {COMPATIBILITY_LEVELS.map((l) => (
            <option key={l} value={l} title={LEVEL_MEANINGS[l]}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={state.busy || choice === (current.level ?? '')}>
        Set level
      </button>
      {state.error !== undefined && <ErrorMessage error={state.error} />}
    </form>
  );
}

/** Violations as a table: the version compared, the direction that fails, the rule and why. */
export function ViolationsTable({ violations }: { violations: readonly CompatibilityViolation[] }) {
  return (
    <ScrollBox label="Violations">
      <table className="violations">
        <thead>
          <tr>
            <th scope="col">Against</th>
            <th scope="col">Direction</th>
            <th scope="col">Rule</th>
            <th scope="col">Column</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {violations.map((v, i) => (
            <tr key={i}>
              <td>v{v.version_num}</td>
              <td title={DIRECTION_TEXT[v.direction]}>{v.direction}</td>
              <td>
                <code>{v.rule}</code>
                <div className="small muted">{ruleMeaning(v.rule)}</div>
              </td>
              <td>{v.name ?? <span className="muted">(the table)</span>}</td>
              <td>{violationSentence(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}

const DIRECTION_TEXT: Record<CompatibilityViolation['direction'], string> = {
  backward: 'the new version cannot read data written under that version',
  forward: 'that version cannot read data written under the new one',
};

/** A violation as a person reads it: what changed, then who can no longer read what. */
export function violationSentence(v: Pick<CompatibilityViolation, 'reason' | 'direction' | 'version_num'>) {
  const who =
    v.direction === 'backward'
      ? `readers on the new version could not read data written under v${v.version_num}`
      : `readers still on v${v.version_num} could not read data written under the new version`;
  const reason = v.reason.replace(/[.\s]+$/, '');
  return `${reason[0]?.toUpperCase() ?? ''}${reason.slice(1)}: ${who}.`;
}

/** The versions, newest first, each forced publish with its reason and the violations it overrode. */
export function VersionHistory({
  versions,
  onCheck,
  onTranslate,
}: {
  versions: readonly SchemaVersionSummary[];
  onCheck: (num: number) => void;
  onTranslate: (num: number) => void;
}) {
  if (versions.length === 0) return null;
  return (
    <ScrollBox label="Version history">
      <table className="history">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Published</th>
            <th scope="col">Columns</th>
            <th scope="col">Compatibility</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => {
            const forced = v.compatibility_override;
            return (
              <tr key={v.version_num} className={forced ? 'forced' : undefined}>
                <th scope="row">v{v.version_num}</th>
                <td>{when(v.created_at)}</td>
                <td className="num">{v.column_count}</td>
                <td>
                  {forced ? <ForcedPublish override={forced} /> : <span className="muted">passed</span>}
                </td>
                <td className="actions">
                  <button type="button" className="link" onClick={() => onCheck(v.version_num)}>
                    Check<span className="visually-hidden"> v{v.version_num}</span>
                  </button>{' '}
                  <button type="button" className="link" onClick={() => onTranslate(v.version_num)}>
                    Translate<span className="visually-hidden"> v{v.version_num}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}

function ForcedPublish({ override }: { override: CompatibilityOverride }) {
  const count = override.violations.length;
  return (
    <div className="forced-publish">
      <p>
        <strong className="badge forced">forced</strong> past <LevelName level={override.level} />:{' '}
        <q>{override.reason}</q>
        {override.forced_by && <span className="small muted"> (by user {override.forced_by})</span>}
      </p>
      <details>
        <summary>
          {count} violation{count === 1 ? '' : 's'} overridden
        </summary>
        <ViolationsTable violations={override.violations} />
      </details>
    </div>
  );
}

/** A stored type tree as a publish names it: its code, its params, its children by slot. */
function specOf(tree: TypeInstanceTree): TypeSpec {
  return {
    data_type: tree.data_type_code,
    ...(tree.type_params ? { params: tree.type_params } : {}),
    ...(tree.children.length > 0
      ? { children: tree.children.map((c) => ({ slot: c.slot ?? '', type: specOf(c) })) }
      : {}),
  };
}

/** The publish body that would publish `version` again: its columns in order and its table structure. */
export function publishBodyOf(version: SchemaVersion): PublishSchemaVersion {
  return {
    columns: [...version.columns]
      .sort((a, b) => a.position - b.position)
      .map((c) => ({
        name: c.name,
        nullable: c.nullable,
        type: c.type ? specOf(c.type) : null,
        native_type: c.native_type,
        default: c.default,
        comment: c.comment,
        identity: c.identity,
        generated: c.generated,
        collation: c.collation,
      })),
    table_kind: version.table_kind,
    table_comment: version.table_comment,
    view_definition: version.view_definition,
    primary_key: version.primary_key,
    unique_constraints: version.unique_constraints,
    foreign_keys: version.foreign_keys,
    indexes: version.indexes,
    check_constraints: version.check_constraints,
  };
}

/**
 * Would this version be accepted now? A stored version's body (editable, to try a change) checked
 * against the dataset's level (`POST /datasets/{id}/schema-versions/check`, which writes nothing).
 */
export function CheckCompatibility(props: {
  datasetId: string;
  versions: readonly SchemaVersionSummary[];
  versionNum: number | undefined;
  onVersion: (num: number) => void;
  /** After a publish from this form created a version. */
  onPublished?: () => void;
}) {
  const { client } = useSession();
  const mayPublish = useCan()(contract.schemaVersions.publish);
  const [published, setPublished] = useState<{ result?: PublishResult; error?: unknown; busy: boolean }>({
    busy: false,
  });
  const id = useId();
  const { datasetId, versionNum } = props;
  const [body, setBody] = useState('');
  const [result, setResult] = useState<{ check?: CompatibilityCheck; error?: unknown; busy: boolean }>({
    busy: false,
  });
  const [version] = useAsync(
    async () => (versionNum === undefined ? null : client.datasets.schemaVersion(datasetId, versionNum)),
    [datasetId, versionNum, client],
  );
  useEffect(() => {
    if (version.state === 'done' && version.value)
      setBody(JSON.stringify(publishBodyOf(version.value), null, 2));
    setResult({ busy: false });
  }, [version]);
  if (props.versions.length === 0) return <p>No version to check.</p>;
  const parseBody = (): unknown => {
    try {
      return JSON.parse(body);
    } catch (error) {
      setResult({ error: new Error(`The body is not valid JSON: ${(error as Error).message}`), busy: false });
      return undefined;
    }
  };
  // Publishes the would-be version: the level decides, as for any publish; a refusal says why.
  const publish = async () => {
    const parsed = parseBody();
    if (parsed === undefined) return;
    setResult({ busy: false });
    setPublished({ busy: true });
    try {
      const result = await client.datasets.publishSchemaVersion(datasetId, parsed as PublishSchemaVersion);
      setPublished({ result, busy: false });
      if (result.created) props.onPublished?.();
    } catch (error) {
      setPublished({ error, busy: false });
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseBody();
    if (parsed === undefined) return;
    setPublished({ busy: false });
    setResult({ busy: true });
    try {
      setResult({
        check: await client.compatibility.checkSchemaVersion(datasetId, parsed as PublishSchemaVersion),
        busy: false,
      });
    } catch (error) {
      setResult({ error, busy: false });
    }
  };
  return (
    <form className="check" aria-labelledby={`${id}-title`} onSubmit={(e) => void submit(e)}>
      <h3 id={`${id}-title`} className="visually-hidden">
        Check a version against the compatibility level
      </h3>
      <div className="toolbar">
        <label>
          Version to check{' '}
          <select value={versionNum} onChange={(e) => props.onVersion(Number(e.target.value))}>
            {props.versions.map((v) => (
              <option key={v.version_num} value={v.version_num}>
                v{v.version_num} ({v.column_count} columns)
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={result.busy || version.state !== 'done'}>
          Check compatibility
        </button>
        {mayPublish && (
          <button
            type="button"
            disabled={published.busy || version.state !== 'done'}
            onClick={() => void publish()}
          >
            Publish as a new version
          </button>
        )}
      </div>
      {version.state === 'error' && <ErrorMessage error={version.error} />}
      <details>
        <summary>Edit the would-be version (the body of a publish)</summary>
        <label className="field">
          <span className="visually-hidden">Publish body to check (JSON)</span>
          <textarea
            className="code"
            rows={14}
            cols={80}
            spellCheck={false}
            value={body}
            onChange={(e) => setBody(e.target.value)}
          />
        </label>
      </details>
      <div aria-live="polite">
        {result.busy && <p>Checking…</p>}
        {result.check && <CheckResult check={result.check} />}
        {result.error !== undefined && <ErrorMessage error={result.error} />}
        {published.busy && <p>Publishing…</p>}
        {published.result && (
          <p role="status" data-testid="publish-result">
            {published.result.created
              ? `Published as v${published.result.version.version_num}.`
              : `Nothing published: it is the same as the current version, v${published.result.version.version_num}.`}
          </p>
        )}
        {published.error !== undefined && <PublishRefused error={published.error} />}
      </div>
    </form>
  );
}

/**
 * Why a publish was refused: for DATASET_SCHEMA_INCOMPATIBLE, the level's verdict the server attached
 * (a compatibility check: the level, what was compared, each violation in words); other errors as usual.
 */
export function PublishRefused({ error }: { error: unknown }) {
  const check = error instanceof AideApiError ? refusedCheckOf(error) : null;
  if (!check) return <ErrorMessage error={error} />;
  return (
    <div role="alert" className="publish-refused" data-testid="publish-refused">
      <p>
        <strong>Not published.</strong> The dataset&apos;s compatibility level{' '}
        <LevelName level={check.level} /> refuses this version: {check.violations.length} change
        {check.violations.length === 1 ? '' : 's'} would break its readers. Change the version, or ask a
        superuser to publish it by force with a reason.
      </p>
      <ul className="violation-sentences">
        {check.violations.map((v, i) => (
          <li key={i}>
            {v.name ? <code>{v.name}</code> : 'The table'}: {violationSentence(v)}
          </li>
        ))}
      </ul>
      <details>
        <summary>As a table, with the rules</summary>
        <CheckResult check={check} />
      </details>
      {error instanceof AideApiError && error.requestId && (
        <p className="muted small">Request {error.requestId}</p>
      )}
    </div>
  );
}

/** The check a DATASET_SCHEMA_INCOMPATIBLE answer carries in its details, when it has one. */
export function refusedCheckOf(error: AideApiError): CompatibilityCheck | null {
  if (error.errorCode !== 'DATASET_SCHEMA_INCOMPATIBLE') return null;
  const parsed = CompatibilityCheckSchema.safeParse(error.details);
  return parsed.success ? parsed.data : null;
}

/** The verdict: accepted or refused under which level, what was compared, and every violation. */
export function CheckResult({ check }: { check: CompatibilityCheck }) {
  const compared = check.compared_versions.map((n) => `v${n}`).join(', ');
  const impact = check.impact?.summary;
  return (
    <div className={`check-result ${check.accepted ? 'accepted' : 'refused'}`} data-testid="check-result">
      <p>
        <strong>{check.accepted ? 'Accepted' : 'Refused'}</strong> under <LevelName level={check.level} />{' '}
        <span className="muted">({SOURCE_TEXT[check.source]})</span>
        {check.base_version_num === null
          ? ': the dataset has no version yet, anything is accepted.'
          : compared
            ? `, compared with ${compared}.`
            : '.'}
        {check.level === 'NONE' && ' Level NONE checks nothing.'}
      </p>
      {check.violations.length > 0 && (
        <>
          <p>
            {check.violations.length} violation{check.violations.length === 1 ? '' : 's'}:
          </p>
          <ViolationsTable violations={check.violations} />
        </>
      )}
      {impact && impact.links > 0 && (
        <p>
          Downstream: {impact.links} link{impact.links === 1 ? '' : 's'}, {impact.breaking_links} broken,{' '}
          {impact.breaking_field_links} field link{impact.breaking_field_links === 1 ? '' : 's'} broken.
        </p>
      )}
    </div>
  );
}
