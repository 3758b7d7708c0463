// s3://bucket/prefix[?endpoint=http://127.0.0.1:9000&force_path_style=true&region=eu-west-1]
// (issue 24 §2, SOURCES-BRIEF §B). Credentials come from the standard AWS chain only (environment,
// shared config and credentials files, SSO, container and instance roles): a URL holding credentials is
// refused, so that no secret is ever typed into a command line or a saved crawl.
import { CrawlerError, ExitCode } from '../../errors.js';
import type { SourceTarget } from '../source-driver.js';

export interface S3Target extends SourceTarget {
  source: 's3';
  bucket: string;
  /** The key prefix as given, without a leading slash ('' for the whole bucket). */
  prefix: string;
  /** `s3://bucket/prefix`: the root as shown to people. */
  display: string;
  /** An S3-compatible store's endpoint; undefined for AWS. */
  endpoint: string | undefined;
  forcePathStyle: boolean;
  region: string | undefined;
}

const PARAMS = ['endpoint', 'force_path_style', 'region'];
const USAGE = 's3://bucket/prefix[?region=…&endpoint=http://host:port&force_path_style=true]';

export function parseS3Url(raw: string, env: NodeJS.ProcessEnv = process.env): S3Target {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usage(`invalid S3 URL '${text.replace(/\/\/[^/@]*@/, '//***@')}': expected ${USAGE}`);
  }
  if (url.protocol !== 's3:') throw usage(`not an S3 URL: '${url.protocol}//…'`);
  if (url.username !== '' || url.password !== '') {
    throw usage(
      `credentials in an s3:// URL are not accepted (s3://***@${url.host}/…): the AWS credential chain provides them (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO, an instance or container role)`,
    );
  }
  const redacted = text;
  const bucket = url.hostname;
  if (bucket === '') throw usage(`the S3 URL '${redacted}' names no bucket: expected ${USAGE}`);
  for (const key of url.searchParams.keys()) {
    if (!PARAMS.includes(key))
      throw usage(`unknown parameter '${key}' in '${redacted}'; known: ${PARAMS.join(', ')}`);
  }
  const endpoint = url.searchParams.get('endpoint') ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]/.test(endpoint)) {
    throw usage(`endpoint must be an http:// or https:// URL in '${redacted}'`);
  }
  const pathStyle = url.searchParams.get('force_path_style') ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') {
    throw usage(`force_path_style must be 'true' or 'false' in '${redacted}'`);
  }
  let prefix: string;
  try {
    prefix = decodeURIComponent(url.pathname.replace(/^\//, ''));
  } catch {
    throw usage(`malformed percent-encoding in '${redacted}'`);
  }
  // Secrets the SDK holds, scrubbed from any message that would quote them.
  const secrets = [env['AWS_SECRET_ACCESS_KEY'], env['AWS_SESSION_TOKEN']].filter(
    (s): s is string => s !== undefined && s !== '',
  );
  return {
    source: 's3',
    redacted,
    secrets,
    bucket,
    prefix,
    display: `s3://${bucket}${url.pathname === '/' ? '' : url.pathname}`,
    endpoint,
    forcePathStyle: pathStyle === 'true',
    region: url.searchParams.get('region') ?? undefined,
  };
}

function usage(message: string): CrawlerError {
  return new CrawlerError(message, { exitCode: ExitCode.USAGE });
}
