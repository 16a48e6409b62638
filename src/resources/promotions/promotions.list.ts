import { promotions } from "../../db/schema";
import { defineList } from "../../list";

export const promotionList = defineList({
  fields: {
    id: { column: promotions.id, type: "number", sortable: true },
    name: { column: promotions.name, type: "text", sortable: true, searchable: true },
    status: { column: promotions.status, type: promotions.status.enumValues, filter: [] },
  },
});
