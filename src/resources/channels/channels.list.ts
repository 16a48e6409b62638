import { channelPricelists, channels } from "../../db/schema";
import { defineList } from "../../list";
import { pricelistsList } from "../pricelists/pricelists.list";

export const channelList = defineList({
  fields: {
    id: { column: channels.id, type: "number", sortable: true },
    name: { column: channels.name, type: "text", sortable: true, searchable: true },
    code: { column: channels.code, type: "text", sortable: true, searchable: true },
    isActive: { column: channels.isActive, type: "boolean", sortable: true },
    createdAt: { column: channels.createdAt, type: "datetime", sortable: true },
  },
});

/** GET /v1/api/channel/{code}/pricelists: the pricelist list's fields and the mark. */
export const channelPricelistList = defineList({
  fields: {
    ...pricelistsList.config.fields,
    isPrimary: { column: channelPricelists.isPrimary, type: "boolean", filter: ["$eq"] },
  },
});
