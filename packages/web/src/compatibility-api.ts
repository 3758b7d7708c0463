import type {
  CompatibilityCheck,
  DatasetCompatibility,
  PublishSchemaVersion,
  TranslateQuery,
  Translation,
} from '@aide/schemas';
import type { AideClient } from '@aide/sdk';

// The SDK calls of the compatibility and translation routes (ADR 0048, issue 25), in one place.

interface Calls {
  compatibility(id: string): Promise<DatasetCompatibility>;
  checkSchemaVersion(id: string, body: PublishSchemaVersion): Promise<CompatibilityCheck>;
  translateSchemaVersion(id: string, num: number, query: TranslateQuery): Promise<Translation>;
}
const calls = (client: AideClient) => client.datasets as unknown as Calls;

/** `GET /datasets/{id}/compatibility`. */
export const datasetCompatibility = async (client: AideClient, datasetId: string) =>
  calls(client).compatibility(datasetId);

/** `POST /datasets/{id}/schema-versions/check`: writes nothing. */
export const checkSchemaVersion = async (client: AideClient, datasetId: string, body: PublishSchemaVersion) =>
  calls(client).checkSchemaVersion(datasetId, body);

/** `GET /datasets/{id}/versions/{num}/translate`. */
export const translateSchemaVersion = async (
  client: AideClient,
  datasetId: string,
  versionNum: number,
  query: TranslateQuery,
) => calls(client).translateSchemaVersion(datasetId, versionNum, query);
