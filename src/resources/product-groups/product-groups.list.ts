import { alias } from "drizzle-orm/sqlite-core";
import { productGroups } from "../../db/schema";
import { defineList } from "../../list";

/** The parent of a group, joined to show its code: the list filters on it, the repository joins it. */
export const parentGroups = alias(productGroups, "parent_groups");

export const productGroupList = defineList({
  fields: {
    id: { column: productGroups.id, type: "number", sortable: true },
    code: { column: productGroups.code, type: "text", sortable: true, searchable: true },
    name: { column: productGroups.name, type: "text", sortable: true, searchable: true },
    // Through the join, so `= ?` starts from the parent's unique code and the parent_id index.
    parentCode: { column: parentGroups.code, type: "text", filter: ["$null"] },
  },
});
