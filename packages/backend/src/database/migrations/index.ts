import { Foundation1764600000000 } from './1764600000000-Foundation.js';
import { Catalogue1764700000000 } from './1764700000000-Catalogue.js';
import { IdempotencyKeys1764800000000 } from './1764800000000-IdempotencyKeys.js';
import { CrawlerStructure1765200000000 } from './1765200000000-CrawlerStructure.js';
import { Engines1765300000000 } from './1765300000000-Engines.js';
import { DatasetLinks1765310000000 } from './1765310000000-DatasetLinks.js';
import { Search1765400000000 } from './1765400000000-Search.js';
import { SearchColumns1765550000000 } from './1765550000000-SearchColumns.js';
import { Provider1765600000000 } from './1765600000000-Provider.js';
import { TokenStateNotify1765700000000 } from './1765700000000-TokenStateNotify.js';
import { TechFieldTemplates1765800000000 } from './1765800000000-TechFieldTemplates.js';
import { OpenLineageEvents1766000000000 } from './1766000000000-OpenLineageEvents.js';
import { ScaleIndexes1766100000000 } from './1766100000000-ScaleIndexes.js';
import { FieldNameVocabulary1766110000000 } from './1766110000000-FieldNameVocabulary.js';
import { SchemaVersionReadShapes1766200000000 } from './1766200000000-SchemaVersionReadShapes.js';
import { SchemaHintOverrides1766210000000 } from './1766210000000-SchemaHintOverrides.js';
import { SearchNameStatistics1766220000000 } from './1766220000000-SearchNameStatistics.js';
import { ListSortIndexes1766230000000 } from './1766230000000-ListSortIndexes.js';
import { ReadShapeFingerprints1766240000000 } from './1766240000000-ReadShapeFingerprints.js';
import { FieldWordsByName1766260000000 } from './1766260000000-FieldWordsByName.js';
import { DropFieldsSearchIndex1766270000000 } from './1766270000000-DropFieldsSearchIndex.js';
import { ApiKeyScopes1766310000000 } from './1766310000000-ApiKeyScopes.js';
import { CastMatrix1766320000000 } from './1766320000000-CastMatrix.js';
import { DatasetFlavors1766330000000 } from './1766330000000-DatasetFlavors.js';
import { DataCoolieFidelity1766500000000 } from './1766500000000-DataCoolieFidelity.js';
import { CompatibilityLevels1766400000000 } from './1766400000000-CompatibilityLevels.js';
import { ColumnLineageManyToOne1766600000000 } from './1766600000000-ColumnLineageManyToOne.js';
import { OpenLineageEventKinds1766610000000 } from './1766610000000-OpenLineageEventKinds.js';
import { LineageJobsRuns1766620000000 } from './1766620000000-LineageJobsRuns.js';
import { LineageObservations1766630000000 } from './1766630000000-LineageObservations.js';
import { OpenLineageEventWrittenOnce1766650000000 } from './1766650000000-OpenLineageEventWrittenOnce.js';
import { CrawlRunDatasets1766660000000 } from './1766660000000-CrawlRunDatasets.js';

/** Every migration in order. Listed explicitly: ESM builds cannot rely on TypeORM's glob loading. */
export const MIGRATIONS = [
  Foundation1764600000000,
  Catalogue1764700000000,
  IdempotencyKeys1764800000000,
  CrawlerStructure1765200000000,
  Engines1765300000000,
  DatasetLinks1765310000000,
  Search1765400000000,
  SearchColumns1765550000000,
  Provider1765600000000,
  TokenStateNotify1765700000000,
  TechFieldTemplates1765800000000,
  OpenLineageEvents1766000000000,
  ScaleIndexes1766100000000,
  FieldNameVocabulary1766110000000,
  SchemaVersionReadShapes1766200000000,
  SchemaHintOverrides1766210000000,
  SearchNameStatistics1766220000000,
  ListSortIndexes1766230000000,
  ReadShapeFingerprints1766240000000,
  FieldWordsByName1766260000000,
  DropFieldsSearchIndex1766270000000,
  ApiKeyScopes1766310000000,
  CastMatrix1766320000000,
  DatasetFlavors1766330000000,
  CompatibilityLevels1766400000000,
  DataCoolieFidelity1766500000000,
  ColumnLineageManyToOne1766600000000,
  OpenLineageEventKinds1766610000000,
  LineageJobsRuns1766620000000,
  LineageObservations1766630000000,
  OpenLineageEventWrittenOnce1766650000000,
  CrawlRunDatasets1766660000000,
];
