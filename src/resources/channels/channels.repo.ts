import { and, count, eq, getTableColumns, inArray, ne, sql, type SQL } from "drizzle-orm";
import {
  channelCustomerGroups,
  channelCustomers,
  channelPricelists,
  channels,
  customerGroups,
  customers,
  pricelists,
  promotionChannels,
  tradeConditionChannels,
} from "../../db/schema";
import type { Visibility } from "../../db/visibility";
import { blockersOf } from "../../db/blockers";
import { assignByCodes, codeLink, defineLinks, linkedTo, type CodeLink } from "../../db/links";
import { unlessForeignKey } from "../../db/outcomes";
import { insertWhere, linkWhere } from "../../db/writes";
import {
  customerLinks,
  customerPage,
  ownerJoin,
  pricelistColumns,
  selectPricelist,
  type PricelistRow,
} from "../../db/reads";
import { readPage, readPageOf, type ListRequest } from "../../list";
import { isUniqueViolation, type Db } from "../../db/client";
import { conflict } from "../../core/errors";
import { iso } from "../../core/schemas";
import type { ChannelCreate, ChannelUpdate } from "./channels.schemas";

/**
 * Channel columns plus the primary pricelist, read in the same statement. The subquery is plain
 * SQL with qualified names: Drizzle writes columns unqualified in single-table selects and in
 * RETURNING, where `id` would be ambiguous.
 */
const channelColumns = {
  ...getTableColumns(channels),
  primaryPricelistId: sql<number | null>`(select cp.pricelist_id from channel_pricelists cp
    where cp.channel_id = "channels"."id" and cp.is_primary = 1)`,
};

type ChannelRow = typeof channels.$inferSelect & { primaryPricelistId: number | null };

