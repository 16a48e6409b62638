import { linkedTo } from "../../db/links";
import { customerLinks } from "../../db/reads";
import { channels, customerGroups, customers } from "../../db/schema";
import { defineList } from "../../list";

const { customerGroupCodes, channelCodes } = customerLinks.links;

/** Customers, here and wherever a list of them is answered (a channel's, a group's, a pricelist's). */
export const customerList = defineList({
  fields: {
    id: { column: customers.id, type: "number", sortable: true },
    code: { column: customers.code, type: "text", sortable: true, searchable: true },
    name: { column: customers.name, type: "text", sortable: true, searchable: true },
    // The members of a group, of a channel: through the membership tables, by their keys.
    customerGroupCode: {
      column: customerGroups.code,
      type: "text",
      filter: ["$eq"],
      through: (match) => linkedTo(customerGroupCodes, customers.id, match),
    },
    channelCode: {
      column: channels.code,
      type: "text",
      filter: ["$eq"],
      through: (match) => linkedTo(channelCodes, customers.id, match),
    },
  },
});
