// The DataCoolie error hierarchy (reference §2.13). Message texts are the reference's: pipelines and
// tests match on them.

export type ErrorDetails = Record<string, unknown>;

/** Base of the DataCoolie errors: a message plus structured details. */
export class DataCoolieError extends Error {
  readonly details: ErrorDetails;

  constructor(message: string, details: ErrorDetails = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.details = details;
  }

  /** `"<message> | Details: <details>"` when there are details, else the message (as DataCoolie). */
  override toString(): string {
    return Object.keys(this.details).length > 0
      ? `${this.message} | Details: ${JSON.stringify(this.details)}`
      : this.message;
  }
}

/** Invalid or missing configuration, including model validation. */
export class ConfigurationError extends DataCoolieError {}

/** Metadata loading, parsing, validation or backend failures. */
export class MetadataError extends DataCoolieError {}

/** Watermark read, write or (de)serialization failures. */
export class WatermarkError extends DataCoolieError {}

/**
 * Lifecycle misuse: use after close, recursive initialization, close/clear/configure during
 * initialization (Python's `RuntimeError` cases). Not a DataCoolieError, as in the reference.
 */
export class ProviderStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderStateError';
  }
}
