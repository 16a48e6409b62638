import { iso } from "../../lib/core/schemas";
import type { ChangeRequestRow, FoundRequest, StoredItem } from "./change-requests.repo";
import type { ChangeRequestItem, Impact } from "./change-requests.schemas";

/* How a change request reads in an answer (docs/api.md §17), as the asking key sees it. */

export const toItem = (stored: StoredItem) =>
  ({ kind: stored.kind, ...stored.body }) as ChangeRequestItem;

/** The key names that wrote the request: its author and every key that PATCHed it. */
export const writersOf = (row: ChangeRequestRow) => JSON.parse(row.editors) as string[];

/**
 * Four eyes (docs/api.md §17.2): a key that wrote the request may not approve it. The one
 * judgement, for approve's 403 and for the answer's `writtenByCaller`.
 */
export const wroteIt = (row: ChangeRequestRow, keyName: string) => writersOf(row).includes(keyName);

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** The request's fields as `keyName` asks for them (`writtenByCaller` is about that key). */
const fieldsOf = (row: ChangeRequestRow, keyName: string) => ({
  id: row.id,
  title: row.title,
  status: row.status,
  effectiveAt: isoOrNull(row.effectiveAt),
  author: row.author,
  writers: writersOf(row),
  writtenByCaller: wroteIt(row, keyName),
  submittedAt: isoOrNull(row.submittedAt),
  approvedBy: row.approvedBy,
  approvedAt: isoOrNull(row.approvedAt),
  appliedAt: isoOrNull(row.appliedAt),
  rejectedBy: row.rejectedBy,
  rejectionReason: row.rejectionReason,
  impact: row.impact === null ? null : (JSON.parse(row.impact) as Impact),
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const toChangeRequest = ({ row, items }: FoundRequest, keyName: string) => ({
  ...fieldsOf(row, keyName),
  items: items.map(toItem),
});

export const toChangeRequestSummary = (
  row: ChangeRequestRow,
  itemCount: number,
  keyName: string,
) => ({
  ...fieldsOf(row, keyName),
  itemCount,
});
