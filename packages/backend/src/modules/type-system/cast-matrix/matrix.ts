// The cast matrix (ADR 0043): for every built-in type of every flavor and every other flavor, the best
// target type (exact, widening or lossy, with what is lost), or an explicit "no mapping" with its
// reason. Generated from the hub tables; a hand-written rule (seeds/casts/*.yaml) overrides a pair.
import type { CastSafety, ParamMapping } from '../cast-mapping.js';
import type { CastSeedFile, SeedTypeRef } from '../seed-file.js';
import { formatHub, type ResolvedHub } from './hub-decl.js';
import { castHub, fidelityRank, hubSize, type CastFidelity, type HubConversion } from './hub-cast.js';
import { CONTAINERS, familyOf } from './hub-type.js';
import type { HubPlace, MatrixTable } from './matrix-table.js';

/** A rule of the matrix, as seeded into cast_rules. */
export interface MatrixRule {
  source: SeedTypeRef;
  target: SeedTypeRef;
  safety: CastSafety;
  param_mapping: ParamMapping;
  fidelity: CastFidelity;
  loss: string[];
  /** Instances refused rather than cast (docs only; resolve reports them as invalid params). */
  limits: string[];
  /** `override`: a hand-written rule of seeds/casts/ (its safety and mapping kept). */
  origin: 'generated' | 'override';
}

/** A source type with no mapping into a flavor, and why. */
export interface MatrixGap {
  source: SeedTypeRef;
  target_flavor: string;
  reason: string;
}

export interface CastMatrix {
  rules: MatrixRule[];
  gaps: MatrixGap[];
}

/** exact → implicit; widening within a family → implicit, across (a text form) → safe; lossy → unsafe. */
export function safetyOf(conversion: Pick<HubConversion, 'fidelity' | 'distance'>): CastSafety {
  if (conversion.fidelity === 'lossy') return 'unsafe';
  return conversion.fidelity === 'exact' || conversion.distance <= 1 ? 'implicit' : 'safe';
}

const TEXT_FORM = 3;

interface Candidate {
  code: string;
  hub: ResolvedHub;
  conversion: HubConversion;
  /** A container cast into another family (a document, a text): its children are no longer typed. */
  flattened: number;
  prefer: number;
  order: number;
}

/**
 * The best of two targets: a cast that keeps the value's meaning before a text form (even a lossy one:
 * its loss is declared), a container kept as a container before a document (a map whose keys become
 * strings, rather than a JSON value), then the better fidelity, the closer hub type, fewer refused instances, fewer
 * kinds of loss, the narrowest widening (the widest lossy) target, the flavor's preference, the flavor file's order.
 */
function compareCandidates(a: Candidate, b: Candidate): number {
  const size = (c: Candidate) => (c.conversion.fidelity === 'lossy' ? -1 : 1) * hubSize(c.hub.code);
  const textForm = (c: Candidate) => (c.conversion.distance >= TEXT_FORM ? 1 : 0);
  return (
    textForm(a) - textForm(b) ||
    a.flattened - b.flattened ||
    fidelityRank(a.conversion.fidelity) - fidelityRank(b.conversion.fidelity) ||
    a.conversion.distance - b.conversion.distance ||
    a.conversion.limits.length - b.conversion.limits.length ||
    a.conversion.loss.length - b.conversion.loss.length ||
    size(a) - size(b) ||
    a.prefer - b.prefer ||
    a.order - b.order
  );
}

/** The best target type of `target` for a source hub type, or null when the flavor holds no such value. */
export function bestTarget(source: ResolvedHub, target: MatrixTable): Candidate | null {
  let best: Candidate | null = null;
  target.types.forEach(({ code, place }, order) => {
    if (!('hub' in place) || target.notTargets.includes(code)) return;
    const cast = castHub(source, place.hub);
    if (cast === null) return;
    const conversion = { ...cast, mapping: { ...cast.mapping, ...place.targetParams } };
    const prefer = target.prefer.indexOf(code);
    const flattened =
      CONTAINERS.has(source.code) && familyOf(source.code) !== familyOf(place.hub.code) ? 1 : 0;
    const candidate = {
      code,
      hub: place.hub,
      conversion,
      flattened,
      prefer: prefer === -1 ? Infinity : prefer,
      order,
    };
    if (best === null || compareCandidates(candidate, best) < 0) best = candidate;
  });
  return best;
}

const key = (sourceFlavor: string, sourceCode: string, targetFlavor: string) =>
  `${sourceFlavor}.${sourceCode}>${targetFlavor}`;

