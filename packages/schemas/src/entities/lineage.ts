import { z } from 'zod';
import { FieldTransformationSchema } from './dataset-link.js';

export const LINEAGE_DIRECTIONS = ['upstream', 'downstream', 'both'] as const;
export type LineageDirection = (typeof LINEAGE_DIRECTIONS)[number];

export const LINEAGE_DEFAULT_DEPTH = 3;
export const LINEAGE_MAX_DEPTH = 20;
export const LINEAGE_DEFAULT_PAGE_SIZE = 500;
export const LINEAGE_MAX_PAGE_SIZE = 1000;

/** The query of a graph read: which way, how many hops, which page of nodes. Unknown keys are a 422. */
export const LineageQuerySchema = z
  .strictObject({
    direction: z.enum(LINEAGE_DIRECTIONS).default('both'),
    depth: z.coerce.number().int().min(1).max(LINEAGE_MAX_DEPTH).default(LINEAGE_DEFAULT_DEPTH),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    size: z.coerce.number().int().min(1).max(LINEAGE_MAX_PAGE_SIZE).default(LINEAGE_DEFAULT_PAGE_SIZE),
  })
  .meta({ id: 'LineageQuery' });
export type LineageQuery = z.output<typeof LineageQuerySchema>;
export type LineageQueryInput = z.input<typeof LineageQuerySchema>;

/** Hops from the root: null when the node is not reached that way (the root is 0 both ways it is walked). */
const distances = {
  upstream_depth: z.int().nullable(),
  downstream_depth: z.int().nullable(),
};

/**
 * Paging of a graph: nodes are ordered by distance from the root (then id), `size` per page; an edge is
 * on the page of whichever of its two nodes comes later, so the pages together hold every node and edge
 * once, and each page's edges connect nodes of that page or of earlier ones.
 */
const graphPage = {
  root_id: z.uuid(),
  direction: z.enum(LINEAGE_DIRECTIONS),
  depth: z.int(),
  page: z.int(),
  size: z.int(),
  pages: z.int(),
  total_nodes: z.int(),
  total_edges: z.int(),
};

export const DatasetLineageNodeSchema = z
  .object({
    id: z.uuid(),
    object_name: z.string(),
    kind: z.string(),
    layer: z.string().nullable(),
    system_id: z.uuid(),
    ...distances,
  })
  .meta({ id: 'DatasetLineageNode' });

export const DatasetLineageEdgeSchema = z
  .object({
    id: z.uuid().describe('The dataset link'),
    source_id: z.uuid(),
    target_id: z.uuid(),
    engine_id: z.uuid().nullable(),
  })
  .meta({ id: 'DatasetLineageEdge' });

export const DatasetLineageGraphSchema = z
  .object({
    ...graphPage,
    nodes: z.array(DatasetLineageNodeSchema),
    edges: z.array(DatasetLineageEdgeSchema),
  })
  .meta({ id: 'DatasetLineageGraph' });
export type DatasetLineageGraph = z.infer<typeof DatasetLineageGraphSchema>;

export const FieldLineageNodeSchema = z
  .object({
    id: z.uuid(),
    dataset_id: z.uuid(),
    name: z.string(),
    origin: z.string(),
    ...distances,
  })
  .meta({ id: 'FieldLineageNode' });

export const FieldLineageEdgeSchema = z
  .object({
    id: z.uuid().describe('The field link'),
    dataset_link_id: z.uuid(),
    source_id: z.uuid(),
    target_id: z.uuid(),
    transformations: z
      .array(FieldTransformationSchema)
      .describe(
        'How the source feeds the target; a target with several sources has one edge each (ADR 0052)',
      ),
  })
  .meta({ id: 'FieldLineageEdge' });

export const FieldLineageGraphSchema = z
  .object({
    ...graphPage,
    nodes: z.array(FieldLineageNodeSchema),
    edges: z.array(FieldLineageEdgeSchema),
  })
  .meta({ id: 'FieldLineageGraph' });
export type FieldLineageGraph = z.infer<typeof FieldLineageGraphSchema>;
