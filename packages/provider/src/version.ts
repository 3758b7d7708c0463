/** The version of `@aide/provider` (`aide-provider --version`). Kept equal to package.json by a test. */
export const VERSION = '0.1.0';
