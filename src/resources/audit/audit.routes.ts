import { requireAdmin } from "../../http/auth";
import { errors, json } from "../../http/openapi";
import { auditList } from "./audit.list";
import { AuditEntryListSchema } from "./audit.schemas";

/** The group of this resource's operations in /doc. */
export const tag = {
  name: "Audit",
  description: "Who changed what and when (admin keys only)",
};

export const list = auditList.route(
  {
    method: "get",
    path: "/v1/api/audit",
    tags: [tag.name],
    operationId: "listAuditEntries",
    summary: "List the audit trail (admin keys only)",
    description:
      "One entry per inserted, updated or deleted row, written in the same D1 batch as the change " +
      "itself (so no committed change is missing and no failed write leaves one): when, which key, " +
      "which operation, which record, and its fields before and after. Links (assignments, " +
      "memberships, prices) are entities of their own; rows removed by a cascade appear as DELETE " +
      "entries of the same request. Writes made outside the API (seed and bulk-load scripts) are " +
      "not recorded; neither are writes that change nothing. `requestId` is the server's id of the " +
      "writing request (its x-request-id response header); `correlationId` is the x-request-id the " +
      "client sent, as given. Entries older than the retention (AUDIT_RETENTION_DAYS, 400 days by " +
      "default) are deleted daily. Read keys get 403: the entries hold every value ever written.",
    responses: {
      200: json(AuditEntryListSchema, "A page of audit entries, newest first by default"),
      ...errors(400, 401, 403),
    },
  },
  requireAdmin("read the audit trail"),
);
