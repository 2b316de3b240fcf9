/** Sheet selection (Excel workbook inputs). */
import type { SheetSelectionRead, SheetSelectionUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET /selected-sheet/{jobId}; the update goes to POST /fields/{jobId} (seed, note 6). */
export class Sheet extends Resource {
  /** The selected sheet, its confidence and the available sheets. */
  get(jobId: string, o?: CallOptions) { return this.client.get<SheetSelectionRead>(path`/selected-sheet/${jobId}`, o); }
  /** Selects a sheet; the seed addresses this update to the fields path. */
  update(jobId: string, body: SheetSelectionUpdate, o?: CallOptions) { return this.client.post<unknown>(path`/fields/${jobId}`, { body, expect: 'lenient', ...o }); }
}
