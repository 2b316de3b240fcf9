/** Sheet selection (Excel workbook inputs). */
import type { SheetSelectionRead, SheetSelectionUpdate } from '../../contract/index.js';
import type { CallOptions } from '../client.js';
import { path } from '../path.js';
import { Resource } from '../resource.js';

/** GET /selected-sheet/{jobId}; the update goes to POST /fields/{jobId} (seed, note 6). */
export class Sheet extends Resource {
  /** The selected sheet, its confidence and the available sheets; null when the job has none (not a workbook). */
  get(jobId: string, o?: CallOptions): Promise<SheetSelectionRead | null> {
    return this.getWithBody(jobId, o).then((r) => (r.value.sheetSelection ? { sheetSelection: r.value.sheetSelection } : null));
  }
  /** The read with the service's body as it was sent; `sheetSelection` null when the job has none. */
  getWithBody(jobId: string, o?: CallOptions) { return this.client.read('sheet', path`/selected-sheet/${jobId}`, o); }
  /** Selects a sheet; the seed addresses this update to the fields path. */
  update(jobId: string, body: SheetSelectionUpdate, o?: CallOptions) { return this.client.update('sheet', path`/fields/${jobId}`, body, o); }
}
