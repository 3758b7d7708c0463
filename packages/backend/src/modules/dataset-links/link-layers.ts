import { linkLayerOrder } from '@aide/schemas';
import { AppError } from '../../common/errors/app-error.js';

/**
 * The lineage direction of a hop (AIDE v2 §4.8), as an error: both datasets layered, the target's layer
 * strictly after the source's. Links and lake syncs apply it; the rule itself is `linkLayerOrder`.
 */
export function assertLinkLayers(sourceLayer: string | null, targetLayer: string | null): void {
  const order = linkLayerOrder(sourceLayer, targetLayer);
  if (order === 'ordered') return;
  throw new AppError(
    order === 'missing' ? 'DATASET_LINK_LAYER_MISSING' : 'DATASET_LINK_LAYER_ORDER',
    undefined,
    {
      source_layer: sourceLayer,
      target_layer: targetLayer,
    },
  );
}
