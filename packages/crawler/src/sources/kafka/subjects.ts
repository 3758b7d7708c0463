// Which topic a subject (a Schema Registry subject, or a schema file's name without its extension)
// describes, following Confluent's subject name strategies (docs/crawler.md, "Kafka schemas"):
// - TopicNameStrategy `<topic>-value` / `<topic>-key`: the topic's value or key schema;
// - RecordNameStrategy `<record full name>`: a record used on topics the registry cannot name: a dataset
//   named after the record, its `topic` attribute the record name until the user corrects it;
// - TopicRecordNameStrategy `<topic>-<record full name>`: one of several record types on the topic: a
//   dataset per subject (its `topic` attribute the topic), as one topic's datasets must differ by name;
// - anything else: the value schema of a topic named like the subject.
import type { SchemaRole } from './schema-columns.js';

export type SubjectStrategy = 'topic_name' | 'record_name' | 'topic_record_name' | 'plain';

export interface SubjectPlace {
  /** The dataset's name and object name. */
  dataset: string;
  topic: string;
  role: SchemaRole;
  strategy: SubjectStrategy;
}

/** Value or key, from the subject's suffix (known before the schema is read). */
export const roleOfSubject = (subject: string): SchemaRole =>
  subject.endsWith('-key') && subject.length > 4 ? 'key' : 'value';

/** The subject's place; `recordName` is the full name of the schema's record (null when it has none). */
export function placeSubject(subject: string, recordName: string | null): SubjectPlace {
  for (const role of ['value', 'key'] as const) {
    const suffix = `-${role}`;
    if (subject.endsWith(suffix) && subject.length > suffix.length) {
      const topic = subject.slice(0, -suffix.length);
      return { dataset: topic, topic, role, strategy: 'topic_name' };
    }
  }
  if (recordName !== null && recordName !== '') {
    if (subject === recordName)
      return { dataset: subject, topic: subject, role: 'value', strategy: 'record_name' };
    const suffix = `-${recordName}`;
    if (subject.endsWith(suffix) && subject.length > suffix.length) {
      return {
        dataset: subject,
        topic: subject.slice(0, -suffix.length),
        role: 'value',
        strategy: 'topic_record_name',
      };
    }
  }
  return { dataset: subject, topic: subject, role: 'value', strategy: 'plain' };
}
