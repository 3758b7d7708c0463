import {
  classifyChanges,
  type CompatibilityLevel,
  type CompatibilityViolation,
  type ComparableVersion,
  isTransitive,
  type SchemaChange,
  violationsOf,
} from '@aide/schemas';

/** An earlier version as the check needs it: its number, its fingerprint, and (lazily) its structure. */
export interface EarlierVersion {
  version_num: number;
  /** The version's structural fingerprint (ADR 0032): equal fingerprints, equal changes. */
  fingerprint: string;
  comparable: () => ComparableVersion;
}

/** What a level makes of a would-be version: the versions compared and every violation. */
export interface LevelVerdict {
  compared_versions: number[];
  violations: CompatibilityViolation[];
}

/**
 * The one computation of a level's violations (ADR 0048), for the publish and the check route alike.
 * The change from the latest version is the publish's own classification (`latestChanges`); a
 * _TRANSITIVE level also compares every earlier version, each distinct shape (by fingerprint)
 * classified once — a history of 100 versions that went back and forth between three shapes costs
 * three classifications. Nothing is read here: the caller reads the earlier versions set-based.
 */
export function levelVerdict(
  level: CompatibilityLevel,
  target: ComparableVersion,
  latest: { version_num: number; fingerprint: string | null; changes: readonly SchemaChange[] },
  earlier: readonly EarlierVersion[],
  flavor: string | null,
): LevelVerdict {
  if (level === 'NONE') return { compared_versions: [], violations: [] };
  const compared = [latest.version_num];
  const violations = [...violationsOf(level, latest.changes, latest.version_num)];
  if (!isTransitive(level)) return { compared_versions: compared, violations };
  const changesOf = new Map<string, readonly SchemaChange[]>();
  if (latest.fingerprint !== null) changesOf.set(latest.fingerprint, latest.changes);
  const options = flavor === null ? {} : { flavor };
  for (const version of [...earlier].sort((a, b) => b.version_num - a.version_num)) {
    if (version.version_num >= latest.version_num) continue;
    let changes = changesOf.get(version.fingerprint);
    if (changes === undefined) {
      changes = classifyChanges(version.comparable(), target, options);
      changesOf.set(version.fingerprint, changes);
    }
    compared.push(version.version_num);
    violations.push(...violationsOf(level, changes, version.version_num));
  }
  return { compared_versions: compared, violations };
}

/** `COLUMN_REMOVED id (backward, v3), TYPE_NARROWED amount (backward, v3)` — at most five, then a count. */
export function violationSummary(violations: readonly CompatibilityViolation[]): string {
  const named = violations
    .slice(0, 5)
    .map((v) => `${v.rule}${v.name === null ? '' : ` ${v.name}`} (${v.direction}, v${v.version_num})`);
  return violations.length > 5 ? `${named.join(', ')} and ${violations.length - 5} more` : named.join(', ');
}
