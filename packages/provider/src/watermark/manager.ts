// `WatermarkManager` (reference §5.3): the codec plus storage boundary. Providers store and return
// raw text; decoding and encoding happen here only.
import { WatermarkError } from '@aide/schemas/datacoolie';
import type { UpdateWatermarkOptions } from '../base-provider.js';
import { deserializeWatermark, serializeWatermark } from './serializer.js';
import type { Watermark } from './values.js';

/** What the manager needs from a provider. */
export interface WatermarkStore {
  getWatermark(dataflowId: string): Promise<string | null>;
  updateWatermark(
    dataflowId: string,
    watermarkValue: string,
    options?: UpdateWatermarkOptions,
  ): Promise<void>;
  validateWatermarkStorage(): Promise<void>;
}

export class WatermarkManager {
  constructor(private readonly provider: WatermarkStore) {}

  async validateReady(): Promise<void> {
    await this.provider.validateWatermarkStorage();
  }

  /** The decoded watermark, or null when none (or an empty one) is stored. Corrupt text is an error. */
  async getWatermark(dataflowId: string): Promise<Watermark | null> {
    let text: string | null;
    try {
      text = await this.provider.getWatermark(dataflowId);
    } catch (error) {
      if (error instanceof WatermarkError) throw error;
      throw new WatermarkError(`Failed to load watermark for dataflow ${dataflowId}`, {}, { cause: error });
    }
    if (text === null) return null;
    let watermark: Watermark;
    try {
      watermark = deserializeWatermark(text);
    } catch (error) {
      throw new WatermarkError(`Invalid stored watermark for dataflow ${dataflowId}`, {}, { cause: error });
    }
    return Object.keys(watermark).length === 0 ? null : watermark;
  }

  /** Encodes and stores the watermark as given; it neither reads nor merges the stored state. */
  async saveWatermark(
    dataflowId: string,
    watermark: Watermark,
    options: UpdateWatermarkOptions = {},
  ): Promise<void> {
    try {
      const text = serializeWatermark(watermark);
      await this.provider.updateWatermark(dataflowId, text, options);
    } catch (error) {
      if (error instanceof WatermarkError) throw error;
      throw new WatermarkError(`Failed to save watermark for dataflow ${dataflowId}`, {}, { cause: error });
    }
  }
}
