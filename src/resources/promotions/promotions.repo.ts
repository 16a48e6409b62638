import { count, eq, getTableColumns } from "drizzle-orm";
import { codeLink, codesFrom, defineLinks } from "../../db/links";
import {
  channels,
  customerGroups,
  promotionChannels,
  promotionCustomerGroups,
  promotions,
} from "../../db/schema";
import { targetCodesFrom, targetLinks, type TargetColumns } from "../../db/targeting";
import { insertLinked, writeVersioned } from "../../db/writes";
import type { Db } from "../../db/client";
import { iso, isoOrNull } from "../../core/schemas";
import { readPage, type ListRequest } from "../../list";
import type { PromotionCreate, PromotionUpdate } from "./promotions.schemas";

/** A promotion's link tables; its select, create and update derive from this list. */
export const promotionLinks = defineLinks(promotions.id, {
  ...targetLinks("promotion"),
  channelCodes: codeLink(
    promotionChannels.promotionId,
    promotionChannels.channelId,
    channels,
    "channel",
  ),
  customerGroupCodes: codeLink(
    promotionCustomerGroups.promotionId,
    promotionCustomerGroups.customerGroupId,
    customerGroups,
    "customer group",
  ),
});

const fullRecord = { ...getTableColumns(promotions), ...promotionLinks.columns };

const selectFull = (db: Db) => db.select(fullRecord).from(promotions);

export type PromotionRow = typeof promotions.$inferSelect &
  TargetColumns & {
    channelCodes: string;
    customerGroupCodes: string;
  };

export const toPromotion = (row: PromotionRow) => ({
  id: row.id,
  name: row.name,
  status: row.status,
  discountType: row.discountType,
  value: row.value,
  currency: row.currency,
  priceUnit: row.priceUnit,
  validFrom: isoOrNull(row.validFrom),
  validTo: isoOrNull(row.validTo),
  priority: row.priority,
  stacking: row.stacking,
  ...targetCodesFrom(row),
  channelCodes: codesFrom(row.channelCodes),
  customerGroupCodes: codesFrom(row.customerGroupCodes),
  // Both columns are set together or both null (promotions.service.ts).
  threshold:
    row.thresholdBasis === null
      ? null
      : { basis: row.thresholdBasis, minimum: row.thresholdMinimum! },
  createdAt: iso(row.createdAt),
  updatedAt: iso(row.updatedAt),
});

export function listPromotions(db: Db, list: ListRequest) {
  return readPage(
    db,
    selectFull(db)
      .where(list.where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(promotions).where(list.where),
  );
}

export const findPromotion = (db: Db, id: number) =>
  selectFull(db).where(eq(promotions.id, id)).get();

type Links = ReturnType<typeof promotionLinks.resolve>["values"];
/** The promotion's own columns: the body less its links, the threshold as its two columns. */
type Fields<T> = Omit<T, keyof typeof promotionLinks.links | "threshold"> &
  Partial<Pick<typeof promotions.$inferInsert, "thresholdBasis" | "thresholdMinimum">>;

/** The promotion and its links in one batch; FOREIGN_KEY if a named row was deleted meanwhile. */
export const insertPromotion = (db: Db, fields: Fields<PromotionCreate>, links: Links) =>
  insertLinked<PromotionRow>(
    db,
    promotions,
    fields,
    (id) => promotionLinks.inserts(db, id, links),
    (id) => selectFull(db).where(eq(promotions.id, id)),
  );

/** One round trip: the stored promotion and what the body's codes resolve to. */
export async function readForUpdate(db: Db, id: number, input: PromotionUpdate) {
  const [[current], ...found] = await db.batch([
    selectFull(db).where(eq(promotions.id, id)),
    ...promotionLinks.lookups(db, input),
  ]);
  return { current, ...promotionLinks.resolve(input, found) };
}

/** Writes over the version the checks judged (db/writes.ts); CHANGED if another write came first. */
export const updatePromotion = (
  db: Db,
  current: PromotionRow,
  fields: Fields<PromotionUpdate>,
  links: Links,
) =>
  writeVersioned<PromotionRow>(db, promotions, current, {
    set: fields,
    links: (guard) => promotionLinks.replaces(db, current.id, links, guard),
    readBack: selectFull(db).where(eq(promotions.id, current.id)),
  });
