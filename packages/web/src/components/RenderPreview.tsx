import type { TypeSpec } from '@aide/schemas';
import type { DataType } from '@aide/sdk';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { z } from 'zod';
import { type Session, useSession } from '../session';
import { ErrorMessage } from './common';
import { type FieldSpec, FormField, issuesByField, usePanel } from './EntityEditor';
import { droppedParams, droppedSentence } from './template-params';
import { type ChildSlot, childSpecs, initialChildren, slotsOf, TypeSlots } from './TypeSlots';

const DEBOUNCE_MS = 250;

interface ParamSpec {
  name: string;
  type: string;
  enum?: readonly unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  required: boolean;
}

/** The parameters of a params schema (its top-level `properties`), as inputs to offer. */
export function paramSpecs(schema: Record<string, unknown>): ParamSpec[] {
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  return Object.entries(properties).map(([name, p]) => {
    const type = Array.isArray(p['type'])
      ? String((p['type'] as unknown[]).find((t) => t !== 'null') ?? 'string')
      : String(p['type'] ?? 'string');
    return {
      name,
      type,
      ...(Array.isArray(p['enum']) ? { enum: p['enum'] as unknown[] } : {}),
      ...(typeof p['description'] === 'string' ? { description: p['description'] } : {}),
      ...(typeof p['minimum'] === 'number' ? { minimum: p['minimum'] } : {}),
      ...(typeof p['maximum'] === 'number' ? { maximum: p['maximum'] } : {}),
      required: required.has(name),
    };
  });
}

/** The form field of a parameter: its type, whether it is required, bounds and description as the hint. */
export function fieldOf(spec: ParamSpec): FieldSpec {
  const hint = [
    spec.type,
    spec.required ? 'required' : 'optional',
    spec.minimum !== undefined ? `min ${spec.minimum}` : '',
    spec.maximum !== undefined ? `max ${spec.maximum}` : '',
    spec.description ?? '',
  ]
    .filter(Boolean)
    .join(', ');
  const kind = spec.type === 'boolean' ? 'bool' : spec.enum ? 'select' : 'text';
  return {
    key: spec.name,
    label: spec.name,
    kind,
    hint,
    numeric: spec.type === 'integer' || spec.type === 'number',
    ...(spec.enum
      ? {
          options: [
            { value: '', label: '(not set)' },
            ...spec.enum.map((v) => ({ value: String(v), label: String(v) })),
          ],
        }
      : {}),
  };
}

/** The params object of the form: empty inputs left out, numbers as numbers, other text as entered. */
export function paramsOf(specs: readonly ParamSpec[], values: Record<string, string | boolean>) {
  const params: Record<string, unknown> = {};
  for (const spec of specs) {
    const v = values[spec.name];
    if (v === undefined || v === '') continue;
    if (spec.type === 'boolean') params[spec.name] = v === true;
    else if (spec.enum) params[spec.name] = spec.enum.find((e) => String(e) === v) ?? v;
    else if (
      (spec.type === 'integer' || spec.type === 'number') &&
      String(v).trim() !== '' &&
      !isNaN(Number(v))
    )
      params[spec.name] = Number(v);
    else params[spec.name] = v;
  }
  return params;
}

/** A validator of the params schema, or null when the schema uses what zod cannot convert. */
export function paramsValidator(schema: Record<string, unknown>): z.ZodType | null {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return null;
  }
}

/**
 * Renders `params` (and child types) for a data type through the API without storing anything
 * (`POST /type-instances/render`, ADR 0027): the spec names the type by code in its flavor.
 */
export async function renderThroughApi(
  session: Session,
  type: DataType,
  params: Record<string, unknown>,
  children: TypeSpec['children'] = [],
) {
  const rendered = await session.client.typeInstances.renderSpec({
    system_flavor_id: type.system_flavor_id,
    type: { data_type: type.code, params, ...(children.length ? { children } : {}) },
  });
  return rendered.rendered;
}