export const toChannel = (row: ChannelRow) => ({
  id: row.id,
  code: row.code,
  name: row.name,
  isActive: row.isActive,
  roundingMode: row.roundingMode,
  primaryPricelistId: row.primaryPricelistId,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export function listChannels(db: Db, list: ListRequest) {
  return readPage(
    db,
    db
      .select(channelColumns)
      .from(channels)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(channels).where(list.where),
  );
}

export const findChannel = (db: Db, code: string): Promise<ChannelRow | undefined> =>
  db.select(channelColumns).from(channels).where(eq(channels.code, code)).get();

const duplicate = (err: unknown, code: string | undefined) =>
  isUniqueViolation(err) ? conflict(`channel code ${code} already exists`) : err;

export async function createChannel(db: Db, input: ChannelCreate): Promise<ChannelRow> {
  try {
    return await db.insert(channels).values(input).returning(channelColumns).get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

export async function updateChannel(
  db: Db,
  code: string,
  input: ChannelUpdate,
): Promise<ChannelRow | undefined> {
  try {
    return await db
      .update(channels)
      .set({ ...input, updatedAt: Date.now() })
      .where(eq(channels.code, code))
      .returning(channelColumns)
      .get();
  } catch (err) {
    throw duplicate(err, input.code);
  }
}

/**
 * Memberships and pricelist assignments cascade; trade conditions and promotions restrict, which
 * answers FOREIGN_KEY.
 */
export const deleteChannel = (db: Db, code: string) =>
  unlessForeignKey(() =>
    db.delete(channels).where(eq(channels.code, code)).returning({ id: channels.id }).get(),
  );

/** What names a channel and so keeps it from being deleted (its assignments go with it). */
export const readChannelBlockers = blockersOf(channels, [
  {
    kind: "tradeCondition",
    noun: "trade condition",
    column: tradeConditionChannels.channelId,
    shown: tradeConditionChannels.tradeConditionId,
  },
  {
    kind: "promotion",
    noun: "promotion",
    column: promotionChannels.channelId,
    shown: promotionChannels.promotionId,
  },
]);

const selectChannelId = (db: Db, code: string) =>
  db.select({ id: channels.id }).from(channels).where(eq(channels.code, code));

export const findChannelId = async (db: Db, code: string) =>
  (await selectChannelId(db, code).get())?.id;

/** The channel's customer groups and customers, assigned and unassigned by code. */
export const channelLinks = defineLinks(channels.id, {
  customerGroupCodes: codeLink(
    channelCustomerGroups.channelId,
    channelCustomerGroups.customerGroupId,
    customerGroups,
    "customer group",
  ),
  customerCodes: codeLink(
    channelCustomers.channelId,
    channelCustomers.customerId,
    customers,
    "customer",
  ),
});

/** The channel's id and the pricelist, in one round trip; either is undefined when unknown. */
export async function findChannelAndPricelist(db: Db, code: string, pricelistId: number) {
  const [channel, pricelist] = await db.batch([
    selectChannelId(db, code),
    selectPricelist(db, pricelistId),
  ]);
  return { channelId: channel[0]?.id, pricelist: pricelist[0] as PricelistRow | undefined };
}

/** Bulk assignment by codes; FOREIGN_KEY when the channel was deleted after its check. */
export const assignToChannel = (db: Db, link: CodeLink, channelId: number, codes: string[]) =>
  unlessForeignKey(() => assignByCodes(db, link, channelId, codes));

/**
 * Idempotent: an existing assignment (with or without the primary mark) is left as it is. Written
 * only while `guard` (the pricelist's rule) holds: whether it was written.
 */
export const assignChannelPricelist = (
  db: Db,
  channelId: number,
  pricelistId: number,
  guard: SQL,
) => linkWhere(db, channelPricelists, { channelId, pricelistId }, guard);

/**
 * One batch: clear another pricelist's mark, assign the pricelist already marked if it was not
 * assigned, mark it if it was, read the channel back. Clear first: `channel_pricelists_one_primary`
 * allows one marked row per channel at a time. Each statement touches only rows it changes, so
 * setting the current primary again writes nothing: no audit entry, no new pricing version (the
 * triggers fire per changed row). The previously marked pricelist stays assigned. Every statement
 * carries `guard` (the pricelist's rule): when it fails nothing is written and the channel is not
 * read back (undefined; the caller judges again).
 */
export const setPrimaryPricelist = (db: Db, channelId: number, pricelistId: number, guard: SQL) =>
  unlessForeignKey(async () => {
    const link = channelPricelists;
    const ofChannel = eq(link.channelId, channelId);
    const [, , , channel] = await db.batch([
      db
        .update(link)
        .set({ isPrimary: false })
        .where(and(ofChannel, eq(link.isPrimary, true), ne(link.pricelistId, pricelistId), guard)),
      insertWhere(db, link, { channelId, pricelistId, isPrimary: true }, guard).onConflictDoNothing(
        { target: [link.channelId, link.pricelistId] },
      ),
      db
        .update(link)
        .set({ isPrimary: true })
        .where(and(ofChannel, eq(link.pricelistId, pricelistId), eq(link.isPrimary, false), guard)),
      db
        .select(channelColumns)
        .from(channels)
        .where(and(eq(channels.id, channelId), guard)),
    ]);
    return channel[0] as ChannelRow | undefined;
  });

/** Removes the mark, keeps the assignment. One round trip; false when the channel is unknown. */
export async function clearPrimaryPricelist(db: Db, code: string): Promise<boolean> {
  const channelId = () =>
    db.select({ id: channels.id }).from(channels).where(eq(channels.code, code));
  const [channel] = await db.batch([
    channelId(),
    db
      .update(channelPricelists)
      .set({ isPrimary: false })
      .where(
        and(
          inArray(channelPricelists.channelId, channelId()),
          eq(channelPricelists.isPrimary, true),
        ),
      ),
  ]);
  return channel.length > 0;
}

// ---- read-outs: what was assigned to a channel ----

/** The channel's own customers (not expanded through its groups); undefined if no such channel. */
export const listChannelCustomers = (db: Db, code: string, list: ListRequest) =>
  readPageOf(
    db,
    selectChannelId(db, code),
    ...customerPage(
      db,
      and(
        linkedTo(customerLinks.links.channelCodes, customers.id, eq(channels.code, code)),
        list.where,
      ),
      list,
    ),
  );

/** channelLinks the other way round: a group's channels, to find the groups of a channel. */
const groupChannels = codeLink(
  channelCustomerGroups.customerGroupId,
  channelCustomerGroups.channelId,
  channels,
  "channel",
);

/** The customer groups assigned to the channel; undefined if no such channel. */
export function listChannelCustomerGroups(db: Db, code: string, list: ListRequest) {
  const where = and(
    linkedTo(groupChannels, customerGroups.id, eq(channels.code, code)),
    list.where,
  );
  return readPageOf(
    db,
    selectChannelId(db, code),
    db
      .select()
      .from(customerGroups)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(customerGroups).where(where),
  );
}

export type ChannelPricelistRow = PricelistRow & { isPrimary: boolean };

/**
 * The pricelists assigned to the channel that the key sees (docs/api/access.md §18), each with its
 * primary mark; undefined if no such channel.
 */
export function listChannelPricelists(db: Db, code: string, list: ListRequest, scope: Visibility) {
  const link = channelPricelists;
  const where = and(
    inArray(link.channelId, selectChannelId(db, code)),
    list.where,
    scope.pricelists,
  );
  const assigned = eq(pricelists.id, link.pricelistId);
  return readPageOf(
    db,
    selectChannelId(db, code),
    db
      .select({ ...pricelistColumns, isPrimary: link.isPrimary })
      .from(link)
      .innerJoin(pricelists, assigned)
      .leftJoin(customers, ownerJoin)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(link).innerJoin(pricelists, assigned).where(where),
  );
}