/**
 * Generates the matrix over every pair of distinct flavors of `tables`. A hand-written rule of
 * `overrides` replaces the generated one for its (source type, target flavor); its fidelity is the
 * hub's classification of that pair (an override the hub cannot classify is an error).
 */
export function generateCastMatrix(
  tables: readonly MatrixTable[],
  overrides: readonly CastSeedFile[] = [],
): CastMatrix {
  const byFlavor = new Map(tables.map((t) => [t.flavor, t]));
  const hubOf = (ref: SeedTypeRef) => byFlavor.get(ref.flavor)?.types.find((t) => t.code === ref.code)?.place;
  const overridden = new Map<string, CastSeedFile['mappings'][number]>();
  for (const rule of overrides.flatMap((f) => f.mappings)) {
    overridden.set(key(rule.source.flavor, rule.source.code, rule.target.flavor), rule);
  }
  const rules: MatrixRule[] = [];
  const gaps: MatrixGap[] = [];
  for (const source of tables) {
    for (const target of tables) {
      if (source === target) continue;
      for (const { code, params, place } of source.types) {
        const ref = { flavor: source.flavor, code };
        const override = overridden.get(key(source.flavor, code, target.flavor));
        if (override !== undefined) {
          rules.push(overrideRule(override, hubOf(override.source), hubOf(override.target)));
          continue;
        }
        if (source.catalogue !== undefined && source.catalogue === target.catalogue) {
          rules.push(sameCatalogueRule(ref, target.flavor, params));
          continue;
        }
        if ('none' in place) {
          gaps.push({ source: ref, target_flavor: target.flavor, reason: place.none });
          continue;
        }
        const best = bestTarget(place.hub, target);
        if (best === null) {
          gaps.push({
            source: ref,
            target_flavor: target.flavor,
            reason: `no ${target.flavor} type holds ${formatHub(place.hub)} values`,
          });
          continue;
        }
        rules.push({
          source: ref,
          target: { flavor: target.flavor, code: best.code },
          safety: safetyOf(best.conversion),
          param_mapping: best.conversion.mapping,
          fidelity: best.conversion.fidelity,
          loss: best.conversion.loss,
          limits: best.conversion.limits,
          origin: 'generated',
        });
      }
    }
  }
  return { rules, gaps };
}

/** Flavors declared from one type list (storage_files, sftp_files): each type is itself, every param copied. */
function sameCatalogueRule(source: SeedTypeRef, targetFlavor: string, params: string[]): MatrixRule {
  return {
    source,
    target: { flavor: targetFlavor, code: source.code },
    safety: 'implicit',
    param_mapping: Object.fromEntries(params.map((p) => [p, `@${p}`])),
    fidelity: 'exact',
    loss: [],
    limits: [],
    origin: 'generated',
  };
}

function overrideRule(
  rule: CastSeedFile['mappings'][number],
  source: HubPlace | undefined,
  target: HubPlace | undefined,
): MatrixRule {
  const name = `${rule.source.flavor}.${rule.source.code} → ${rule.target.flavor}.${rule.target.code}`;
  const conversion =
    source !== undefined && target !== undefined && 'hub' in source && 'hub' in target
      ? castHub(source.hub, target.hub)
      : null;
  const fidelity = rule.fidelity ?? conversion?.fidelity;
  if (fidelity === undefined) {
    throw new Error(
      `cast override ${name}: the hub cannot classify it; give its fidelity (and loss) in the file`,
    );
  }
  return {
    source: rule.source,
    target: rule.target,
    safety: rule.safety,
    param_mapping: rule.param_mapping,
    fidelity,
    loss: rule.loss ?? (rule.fidelity === undefined ? (conversion?.loss ?? []) : []),
    limits: rule.fidelity === undefined ? (conversion?.limits ?? []) : [],
    origin: 'override',
  };
}

/** Every (source type, target flavor) with neither a rule nor a gap, or with more than one entry. */
export function matrixCoverageProblems(tables: readonly MatrixTable[], matrix: CastMatrix): string[] {
  const seen = new Map<string, number>();
  for (const r of matrix.rules) {
    const k = key(r.source.flavor, r.source.code, r.target.flavor);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  for (const g of matrix.gaps) {
    const k = key(g.source.flavor, g.source.code, g.target_flavor);
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  const problems: string[] = [];
  for (const source of tables) {
    for (const target of tables) {
      if (source === target) continue;
      for (const { code } of source.types) {
        const n = seen.get(key(source.flavor, code, target.flavor)) ?? 0;
        if (n !== 1)
          problems.push(
            `${source.flavor}.${code} → ${target.flavor}: ${n === 0 ? 'missing' : `${n} entries`}`,
          );
      }
    }
  }
  return problems;
}
