import { changeRequests } from "../../db/schema";
import { defineList } from "../../list";
import { CHANGE_REQUEST_STATUSES } from "../../pricing/vocabulary";

/** GET /v1/api/change-requests (docs/list-queries.md §10): newest first by default. */
export const changeRequestList = defineList({
  fields: {
    id: { column: changeRequests.id, type: "number", sortable: true },
    effectiveAt: { column: changeRequests.effectiveAt, type: "datetime", sortable: true },
    status: { column: changeRequests.status, type: CHANGE_REQUEST_STATUSES, filter: [] },
  },
  defaultSortBy: [["id", "DESC"]],
});
