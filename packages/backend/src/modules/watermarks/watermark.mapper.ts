import type { Watermark, WatermarkHistoryEntry } from '@aide/schemas';
import type { HistoryRow, WatermarkRow } from './watermarks.repository.js';

export function toWatermark(row: WatermarkRow): Watermark {
  return {
    dataflow_id: row.dataflow_id,
    current_value: row.current_value,
    previous_value: row.previous_value,
    job_id: row.job_id,
    dataflow_run_id: row.dataflow_run_id,
    updated_at: row.updated_at ? row.updated_at.toISOString() : null,
    revision: Number(row.revision),
  };
}

export function toHistoryEntry(row: HistoryRow): WatermarkHistoryEntry {
  return {
    dataflow_id: row.dataflow_id,
    revision: row.revision,
    value: row.value,
    job_id: row.job_id,
    dataflow_run_id: row.dataflow_run_id,
    written_at: row.written_at.toISOString(),
    written_by: row.written_by,
  };
}
