import type { TypeSpellings } from '@aide/schemas/type-spellings';
import type { ApproximateType, TypeNode, UnmappedType } from '../model.js';

/** The outcome of mapping one native type. */
export type TypeMapping =
  | { type: TypeNode; approximate?: false }
  /** Mapped to a less precise code (the native text keeps the rest). */
  | { type: TypeNode; approximate: true }
  | null;

/** Counts, per native type text, the columns whose type is unmapped or only approximately mapped. */
export class TypeLog {
  private readonly unmapped = new Map<string, number>();
  private readonly approximate = new Map<string, { data_type: string; columns: number }>();

  /** Records a column's mapping and returns its type tree (null when unmapped). */
  record(nativeType: string, mapping: TypeMapping): TypeNode | null {
    if (mapping === null) {
      this.unmapped.set(nativeType, (this.unmapped.get(nativeType) ?? 0) + 1);
      return null;
    }
    if (mapping.approximate === true) {
      const entry = this.approximate.get(nativeType) ?? { data_type: mapping.type.data_type, columns: 0 };
      entry.columns++;
      this.approximate.set(nativeType, entry);
    }
    return mapping.type;
  }

  unmappedTypes(): UnmappedType[] {
    return [...this.unmapped]
      .map(([native_type, columns]) => ({ native_type, columns }))
      .sort((a, b) => compareText(a.native_type, b.native_type));
  }

  approximateTypes(): ApproximateType[] {
    return [...this.approximate]
      .map(([native_type, { data_type, columns }]) => ({ native_type, data_type, columns }))
      .sort((a, b) => compareText(a.native_type, b.native_type));
  }
}

/** Code-point order: the same on every machine, whatever the locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A leaf node, params omitted when empty. */
export function node(
  data_type: string,
  params?: Record<string, string | number | boolean | undefined>,
): TypeNode {
  const kept = Object.entries(params ?? {}).filter(
    (entry): entry is [string, string | number | boolean] => entry[1] !== undefined,
  );
  return kept.length === 0 ? { data_type } : { data_type, params: Object.fromEntries(kept) };
}

/**
 * A reader's decoder per type name of a spelling table: the decoder of the name's code where the code
 * has params to decode, else the code's plain node. `key` spells the names as the reader looks them up.
 */
export function decodersBySpelling<Arg>(
  spellings: TypeSpellings,
  decoders: Readonly<Record<string, (arg: Arg) => TypeNode>>,
  key: (name: string) => string = (name) => name,
): Readonly<Record<string, (arg: Arg) => TypeNode>> {
  return Object.fromEntries(
    Object.entries(spellings).map(([name, code]) => [
      key(name),
      Object.hasOwn(decoders, code) ? decoders[code] : () => node(code),
    ]),
  );
}

/** A container node from its children by slot; null when one child has no type (the whole is unmapped). */
export function nested(
  data_type: string,
  children: [slot: string, type: TypeNode | null][],
): TypeNode | null {
  if (children.some(([, type]) => type === null)) return null;
  return { data_type, children: children.map(([slot, type]) => ({ slot, type: type as TypeNode })) };
}

/** An array of `item`, nested `dimensions` times (`int[][]` → array(array(integer))). */
export function arrayOf(item: TypeNode, dimensions: number): TypeNode {
  let type = item;
  for (let i = 0; i < Math.max(1, dimensions); i++) {
    type = { data_type: 'array', children: [{ slot: 'item', type }] };
  }
  return type;
}

/** SQL string literals: `'a','b''c'` (the label list of an enum or set). */
export function quoteLabels(labels: readonly string[]): string {
  return labels.map((label) => `'${label.replaceAll("'", "''")}'`).join(',');
}
