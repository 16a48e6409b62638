import { eq, sql, type SQL } from "drizzle-orm";
import { QueryBuilder, unionAll } from "drizzle-orm/sqlite-core";
import {
  channelCustomers,
  channels,
  customerGroupMembers,
  customerGroups,
  customers,
  tradeConditionChannels,
  tradeConditionCustomerGroups,
  tradeConditionCustomers,
  tradeConditions,
} from "../../db/schema";
import type { ConditionScope } from "../../pricing/vocabulary";

// The links through which conditions reach a customer (seed endpoint 2). A module of its own
// because two name its columns: the repository reads the rows, the list config sorts by its id.

// Built once with the standalone query builder: the derived table does not depend on the request;
// the customer is chosen by the outer query's WHERE.
const qb = new QueryBuilder();

/** The columns every arm yields; alias names differ from trade_conditions' columns because
 * Drizzle writes subquery fields unqualified in the outer query. */
const linkArm = (kind: ConditionScope, id: SQL, viaCode: SQL, tradeConditionId: SQL) => ({
  id: sql<number>`${id}`.as("link_id"),
  customerCode: sql<string>`${customers.code}`.as("link_customer_code"),
  kind: sql<ConditionScope>`${kind}`.as("link_kind"),
  viaCode: sql<string | null>`${viaCode}`.as("link_via_code"),
  tradeConditionId: sql<number>`${tradeConditionId}`.as("link_trade_condition_id"),
});

/**
 * Every (customer, condition) link of every kind, as one UNION ALL derived table. `id` is
 * 4 × the id of the row that makes the link + k (k = 0 CUSTOMER, 1 CUSTOMER_GROUP, 2 CHANNEL;
 * GLOBAL: 4 × the condition id + 3), so it is unique within a customer's list and stays the same
 * * while other rows come and go, also through VACUUM (link ids are INTEGER PRIMARY KEYs, migration
 * 0006). SQLite pushes the outer `link_customer_code = ?` down into each
 * arm, so each arm starts from the customers.code index. Whether a link counts (its kind must be
 * the condition's scope) is decided by the outer query, where the condition is joined anyway.
 */
export const links = unionAll(
  qb
    .select(
      linkArm(
        "CUSTOMER",
        sql`${tradeConditionCustomers.id} * 4`,
        sql`${customers.code}`,
        sql`${tradeConditionCustomers.tradeConditionId}`,
      ),
    )
    .from(tradeConditionCustomers)
    .innerJoin(customers, eq(customers.id, tradeConditionCustomers.customerId)),
  qb
    .select(
      linkArm(
        "CUSTOMER_GROUP",
        sql`${tradeConditionCustomerGroups.id} * 4 + 1`,
        sql`${customerGroups.code}`,
        sql`${tradeConditionCustomerGroups.tradeConditionId}`,
      ),
    )
    .from(tradeConditionCustomerGroups)
    .innerJoin(
      customerGroupMembers,
      eq(customerGroupMembers.customerGroupId, tradeConditionCustomerGroups.customerGroupId),
    )
    .innerJoin(customers, eq(customers.id, customerGroupMembers.customerId))
    .innerJoin(customerGroups, eq(customerGroups.id, tradeConditionCustomerGroups.customerGroupId)),
  qb
    .select(
      linkArm(
        "CHANNEL",
        sql`${tradeConditionChannels.id} * 4 + 2`,
        sql`${channels.code}`,
        sql`${tradeConditionChannels.tradeConditionId}`,
      ),
    )
    .from(tradeConditionChannels)
    .innerJoin(channelCustomers, eq(channelCustomers.channelId, tradeConditionChannels.channelId))
    .innerJoin(customers, eq(customers.id, channelCustomers.customerId))
    .innerJoin(channels, eq(channels.id, tradeConditionChannels.channelId)),
  qb
    .select(
      linkArm("GLOBAL", sql`${tradeConditions.id} * 4 + 3`, sql`null`, sql`${tradeConditions.id}`),
    )
    .from(tradeConditions)
    .crossJoin(customers)
    .where(eq(tradeConditions.scope, "GLOBAL")),
).as("links");
