import type { RouteDef } from '@aide/schemas';
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import type { z } from 'zod';
import { useCan } from '../session';
import { ErrorMessage, Pager, ScrollBox } from './common';

/** How a field is edited: its text is turned into the API's value by `toValue`. */
export type FieldKind = 'text' | 'textarea' | 'json' | 'list' | 'bool' | 'select';

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  options?: readonly { value: string; label: string }[];
  hint?: string;
  /** The text a new entry's form starts with (`'true'` checks a new entry's box). */
  initial?: string;
  /** A select that starts with nothing chosen: the text of its empty option ("Choose a flavor…"). */
  placeholder?: string;
  /** A new entry must fill it: the message when it is left empty. */
  required?: string;
  /** A number: the phone keyboard shows digits. */
  numeric?: boolean;
}

export interface Row {
  id: string;
  row_version: number;
}

/** One collection of reference data as the editor sees it: its routes, schemas, form and API calls. */
export interface EntityAdmin<T extends Row> {
  singular: string;
  routes: { create: RouteDef; update?: RouteDef | undefined; delete?: RouteDef | undefined };
  createSchema: z.ZodType;
  updateSchema: z.ZodType;
  fields: readonly FieldSpec[];
  columns: readonly { label: string; value: (row: T) => ReactNode }[];
  label: (row: T) => string;
  create: (body: unknown) => Promise<T>;
  update: (id: string, body: unknown, ifMatch: number) => Promise<T>;
  remove: (id: string) => Promise<unknown>;
  get: (id: string) => Promise<T>;
}

type FormValues = Record<string, string | boolean>;

/** The form text of a stored value. */
export function toText(kind: FieldKind, value: unknown): string | boolean {
  if (kind === 'bool') return value === true;
  if (value === null || value === undefined) return '';
  if (kind === 'json') return JSON.stringify(value, null, 2);
  if (kind === 'list') return Array.isArray(value) ? value.join(', ') : '';
  return String(value as string);
}

/** The API value of a form text (`null` for an emptied field); throws on JSON that does not parse. */
export function toValue(kind: FieldKind, text: string | boolean): unknown {
  if (kind === 'bool') return text === true;
  const s = String(text);
  if (kind === 'json') return s.trim() === '' ? null : (JSON.parse(s) as unknown);
  if (kind === 'list') {
    const items = s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
    return items.length ? items : null;
  }
  return s.trim() === '' ? null : s;
}

/**
 * The body of a create (every filled field) or of an update (only the fields that changed, so a
 * concurrent change to another field is not overwritten), plus errors by field.
 */
