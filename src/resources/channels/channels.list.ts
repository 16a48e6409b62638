import { channels } from "../../db/schema";
import { defineList } from "../../list";

export const channelList = defineList({
  fields: {
    id: { column: channels.id, type: "number", sortable: true },
    name: { column: channels.name, type: "text", sortable: true, searchable: true },
    code: { column: channels.code, type: "text", sortable: true, searchable: true },
    isActive: { column: channels.isActive, type: "boolean", sortable: true },
    createdAt: { column: channels.createdAt, type: "datetime", sortable: true },
  },
});
