// Secrets out of a URL before it is shown: shared by every source's URL parser and the registry's
// errors (a light module: `--help` loads the registry, not the database URL parser).

/** Replaces the password of a URL (`user:secret@`) and `password=` query parameters with `***`. */
export function redact(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:?#]*):.*@(?=[^@]*$)/i, '$1:***@')
    .replace(/([?&](?:password|pass|pwd)=)[^&#]*/gi, '$1***');
}
