import { linkedCodes } from "../../db/links";
import { and, count, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import {
  channels,
  customerGroups,
  products,
  promotionChannels,
  promotionCustomerGroups,
  promotionProducts,
  promotions,
} from "../../db/schema";
import { isForeignKeyViolation, type Db } from "../../lib/db";
import { conflict, invalid, type FieldIssue } from "../../lib/errors";
import { CHANGED, changesNothing, nextUpdatedAt, optimistically } from "../../lib/optimistic";
import { iso, isoOrNull } from "../../lib/schemas";
import { assertTransition } from "../../lib/status";
import { readPage, type ListRequest } from "../../list";
import {
  codeLookup,
  codesFrom,
  resolveCodes,
  type Batch,
} from "../trade-conditions/trade-conditions.repo";
import { discountIssues } from "../trade-conditions/trade-conditions.schemas";
import type { PromotionCreate, PromotionUpdate } from "./promotions.schemas";

const fullRecord = {
  ...getTableColumns(promotions),
  productCodes: linkedCodes(
    "promotion_products",
    "promotion_id",
    "promotions.id",
    "product_id",
    "products",
  ),
  channelCodes: linkedCodes(
    "promotion_channels",
    "promotion_id",
    "promotions.id",
    "channel_id",
    "channels",
  ),
  customerGroupCodes: linkedCodes(
    "promotion_customer_groups",
    "promotion_id",
    "promotions.id",
    "customer_group_id",
    "customer_groups",
  ),
};

const selectFull = (db: Db) => db.select(fullRecord).from(promotions);

type PromotionRow = typeof promotions.$inferSelect & {
  productCodes: string;
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
  validFrom: isoOrNull(row.validFrom),
  validTo: isoOrNull(row.validTo),
  priority: row.priority,
  stacking: row.stacking,
  productCodes: codesFrom(row.productCodes),
  channelCodes: codesFrom(row.channelCodes),
  customerGroupCodes: codesFrom(row.customerGroupCodes),
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

interface LinkIds {
  productIds?: number[];
  channelIds?: number[];
  groupIds?: number[];
}

/** Inserts of the links of promotion `id` (an SQL expression inside the batch), while `guard` holds. */
function linkInserts(db: Db, id: SQL, links: LinkIds, guard = sql`true`): BatchItem<"sqlite">[] {
  const rows = (ids: number[]) =>
    sql`select ${id}, value from json_each(${JSON.stringify(ids)}) where ${guard}`;
  const out: BatchItem<"sqlite">[] = [];
  if (links.productIds?.length) {
    out.push(db.insert(promotionProducts).select(rows(links.productIds)));
  }
  if (links.channelIds?.length) {
    out.push(db.insert(promotionChannels).select(rows(links.channelIds)));
  }
  if (links.groupIds?.length) {
    out.push(db.insert(promotionCustomerGroups).select(rows(links.groupIds)));
  }
  return out;
}

/** Looks up the named codes of all three kinds in one round trip. */
function lookups(db: Db, input: PromotionUpdate) {
  return [
    codeLookup(db, products, input.productCodes ?? []),
    codeLookup(db, channels, input.channelCodes ?? []),
    codeLookup(db, customerGroups, input.customerGroupCodes ?? []),
  ] as const;
}

type Found = { id: number; code: string }[];

function linkIds(
  input: PromotionUpdate,
  found: readonly [Found, Found, Found],
  issues: FieldIssue[],
) {
  const [foundProducts, foundChannels, foundGroups] = found;
  const { productCodes, channelCodes, customerGroupCodes } = input;
  return {
    productIds:
      productCodes &&
      resolveCodes("body.productCodes", "product", productCodes, foundProducts, issues),
    channelIds:
      channelCodes &&
      resolveCodes("body.channelCodes", "channel", channelCodes, foundChannels, issues),
    groupIds:
      customerGroupCodes &&
      resolveCodes(
        "body.customerGroupCodes",
        "customer group",
        customerGroupCodes,
        foundGroups,
        issues,
      ),
  };
}

/** Runs a write batch; its last statement reads the full record back. */
async function writeBatch(db: Db, statements: Batch): Promise<unknown[]> {
  try {
    return (await db.batch(statements)) as unknown[];
  } catch (err) {
    // A product, channel or group deleted between the read that resolved it and this batch.
    if (!isForeignKeyViolation(err)) throw err;
    throw conflict(
      "a named product, channel or customer group was deleted meanwhile; nothing was written",
    );
  }
}

const lastRow = (results: unknown[]) => (results[results.length - 1] as PromotionRow[])[0]!;

/** One read resolves the codes (skipped when none are named), one batch writes everything. */
export async function createPromotion(db: Db, input: PromotionCreate) {
  const terms = {
    ...input,
    currency: input.currency ?? null,
    validFrom: input.validFrom ?? null,
    validTo: input.validTo ?? null,
  };
  const issues = discountIssues(terms);
  let ids: LinkIds = {};
  if (input.productCodes.length || input.channelCodes.length || input.customerGroupCodes.length) {
    const found = await db.batch(lookups(db, input));
    ids = linkIds(input, found, issues);
  }
  if (issues.length) throw invalid(issues);

  // A D1 batch is one serialized transaction, so the newest id is the row inserted just before.
  const newId = sql`(select max(id) from promotions)`;
  const results = await writeBatch(db, [
    db.insert(promotions).values({
      name: input.name,
      status: input.status,
      discountType: input.discountType,
      value: input.value,
      currency: terms.currency,
      validFrom: terms.validFrom,
      validTo: terms.validTo,
      priority: input.priority,
      stacking: input.stacking,
    }),
    ...linkInserts(db, newId, ids),
    selectFull(db).where(eq(promotions.id, newId)),
  ]);
  return lastRow(results);
}

/** `undefined` when the promotion does not exist. */
export const updatePromotion = (db: Db, id: number, input: PromotionUpdate) =>
  optimistically(`promotion ${id}`, () => attemptUpdate(db, id, input));

/**
 * One read loads the promotion and resolves the named codes; the merged record is checked with
 * the create rules; one batch writes, every statement guarded by the version read, so a
 * concurrent write first turns the whole batch into a no-op (CHANGED).
 */
async function attemptUpdate(db: Db, id: number, input: PromotionUpdate) {
  const [[current], ...found] = await db.batch([
    selectFull(db).where(eq(promotions.id, id)),
    ...lookups(db, input),
  ]);
  if (!current) return undefined;
  if (current.status === "ARCHIVED") {
    throw conflict(`promotion ${id} is ARCHIVED and can no longer be edited`);
  }
  if (input.status) assertTransition(`promotion ${id}`, current.status, input.status);

  const patch = Object.fromEntries(
    Object.entries(input).filter(([, value]) => value !== undefined),
  ) as PromotionUpdate;
  const issues = discountIssues({ ...current, ...patch });
  const ids = linkIds(patch, found, issues);
  if (issues.length) throw invalid(issues);
  if (changesNothing(current, patch)) return current;

  const { productCodes, channelCodes, customerGroupCodes, ...fields } = patch;
  const unchanged = sql`exists (select 1 from ${promotions} where ${promotions.id} = ${id}
    and ${promotions.updatedAt} = ${current.updatedAt})`;
  const replaced: BatchItem<"sqlite">[] = [];
  if (productCodes) {
    replaced.push(
      db.delete(promotionProducts).where(and(eq(promotionProducts.promotionId, id), unchanged)),
    );
  }
  if (channelCodes) {
    replaced.push(
      db.delete(promotionChannels).where(and(eq(promotionChannels.promotionId, id), unchanged)),
    );
  }
  if (customerGroupCodes) {
    replaced.push(
      db
        .delete(promotionCustomerGroups)
        .where(and(eq(promotionCustomerGroups.promotionId, id), unchanged)),
    );
  }
  const statements: BatchItem<"sqlite">[] = [
    ...replaced,
    ...linkInserts(db, sql`${id}`, ids, unchanged),
    // Last, so the statements before it still see the version they are guarded by.
    db
      .update(promotions)
      .set({ ...fields, updatedAt: nextUpdatedAt(current.updatedAt) })
      .where(and(eq(promotions.id, id), unchanged))
      .returning({ id: promotions.id }),
    selectFull(db).where(eq(promotions.id, id)),
  ];
  const results = await writeBatch(db, statements as Batch);
  return (results[results.length - 2] as unknown[]).length ? lastRow(results) : CHANGED;
}
