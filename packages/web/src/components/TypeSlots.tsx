import { templateSlots, type TypeSpec } from '@aide/schemas';
import type { DataType } from '@aide/sdk';
import { useId } from 'react';
import { FormField } from './EntityEditor';
import { fieldOf, paramsOf, paramSpecs } from './RenderPreview';

/** A child type as the preview edits it: a data type code, its parameter texts, its own children. */
export interface ChildNode {
  code: string;
  values: Record<string, string | boolean>;
  children: ChildSlot[];
}

/** A slot of a container: `item`, `key`, … or a struct member `field:<name>` (its name edited). */
export interface ChildSlot {
  slot: string;
  node: ChildNode;
}

const MAX_DEPTH = 6;
export const emptyNode = (): ChildNode => ({ code: '', values: {}, children: [] });

/** The slots a data type's template asks for, and whether it takes struct members. */
export function slotsOf(type: Pick<DataType, 'render_template'> | undefined) {
  return type?.render_template ? templateSlots(type.render_template) : { slots: [], fields: false };
}

/** The children a container starts with: one empty child per slot its template reads. */
export const initialChildren = (type: Pick<DataType, 'render_template'> | undefined): ChildSlot[] =>
  slotsOf(type).slots.map((slot) => ({ slot, node: emptyNode() }));

/**
 * The type spec of the children, or what is still missing (a slot without a type, a member without a
 * name) as a sentence.
 */
export function childSpecs(
  children: readonly ChildSlot[],
  types: ReadonlyMap<string, DataType>,
): { children: { slot: string; type: TypeSpec }[] } | { missing: string } {
  const out: { slot: string; type: TypeSpec }[] = [];
  for (const c of children) {
    const label = c.slot.startsWith('field:') ? `member “${c.slot.slice(6)}”` : `slot ${c.slot}`;
    if (c.slot === 'field:') return { missing: 'Name each struct member.' };
    const type = types.get(c.node.code);
    if (!type) return { missing: `Choose the type in ${label}.` };
    const inner = childSpecs(c.node.children, types);
    if ('missing' in inner) return inner;
    const params = paramsOf(paramSpecs(type.params_schema), c.node.values);
    out.push({
      slot: c.slot,
      type: {
        data_type: type.code,
        ...(Object.keys(params).length ? { params } : {}),
        ...(inner.children.length ? { children: inner.children } : {}),
      },
    });
  }
  return { children: out };
}

/**
 * The child types of a container: a type for each slot its template reads (`item`, `key`, `value`…),
 * struct members by name, each child with its parameters and, for a container child, its own slots.
 */
export function TypeSlots(props: {
  parent: Pick<DataType, 'code' | 'render_template'>;
  children: ChildSlot[];
  types: readonly DataType[];
  onChange: (children: ChildSlot[]) => void;
  depth?: number;
}) {
  const { parent, children, types, onChange } = props;
  const depth = props.depth ?? 0;
  const id = useId();
  const { fields } = slotsOf(parent);
  const set = (i: number, next: ChildSlot | null) =>
    onChange(next ? children.map((c, n) => (n === i ? next : c)) : children.filter((_, n) => n !== i));
  return (
    <fieldset className="slots">
      <legend>Child types of {parent.code}</legend>
      {children.map((c, i) => {
        const member = c.slot.startsWith('field:');
        const type = types.find((t) => t.code === c.node.code);
        const key = `${id}-${i}`;
        return (
          <div className="slot" key={i}>
            {member && (
              <div className="field">
                <label htmlFor={`${key}-name`}>Member name</label>
                <input
                  id={`${key}-name`}
                  value={c.slot.slice(6)}
                  onChange={(e) => set(i, { ...c, slot: `field:${e.target.value}` })}
                />
              </div>
            )}
            <div className="field">
              <label htmlFor={`${key}-type`}>
                {member ? `Type of member ${c.slot.slice(6) || i + 1}` : `Type in slot ${c.slot}`}
              </label>
              <select
                id={`${key}-type`}
                value={c.node.code}
                onChange={(e) => {
                  const chosen = types.find((t) => t.code === e.target.value);
                  set(i, {
                    ...c,
                    node: { code: e.target.value, values: {}, children: initialChildren(chosen) },
                  });
                }}
              >
                <option value="" disabled>
                  Choose a type…
                </option>
                {types.map((t) => (
                  <option key={t.id} value={t.code}>
                    {t.code}
                  </option>
                ))}
              </select>
            </div>
            {type &&
              paramSpecs(type.params_schema).map((spec) => (
                <FormField
                  key={spec.name}
                  spec={{ ...fieldOf(spec), label: `${spec.name} (${c.node.code} in ${c.slot})` }}
                  id={`${key}-${spec.name}`}
                  value={c.node.values[spec.name] ?? (spec.type === 'boolean' ? false : '')}
                  error={undefined}
                  onChange={(v) =>
                    set(i, { ...c, node: { ...c.node, values: { ...c.node.values, [spec.name]: v } } })
                  }
                />
              ))}
            {type && depth < MAX_DEPTH && (slotsOf(type).slots.length > 0 || slotsOf(type).fields) && (
              <TypeSlots
                parent={type}
                children={c.node.children}
                types={types}
                depth={depth + 1}
                onChange={(inner) => set(i, { ...c, node: { ...c.node, children: inner } })}
              />
            )}
            {member && (
              <button type="button" className="link" onClick={() => set(i, null)}>
                Remove member {c.slot.slice(6) || i + 1}
              </button>
            )}
          </div>
        );
      })}
      {fields && (
        <button type="button" onClick={() => onChange([...children, { slot: 'field:', node: emptyNode() }])}>
          Add a member to {parent.code}
        </button>
      )}
    </fieldset>
  );
}
