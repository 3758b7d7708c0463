// `MetadataProviderStartupContext` (reference §4.1): what the runtime owner (a Driver) offers the
// provider at startup. Immutable; its SQL roots are detached from the caller's array.

export interface StartupContextInit {
  /** The Driver's execution platform (file I/O and secrets); opaque to the base provider. */
  platform?: unknown;
  metadataBasePath?: string | null;
  artifactBasePath?: string | null;
  stateBasePath?: string | null;
  logBasePath?: string | null;
  sqlBasePath?: string | readonly string[] | null;
}

export class MetadataProviderStartupContext {
  readonly platform: unknown;
  readonly metadataBasePath: string | null;
  readonly artifactBasePath: string | null;
  readonly stateBasePath: string | null;
  readonly logBasePath: string | null;
  readonly sqlBasePath: string | readonly string[] | null;

  constructor(init: StartupContextInit = {}) {
    const sql: unknown = init.sqlBasePath ?? null;
    if (sql !== null && typeof sql !== 'string' && !Array.isArray(sql)) {
      throw new TypeError('sql_base_path must be a path string or a sequence of path strings');
    }
    this.platform = init.platform ?? null;
    this.metadataBasePath = init.metadataBasePath ?? null;
    this.artifactBasePath = init.artifactBasePath ?? null;
    this.stateBasePath = init.stateBasePath ?? null;
    this.logBasePath = init.logBasePath ?? null;
    this.sqlBasePath = Array.isArray(sql) ? Object.freeze([...(sql as string[])]) : sql;
    Object.freeze(this);
  }

  static from(context: MetadataProviderStartupContext | StartupContextInit): MetadataProviderStartupContext {
    return context instanceof MetadataProviderStartupContext
      ? context
      : new MetadataProviderStartupContext(context);
  }
}