export function buildBody(
  fields: readonly FieldSpec[],
  values: FormValues,
  initial: FormValues | null,
): { body: Record<string, unknown>; errors: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const text = values[f.key] ?? (f.kind === 'bool' ? false : '');
    if (initial && initial[f.key] === text) continue;
    if (!initial && f.required && text === '') {
      errors[f.key] = f.required;
      continue;
    }
    try {
      const value = toValue(f.kind, text);
      if (value !== null || initial) body[f.key] = value;
    } catch (e) {
      errors[f.key] = `not valid JSON: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
  return { body, errors };
}

/** Zod issues by the top-level field they are about. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    const at = issue.path.length > 1 ? ` (at ${issue.path.slice(1).join('.')})` : '';
    out[key] = out[key] ? `${out[key]}; ${issue.message}${at}` : `${issue.message}${at}`;
  }
  return out;
}

/**
 * A table of reference data with create, edit and delete for whoever the API lets do them (the others
 * never see the controls). Updates send the `row_version` read as `If-Match`; a conflict, a duplicate or
 * a refused value shows the API's error envelope next to the form.
 */
export function EntityTable<T extends Row>(props: {
  admin: EntityAdmin<T>;
  /** One page of the collection, with a pager under the table. */
  page: { items: readonly T[]; page: number; pages: number; total: number };
  onPage: (page: number) => void;
  onChanged: () => void;
  /** More per-row controls anyone may use (e.g. a preview), before edit and delete. */
  extra?: (row: T) => ReactNode;
}) {
  const { admin, onChanged } = props;
  const rows = props.page.items;
  const can = useCan();
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const mayEdit = can(admin.routes.update);
  const mayDelete = can(admin.routes.delete);
  const actions = mayEdit || mayDelete || props.extra !== undefined;
  const remove = async (row: T) => {
    setDeleteError(null);
    try {
      await admin.remove(row.id);
      setDeleting(null);
      onChanged();
    } catch (e) {
      setDeleteError(e);
    }
  };
  return (
    <>
      {can(admin.routes.create) && editing === null && (
        <p>
          <button type="button" onClick={() => setEditing('new')}>
            New {admin.singular}
          </button>
        </p>
      )}
      {editing !== null && (
        <EntityForm
          admin={admin}
          row={editing === 'new' ? null : editing}
          // The form reloaded the row after a conflict: the list shows what it now holds too.
          onReloaded={onChanged}
          onDone={(changed) => {
            setEditing(null);
            if (changed) onChanged();
          }}
        />
      )}
      {deleting && (
        <div className="panel" role="group" aria-label={`Delete ${admin.singular} ${admin.label(deleting)}`}>
          <p>
            Delete {admin.singular} <strong>{admin.label(deleting)}</strong>?
          </p>
          <button type="button" className="danger" onClick={() => void remove(deleting)}>
            Yes, delete {admin.label(deleting)}
          </button>{' '}
          <button type="button" onClick={() => setDeleting(null)}>
            Keep it
          </button>
          {deleteError !== null && <ErrorMessage error={deleteError} />}
        </div>
      )}
      <ScrollBox label={`List of ${admin.singular}s`}>
        <table>
          <thead>
            <tr>
              {admin.columns.map((c) => (
                <th scope="col" key={c.label}>
                  {c.label}
                </th>
              ))}
              {actions && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {admin.columns.map((c, i) =>
                  i === 0 ? (
                    <th scope="row" key={c.label}>
                      {c.value(row)}
                    </th>
                  ) : (
                    <td key={c.label}>{c.value(row)}</td>
                  ),
                )}
                {actions && (
                  <td className="actions">
                    {props.extra?.(row)}{' '}
                    {mayEdit && (
                      <button type="button" className="link" onClick={() => setEditing(row)}>
                        Edit<span className="visually-hidden"> {admin.label(row)}</span>
                      </button>
                    )}{' '}
                    {mayDelete && (
                      <button
                        type="button"
                        className="link"
                        onClick={() => {
                          setDeleteError(null);
                          setDeleting(row);
                        }}
                      >
                        Delete<span className="visually-hidden"> {admin.label(row)}</span>
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <Pager page={props.page.page} pages={props.page.pages} total={props.page.total} onPage={props.onPage} />
    </>
  );
}

function initialValues<T extends Row>(fields: readonly FieldSpec[], row: T | null): FormValues {
  const values: FormValues = {};
  for (const f of fields)
    values[f.key] = row
      ? toText(f.kind, (row as unknown as Record<string, unknown>)[f.key])
      : f.kind === 'bool'
        ? f.initial === 'true'
        : f.kind === 'select'
          ? (f.initial ?? (f.placeholder === undefined ? (f.options?.[0]?.value ?? '') : ''))
          : (f.initial ?? '');
  return values;
}

function EntityForm<T extends Row>(props: {
  admin: EntityAdmin<T>;
  row: T | null;
  onDone: (changed: boolean) => void;
  onReloaded?: () => void;
}) {
  const { admin } = props;
  const id = useId();
  const [row, setRow] = useState(props.row);
  const [initial, setInitial] = useState(() => (row ? initialValues(admin.fields, row) : null));
  const [values, setValues] = useState(() => initialValues(admin.fields, row));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [apiError, setApiError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const title = row ? `Edit ${admin.singular} ${admin.label(row)}` : `New ${admin.singular}`;

  const reload = async () => {
    if (!row) return;
    try {
      const latest = await admin.get(row.id);
      setRow(latest);
      setInitial(initialValues(admin.fields, latest));
      setValues(initialValues(admin.fields, latest));
      setApiError(null);
      setErrors({});
      props.onReloaded?.();
    } catch (e) {
      setApiError(e);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setApiError(null);
    const { body, errors: parseErrors } = buildBody(admin.fields, values, initial);
    if (Object.keys(parseErrors).length) return setErrors(parseErrors);
    if (row && Object.keys(body).length === 0) return props.onDone(false);
    const checked = (row ? admin.updateSchema : admin.createSchema).safeParse(body);
    if (!checked.success) return setErrors(issuesByField(checked.error));
    setErrors({});
    setBusy(true);
    try {
      if (row) await admin.update(row.id, body, row.row_version);
      else await admin.create(body);
      props.onDone(true);
    } catch (err) {
      setApiError(err);
      setBusy(false);
    }
  };

  const panel = usePanel(() => props.onDone(false));
  return (
    <form
      className="panel editor"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => void submit(e)}
      noValidate
      {...panel}
    >
      <h3 id={`${id}-title`}>{title}</h3>
      {admin.fields.map((f) => (
        <FormField
          key={f.key}
          spec={f}
          id={`${id}-${f.key}`}
          value={values[f.key] ?? ''}
          error={errors[f.key]}
          onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))}
        />
      ))}
      {errors[''] && <p className="error">{errors['']}</p>}
      {apiError !== null && <ErrorMessage error={apiError} onReload={() => void reload()} />}
      <div className="buttons">
        <button type="submit" disabled={busy}>
          {row ? 'Save changes' : `Create ${admin.singular}`}
        </button>{' '}
        <button type="button" onClick={() => props.onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One labelled input of a form, with its hint and its error tied to it for screen readers. */
export function FormField(props: {
  spec: FieldSpec;
  id: string;
  value: string | boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const { spec: f, id, value, error, onChange: set } = props;
  const described = [error ? `${id}-error` : '', f.hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
  return (
    <div className={f.kind === 'bool' ? 'field check' : 'field'}>
      <label htmlFor={id}>{f.label}</label>
      {f.kind === 'bool' ? (
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => set(e.target.checked)} />
      ) : f.kind === 'select' ? (
        <select {...common} value={String(value)} onChange={(e) => set(e.target.value)}>
          {f.placeholder !== undefined && (
            <option value="" disabled>
              {f.placeholder}
            </option>
          )}
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : f.kind === 'textarea' || f.kind === 'json' ? (
        <textarea
          {...common}
          rows={f.kind === 'json' ? 8 : 3}
          spellCheck={f.kind !== 'json'}
          className={f.kind === 'json' ? 'code' : undefined}
          value={String(value)}
          onChange={(e) => set(e.target.value)}
        />
      ) : (
        <input
          {...common}
          inputMode={f.numeric ? 'numeric' : undefined}
          value={String(value)}
          onChange={(e) => set(e.target.value)}
        />
      )}
      {f.hint && (
        <span id={`${id}-hint`} className="muted small">
          {f.hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="error small">
          {error}
        </span>
      )}
    </div>
  );
}

/** The SDK calls of a collection resource, as the editor makes them. */
export function sdkCalls<T>(resource: {
  create(body: never): Promise<T>;
  update(id: string, body: never, options: { ifMatch: number }): Promise<T>;
  delete(id: string): Promise<unknown>;
  get(id: string): Promise<T>;
}): Pick<EntityAdmin<Row & T>, 'create' | 'update' | 'remove' | 'get'> {
  return {
    create: (body) => resource.create(body as never) as Promise<Row & T>,
    update: (id, body, ifMatch) => resource.update(id, body as never, { ifMatch }) as Promise<Row & T>,
    remove: (id) => resource.delete(id),
    get: (id) => resource.get(id) as Promise<Row & T>,
  };
}

/**
 * A panel that opens in the page (a form): focus moves to its first input when it opens, and Escape
 * closes it. Spread the result on the panel's element.
 */
export function usePanel(onClose: () => void) {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
  }, []);
  return {
    ref,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      }
    },
  };
}
