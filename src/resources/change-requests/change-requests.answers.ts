import { iso } from "../../core/schemas";
import { writerFields } from "../../core/writers";
import type { ChangeRequestRow, FoundRequest, StoredItem } from "./change-requests.repo";
import type { ChangeRequestItem, Impact } from "./change-requests.schemas";

/*
 * How a change request reads in an answer (docs/api/change-requests.md §17), as the asking key sees
 * it.
 */

export const toItem = (stored: StoredItem) =>
  ({ kind: stored.kind, ...stored.body }) as ChangeRequestItem;

const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** The request's fields as a key of `owner` asks for them (`writtenByCaller` is about it). */
const fieldsOf = (row: ChangeRequestRow, owner: string) => ({
  id: row.id,
  title: row.title,
  status: row.status,
  effectiveAt: isoOrNull(row.effectiveAt),
  author: row.author,
  ...writerFields(row.editors, owner),
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
