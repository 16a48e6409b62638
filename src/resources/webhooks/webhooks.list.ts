import { webhookDeliveries, webhooks } from "../../db/schema";
import { defineList } from "../../list";
import { DELIVERY_OUTCOMES } from "../../pricing/vocabulary";

export const webhookList = defineList({
  fields: {
    id: { column: webhooks.id, type: "number", sortable: true },
    url: { column: webhooks.url, type: "text", searchable: true },
    active: { column: webhooks.active, type: "boolean", filter: [] },
  },
});

export const deliveryList = defineList({
  fields: {
    id: { column: webhookDeliveries.id, type: "number", sortable: true },
    at: { column: webhookDeliveries.at, type: "datetime", filter: ["$gte", "$lte"] },
    outcome: { column: webhookDeliveries.outcome, type: DELIVERY_OUTCOMES, filter: [] },
    deliveryId: { column: webhookDeliveries.deliveryId, type: "text", filter: [] },
  },
});
