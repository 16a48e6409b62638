import { count, eq, getTableColumns, sql } from "drizzle-orm";
import { channelCustomerGroups, channels, customerGroups } from "../../db/schema";
import type { LinkSpec } from "../../db/links";
import { defineList, readPage, type ListRequest } from "../../list";
import { isForeignKeyViolation, isUniqueViolation, type Db } from "../../lib/db";
import { conflict } from "../../lib/errors";
import { iso } from "../../lib/schemas";
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
  primaryPricelistId: row.primaryPricelistId,
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export const channelList = defineList({
  fields: {
    id: { column: channels.id, type: "number", sortable: true },
    name: { column: channels.name, type: "text", sortable: true, searchable: true },
    code: { column: channels.code, type: "text", sortable: true, searchable: true },
    isActive: { column: channels.isActive, type: "boolean", sortable: true },
    createdAt: { column: channels.createdAt, type: "datetime", sortable: true },
  },
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

/** Memberships and pricelist assignments cascade; trade conditions and promotions restrict. */
export async function deleteChannel(db: Db, code: string) {
  try {
    return await db
      .delete(channels)
      .where(eq(channels.code, code))
      .returning({ id: channels.id })
      .get();
  } catch (err) {
    if (!isForeignKeyViolation(err)) throw err;
    throw conflict(
      `channel ${code} is named by a trade condition or promotion; remove it there first`,
    );
  }
}

export const findChannelId = async (db: Db, code: string) =>
  (await db.select({ id: channels.id }).from(channels).where(eq(channels.code, code)).get())?.id;

export const channelGroups: LinkSpec = {
  table: channelCustomerGroups,
  ownerKey: "channelId",
  targetKey: "customerGroupId",
  target: { table: customerGroups, id: customerGroups.id, code: customerGroups.code },
};
