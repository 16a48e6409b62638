import { tradeConditions } from "../../db/schema";
import { defineList } from "../../list";
import { links } from "./customer-links";

export const tradeConditionList = defineList({
  fields: {
    id: { column: tradeConditions.id, type: "number", sortable: true },
    name: { column: tradeConditions.name, type: "text", sortable: true, searchable: true },
    scope: { column: tradeConditions.scope, type: tradeConditions.scope.enumValues, filter: [] },
    status: { column: tradeConditions.status, type: tradeConditions.status.enumValues, filter: [] },
    validFrom: { column: tradeConditions.validFrom, type: "datetime", filter: ["$gte", "$lte"] },
    validTo: { column: tradeConditions.validTo, type: "datetime", filter: ["$gte", "$lte"] },
    discountType: {
      column: tradeConditions.discountType,
      type: tradeConditions.discountType.enumValues,
      filter: [],
    },
    type: { column: tradeConditions.type, type: tradeConditions.type.enumValues, filter: [] },
  },
});

/** GET /v1/api/customer/{code}/trade-conditions: one item per link that reaches the customer. */
export const customerTradeConditionList = defineList({
  fields: {
    id: { column: links.id, type: "number", sortable: true },
    "tradeCondition.type": { column: tradeConditions.type, type: "text", searchable: true },
    scope: {
      column: tradeConditions.scope,
      type: tradeConditions.scope.enumValues,
      filter: ["$not"],
    },
    status: { column: tradeConditions.status, type: tradeConditions.status.enumValues, filter: [] },
  },
});