/** A flavor's data types by code (a flavor has tens: postgres14 has 52; pages of 100). */
function useFlavorTypes(session: Session, flavorId: string, wanted: boolean) {
  const [types, setTypes] = useState<DataType[]>([]);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void (async () => {
      const all: DataType[] = [];
      for await (const t of session.client.dataTypes.iterate({
        system_flavor_id: flavorId,
        size: 100,
        sort: 'code',
      }))
        all.push(t);
      if (live) setTypes(all);
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, [session, flavorId, wanted]);
  return types;
}

/** Parameters for a type, checked against its params schema as they are typed, and the rendered text. */
export function RenderPreview({ type, onClose }: { type: DataType; onClose: () => void }) {
  const session = useSession();
  const id = useId();
  const specs = useMemo(() => paramSpecs(type.params_schema), [type]);
  const validator = useMemo(() => paramsValidator(type.params_schema), [type]);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [result, setResult] = useState<{ rendered?: string; error?: unknown; busy: boolean }>({ busy: true });
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const params = paramsOf(specs, values);
  const checked = validator?.safeParse(params);
  const errors = checked && !checked.success ? issuesByField(checked.error) : {};
  const slots = slotsOf(type);
  const container = slots.slots.length > 0 || slots.fields;
  const [children, setChildren] = useState<ChildSlot[]>(() => initialChildren(type));
  const types = useFlavorTypes(session, type.system_flavor_id, container);
  const built = childSpecs(children, new Map(types.map((t) => [t.code, t])));
  const missing = 'missing' in built ? built.missing : null;
  const valid = (!checked || checked.success) && missing === null;
  const key = JSON.stringify({ params, children: 'children' in built ? built.children : [] });
  const dropped = droppedParams(type.render_template, Object.keys(params));
  const panel = usePanel(onClose);

  useEffect(() => {
    if (!valid) return;
    let live = true;
    setResult((r) => ({ ...r, busy: true }));
    const timer = setTimeout(() => {
      // One request at a time, so an older answer never replaces a newer one.
      queue.current = queue.current
        .then(() => {
          const spec = JSON.parse(key) as { params: Record<string, unknown>; children: TypeSpec['children'] };
          return renderThroughApi(session, type, spec.params, spec.children);
        })
        .then(
          (rendered) => live && setResult({ rendered, busy: false }),
          (error: unknown) => live && setResult({ error, busy: false }),
        );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, valid, type, session]);

  return (
    <form
      className="panel preview"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => e.preventDefault()}
      {...panel}
    >
      <h3 id={`${id}-title`}>Render preview of {type.code}</h3>
      {specs.length === 0 && !container && <p className="muted">This type takes no parameters.</p>}
      {specs.map((spec) => (
        <FormField
          key={spec.name}
          spec={fieldOf(spec)}
          id={`${id}-${spec.name}`}
          value={values[spec.name] ?? (spec.type === 'boolean' ? false : '')}
          error={errors[spec.name]}
          onChange={(v) => setValues((old) => ({ ...old, [spec.name]: v }))}
        />
      ))}
      {errors[''] && <p className="error">{errors['']}</p>}
      {container && <TypeSlots parent={type} children={children} types={types} onChange={setChildren} />}
      {dropped.map((d) => (
        <p key={d.param} className="warning" role="status">
          {droppedSentence(d)}
        </p>
      ))}
      <p>
        Rendered:{' '}
        <output aria-live="polite" aria-busy={result.busy} className="rendered">
          {valid ? (result.rendered ?? '') : missing ? `(${missing})` : '(fix the parameters)'}
        </output>
      </p>
      {valid && result.error !== undefined && <ErrorMessage error={result.error} />}
      <details>
        <summary>Params schema of {type.code}</summary>
        <pre className="schema">{JSON.stringify(type.params_schema, null, 2)}</pre>
      </details>
      <button type="button" onClick={onClose}>
        Close preview
      </button>
    </form>
  );
}
