// Driver `kafka_schemas`: a folder of Kafka schema files, `kafka+file:///abs/folder` (or one file).
// Each file at the top of the folder is one subject, named by the file name without its extension
// (`orders-value.avsc`, `orders-key.avsc`, `payments.proto`: subjects.ts places them by topic); files in
// subfolders are only what those schemas use: Avro named types (.avsc), imported .proto files and
// JSON Schema `$ref` targets, each named by its path from the folder.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CrawlerError, ExitCode, throwIfInterrupted } from '../../errors.js';
import type { InspectedDatabase } from '../../model.js';
import type { SourceDriver, SourceInspectOptions, SourceTarget } from '../source-driver.js';
import { inspectSubjects, type SubjectSchema } from './inspection.js';
import type { ReferencedDocument, SchemaFormat } from './schema-columns.js';

export interface KafkaFolderTarget extends SourceTarget {
  source: 'kafka_schemas';
  /** The folder, or a single file's folder. */
  folder: string;
  /** Set when the URL names one schema file: only it is a subject. */
  file: string | null;
}

const FORMAT_OF_EXTENSION: Record<string, SchemaFormat> = {
  '.avsc': 'avro',
  '.json': 'json',
  '.proto': 'protobuf',
};
/** A schema file larger than this is reported, not read (schemas are kilobytes). */
const MAX_SCHEMA_BYTES = 16 * 1024 * 1024;

function parse(url: string): KafkaFolderTarget {
  const match = /^kafka\+file:(\/\/.*)$/i.exec(url);
  let path: string;
  try {
    if (match === null) throw new Error('not a kafka+file URL');
    path = fileURLToPath(`file:${match[1]}`);
  } catch {
    throw new CrawlerError(`kafka+file URL must be kafka+file:///absolute/path/to/folder, got ${url}`, {
      exitCode: ExitCode.USAGE,
    });
  }
  return { source: 'kafka_schemas', redacted: url, secrets: [], folder: path, file: null };
}

/** Every file under the folder, as paths from it with `/` separators. */
async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && FORMAT_OF_EXTENSION[extname(e.name).toLowerCase()] !== undefined)
    .map((e) => relative(folder, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

async function inspect(target: KafkaFolderTarget, options: SourceInspectOptions): Promise<InspectedDatabase> {
  let folder = target.folder;
  let only: string | null = null;
  const info = await stat(folder).catch(() => null);
  if (info === null) throw new CrawlerError(`kafka+file: no file or folder at ${folder}`);
  if (info.isFile()) {
    only = basename(folder);
    folder = dirname(folder);
  }
  const files = await listFiles(folder);
  const texts = new Map<string, string>();
  const problems: { path: string; reason: string }[] = [];
  for (const file of files) {
    throwIfInterrupted(options.signal);
    const path = join(folder, file);
    const size = (await stat(path)).size;
    if (size > MAX_SCHEMA_BYTES) {
      problems.push({
        path,
        reason: `${size} bytes: larger than a schema (${MAX_SCHEMA_BYTES} bytes at most)`,
      });
      continue;
    }
    texts.set(file, await readFile(path, 'utf8'));
  }
  const formatOf = (file: string) => FORMAT_OF_EXTENSION[extname(file).toLowerCase()];
  const referencesFor = (file: string, format: SchemaFormat): ReferencedDocument[] =>
    [...texts]
      .filter(
        ([other]) =>
          other !== file && formatOf(other) === format && (format !== 'avro' || other.includes('/')),
      )
      .map(([other, text]) => ({ name: other, path: join(folder, other), text }));
  const subjects: SubjectSchema[] = [...texts]
    .filter(([file]) => !file.includes('/') && (only === null || file === only))
    .map(([file, text]) => {
      const format = formatOf(file);
      return {
        subject: file.slice(0, -extname(file).length),
        document: { format, path: join(folder, file), text, references: referencesFor(file, format) },
      };
    });
  return inspectSubjects(
    { driver: 'kafka_schemas', product: 'Kafka schemas', version: '', database: folder },
    subjects,
    problems,
    options.filters,
    texts.size,
  );
}

export const kafkaSchemasDriver: SourceDriver<KafkaFolderTarget> = {
  name: 'kafka_schemas',
  schemes: ['kafka+file'],
  flavors: ['avro', 'json_schema', 'protobuf'],
  usage: ['kafka+file:///path/to/folder (.avsc, .json, .proto files; <topic>-value / <topic>-key names)'],
  parse,
  inspect,
};
