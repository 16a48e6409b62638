import { customerGroups } from "../../db/schema";
import { defineList } from "../../list";

export const customerGroupList = defineList({
  fields: {
    id: { column: customerGroups.id, type: "number", sortable: true },
    code: { column: customerGroups.code, type: "text", sortable: true, searchable: true },
    name: { column: customerGroups.name, type: "text", sortable: true, searchable: true },
  },
});
