import { iso } from "../../core/schemas";
import type { ChangeRequestRow, FoundRequest, StoredItem } from "./change-requests.repo";
import type { ChangeRequestItem, Impact } from "./change-requests.schemas";

/*
 * How a change request reads in an answer (docs/api/change-requests.md §17), as the asking key sees
 * it.
 */

export const toItem = (stored: StoredItem) =>
  ({ kind: stored.kind, ...stored.body }) as ChangeRequestItem;

/** The owners of the keys that wrote the request: its author and every one that PATCHed it. */
export const writersOf = (row: ChangeRequestRow) => JSON.parse(row.editors) as string[];

/**
 * Four eyes (docs/api/change-requests.md §17.2): no key of an owner that wrote the request may
 * approve it (a rotated key is still its owner's). The one judgement, for approve's 403 and for the
 * answer's `writtenByCaller`.
 */
export const wroteIt = (row: ChangeRequestRow, owner: string) => writersOf(row).includes(owner);

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** The request's fields as a key of `owner` asks for them (`writtenByCaller` is about it). */
const fieldsOf = (row: ChangeRequestRow, owner: string) => ({
  id: row.id,
  title: row.title,
  status: row.status,
  effectiveAt: isoOrNull(row.effectiveAt),
  author: row.author,
  writers: writersOf(row),
  writtenByCaller: wroteIt(row, owner),
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

export const toChangeRequest = ({ row, items }: FoundRequest, owner: string) => ({
  ...fieldsOf(row, owner),
  items: items.map(toItem),
});

export const toChangeRequestSummary = (
  row: ChangeRequestRow,
  itemCount: number,
  owner: string,
) => ({
  ...fieldsOf(row, owner),
  itemCount,
});
