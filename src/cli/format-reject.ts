/** One rejected row or emptied cell as a line of text (plan's preview). */
import { entriesInOrder } from '../contract/json.js';
import type { RejectView } from '../engine/rejects.js';

/** `row 3: missingValues (additional) on email: id=1003, email=, ...`; an emptied cell shows its original text. */
export function formatReject(reject: RejectView): string {
  const what = reject.origin === 'dataType'
    ? `${JSON.stringify(reject.original)} is not a ${reject.rule} in ${reject.fields.join(', ')} (emptied)`
    : reject.origin === 'units'
      ? `${JSON.stringify(reject.original)} in ${reject.fields.join(', ')} is out of range once converted ${reject.rule} (emptied)`
      : `${reject.rule} (${reject.origin}) on ${reject.fields.join(', ')}`;
  const values = entriesInOrder(reject.values).map(([k, v]) => `${k}=${v ?? ''}`).join(', ');
  return `row ${reject.row}: ${what}: ${values}`;
}
