import { and, count, eq, sql, type SQL } from "drizzle-orm";
import { codeLink, defineLinks } from "../../db/links";
import { unlessForeignKey } from "../../db/outcomes";
import { pricelistPage, selectPricelist, type PricelistRow } from "../../db/reads";
import {
  customerGroupPricelists,
  customerGroups,
  customers,
  pricelistPrices,
  pricelists,
  products,
} from "../../db/schema";
import type { Visibility } from "../../db/visibility";
import { insertWhere, writeVersioned } from "../../db/writes";
import type { PricelistKind, PricelistScope } from "../../pricing/vocabulary";
import { readPage, readPageOf, type ListRequest } from "../../list";
import type { Db } from "../../db/client";
import { isoOrNull } from "../../core/schemas";
import {
  type Derivation,
  type IndividualPricelistCreate,
  type PricelistCreate,
} from "./pricelists.schemas";

export type { PricelistRow };

/** A derivation (or null) as the columns that store it. */
export const derivationColumns = (derivation: Derivation | null) => ({
  basePricelistId: derivation?.basePricelistId ?? null,
  adjustmentBp: derivation?.adjustmentBp ?? null,
  roundingMode: derivation?.rounding?.mode ?? null,
  roundingStep: derivation?.rounding?.step ?? null,
  roundingEnding: derivation?.rounding?.ending ?? null,
});

/** The pricelists the key sees (docs/api/access.md §18). */
export const listPricelists = (db: Db, list: ListRequest, scope: Visibility) =>
  readPage(db, ...pricelistPage(db, and(list.where, scope.pricelists), list));

export const findPricelist = async (db: Db, id: number): Promise<PricelistRow | undefined> =>
  (await selectPricelist(db, id))[0];

/** The pricelist, if the key sees it. */
export async function findSeenPricelist(db: Db, id: number, scope: Visibility) {
  const row = await findPricelist(db, id);
  return row && scope.seesPricelist(row) ? row : undefined;
}

export const findCustomerId = async (db: Db, code: string) =>
  (await db.select({ id: customers.id }).from(customers).where(eq(customers.code, code)).get())?.id;

/** A GENERAL pricelist's columns as create stores them: the derivation as its columns. */
export type PricelistValues = Omit<PricelistCreate, "derivation"> &
  ReturnType<typeof derivationColumns>;

/**
 * One statement. With a guard (the derivation rule, see `derivationFits`) the insert is written
 * only while it holds: undefined when it did not (the caller judges again); FOREIGN_KEY when the
 * base was deleted meanwhile.
 */
export const createPricelist = (db: Db, values: PricelistValues, guard?: SQL) =>
  unlessForeignKey(async (): Promise<PricelistRow | undefined> => {
    const row = {
      ...values,
      scope: "GENERAL" as const,
      allowsTradeDiscounts: values.allowsTradeDiscounts ?? true,
    };
    const [created] = (await (guard
      ? insertWhere(db, pricelists, row, guard).returning()
      : db.insert(pricelists).values(row).returning())) as (typeof pricelists.$inferSelect)[];
    return created && { ...created, customerCode: null };
  });

/** FOREIGN_KEY when the customer was deleted after its check. */
export const createIndividualPricelist = (
  db: Db,
  customerId: number,
  { customerCode, ...input }: IndividualPricelistCreate,
) =>
  unlessForeignKey(async (): Promise<PricelistRow> => {
    const row = await db
      .insert(pricelists)
      .values({
        ...input,
        scope: "INDIVIDUAL",
        status: "DRAFT",
        customerId,
        allowsTradeDiscounts: input.allowsTradeDiscounts ?? false,
      })
      .returning()
      .get();
    return { ...row, customerCode };
  });

/** Writes over the version the checks judged; CHANGED if another request wrote or deleted first. */
export const updatePricelist = (
  db: Db,
  current: PricelistRow,
  set: Partial<typeof pricelists.$inferInsert>,
  guard?: SQL,
) =>
  writeVersioned<PricelistRow>(db, pricelists, current, {
    set,
    guard,
    readBack: selectPricelist(db, current.id),
  });

// ---- derivation chains and kinds (docs/api/relations.md §5.8) ----

/** Deeper than any allowed chain: the bound of every recursion over bases. */
const RECURSION_BOUND = 16;

/** A pricelist of a chain of bases, as the derivation rules judge it. */
export interface ChainLink {
  id: number;
  scope: PricelistScope;
  kind: PricelistKind;
  currency: string;
}

/** The ids from pricelist `start` along its bases (itself first), as a recursive CTE. */
const basesFrom = (start: SQL) => sql`with recursive up(id, n) as (
    select ${start}, 1
    union all
    select p.base_pricelist_id, up.n + 1 from pricelists p join up on p.id = up.id
    where p.base_pricelist_id is not null and up.n < ${RECURSION_BOUND})`;

/** The pricelist `start` and its bases, nearest first, as JSON ChainLinks; [] when none. */
const chainJson = (start: SQL) => sql<string>`(${basesFrom(start)}
  select json_group_array(json_object('id', id, 'scope', scope, 'kind', kind, 'currency', currency))
  from (select p.id, p.scope, p.kind, p.currency from up join pricelists p on p.id = up.id
    order by up.n))`;

/**
 * The longest chain of lists deriving into `id`: `{ depth, path }`, path `12 → 5` (5 = id). D1
 * binds numbers as REAL: the id is cast to an integer first, or the path would read `5.0`.
 */
const deepestJson = (id: number) => sql<string>`(with recursive down(id, depth, path) as (
    select ${id}, 0, cast(cast(${id} as integer) as text)
    union all
    select p.id, down.depth + 1, p.id || ${" → "} || down.path
    from pricelists p join down on p.base_pricelist_id = down.id
    where down.depth < ${RECURSION_BOUND})
  select json_object('depth', depth, 'path', path) from down order by depth desc, id limit 1)`;

/** Up to 20 values of a one-column select, as a JSON array (json(): it nests as an array). */
const first20 = (select: SQL) =>
  sql`json((select json_group_array(x) from (${select} order by x limit 20)))`;

/** Where the pricelist is assigned beyond channels: what a FLOOR pricelist may not be. */
const assignedJson = (id: number) => sql<string>`json_object(
  'customerGroups', ${first20(sql`select g.code as x from customer_group_pricelists l
    join customer_groups g on g.id = l.customer_group_id where l.pricelist_id = ${id}`)},
  'customers', ${first20(sql`select c.code as x from customer_pricelists l
    join customers c on c.id = l.customer_id where l.pricelist_id = ${id}`)},
  'primaryOf', ${first20(sql`select c.code as x from channel_pricelists l
    join channels c on c.id = l.channel_id where l.pricelist_id = ${id} and l.is_primary = 1`)})`;

/** What the derivation and kind rules of a pricelist are judged on. */
export interface DerivationFacts {
  /** The base named (or kept) and its bases, nearest first; [] for none or an unknown base. */
  chain: ChainLink[];
  /** The pricelists deriving directly from this one (up to 20) and their number. */
  derivedFrom: { n: number; ids: number[] };
  /** The longest chain of pricelists deriving into this one (depth 0: none). */
  below: { depth: number; path: string };
  /** Where it is assigned beyond channels (up to 20 codes each). */
  assigned: { customerGroups: string[]; customers: string[]; primaryOf: string[] };
}

const NO_FACTS = { n: 0, ids: [] };

/**
 * One round trip: the pricelist `id` (undefined on create) and the facts its derivation and kind
 * are judged on; `baseId` is the base a body names, else the stored one is followed.
 */
export async function readDerivation(db: Db, id: number | undefined, baseId?: number) {
  const self = id ?? 0;
  const start = baseId ?? sql`(select base_pricelist_id from pricelists where id = ${self})`;
  const [current, [facts]] = await db.batch([
    selectPricelist(db, self).limit(id === undefined ? 0 : 1),
    db
      .select({
        chain: chainJson(sql`${start}`),
        derivedN: sql<number>`(select count(*) from pricelists where base_pricelist_id = ${self})`,
        derivedIds: sql<string>`${first20(sql`select id as x from pricelists where base_pricelist_id = ${self}`)}`,
        below: deepestJson(self),
        assigned: assignedJson(self),
      })
      .from(sql`(select 1)`),
  ]);
  const found: DerivationFacts = {
    chain: JSON.parse(facts!.chain) as ChainLink[],
    derivedFrom: { n: facts!.derivedN, ids: JSON.parse(facts!.derivedIds) as number[] },
    below: JSON.parse(facts!.below) as DerivationFacts["below"],
    assigned: JSON.parse(facts!.assigned) as DerivationFacts["assigned"],
  };
  return {
    current: current[0] as PricelistRow | undefined,
    facts: id === undefined ? { ...found, derivedFrom: NO_FACTS } : found,
  };
}

/**
 * The derivation rule re-checked inside the write, against the data the write finds: the base is
 * a GENERAL pricelist of `baseKind` (SALES for a SALES list, COST for a FLOOR list; in any
 * currency), the chain through `self` has no cycle and at most `maxSteps` steps. `self` is the
 * pricelist being changed (null for a new one).
 */
export function derivationFits(
  self: number | null,
  base: number,
  maxSteps: number,
  baseKind: "SALES" | "COST",
): SQL {
  const below =
    self === null
      ? sql`0`
      : sql`(with recursive down(id, n) as (select ${self}, 0
          union all select p.id, down.n + 1 from pricelists p join down on p.base_pricelist_id = down.id
          where down.n < ${RECURSION_BOUND}) select max(n) from down)`;
  const noCycle =
    self === null
      ? sql`1`
      : sql`not exists (${basesFrom(sql`${base}`)} select 1 from up where id = ${self})`;
  return sql`(exists (select 1 from pricelists where id = ${base} and scope = 'GENERAL'
      and kind = ${baseKind})
    and ${noCycle}
    and (${basesFrom(sql`${base}`)} select max(n) from up) + ${below} <= ${maxSteps})`;
}

/** No pricelist derives from `id` any more: re-checked by a write that changes its currency or kind. */
export const notABase = (id: number) =>
  sql`not exists (select 1 from pricelists where base_pricelist_id = ${id})`;

/** Assigned to channels only, never primary: re-checked by a write that makes it FLOOR or COST. */
export const channelsOnly = (id: number) => sql`(
  not exists (select 1 from customer_group_pricelists where pricelist_id = ${id})
  and not exists (select 1 from customer_pricelists where pricelist_id = ${id})
  and not exists (select 1 from channel_pricelists where pricelist_id = ${id} and is_primary = 1))`;

export const findPricelistId = async (db: Db, id: number) =>
  (await db.select({ id: pricelists.id }).from(pricelists).where(eq(pricelists.id, id)).get())?.id;

/**
 * The pricelist's links, assigned and unassigned by code: customer groups (counterpart of seed
 * endpoint 7), and price rows by product code, so a bulk delete of prices is an unassign.
 */
export const pricelistLinks = defineLinks(pricelists.id, {
  customerGroupCodes: codeLink(
    customerGroupPricelists.pricelistId,
    customerGroupPricelists.customerGroupId,
    customerGroups,
    "customer group",
  ),
  productCodes: codeLink(
    pricelistPrices.pricelistId,
    pricelistPrices.productId,
    products,
    "product",
  ),
});

/**
 * Seed endpoint 16. The WHERE carries every rule, so the happy path is one statement; prices and
 * channel, group and customer assignments go with the row through ON DELETE CASCADE.
 */
export const deleteDraftIndividualPricelist = async (db: Db, id: number) =>
  Boolean(
    await db
      .delete(pricelists)
      .where(
        and(
          eq(pricelists.id, id),
          eq(pricelists.scope, "INDIVIDUAL"),
          eq(pricelists.status, "DRAFT"),
        ),
      )
      .returning({ id: pricelists.id })
      .get(),
  );

const selectPricelistId = (db: Db, id: number, scope: Visibility) =>
  db.select({ id: pricelists.id }).from(pricelists).where(scope.pricelistId(id));

// ---- prices ----

const priceColumns = {
  productCode: products.code,
  minQuantity: pricelistPrices.minQuantity,
  amount: pricelistPrices.amount,
  priceUnit: pricelistPrices.priceUnit,
  flatAmount: pricelistPrices.flatAmount,
  validFrom: pricelistPrices.validFrom,
  validTo: pricelistPrices.validTo,
};

/** A stored price row as the API shows it. */
export const toPrice = (row: {
  productCode: string;
  minQuantity: number;
  amount: number;
  priceUnit: number;
  flatAmount: number;
  validFrom: number | null;
  validTo: number | null;
}) => ({ ...row, validFrom: isoOrNull(row.validFrom), validTo: isoOrNull(row.validTo) });

/** The rows valid at `at` (docs/pricing-rules.md §17); undefined: every row. */
const validAt = (at: number | undefined) =>
  at === undefined
    ? undefined
    : sql`(${pricelistPrices.validFrom} is null or ${pricelistPrices.validFrom} <= ${at})
      and (${pricelistPrices.validTo} is null or ${pricelistPrices.validTo} > ${at})`;

/** The rows of a pricelist the key sees; undefined when it does not exist for the key. */
export function listPrices(db: Db, id: number, list: ListRequest, scope: Visibility, at?: number) {
  const where = and(eq(pricelistPrices.pricelistId, id), validAt(at), list.where);
  const withProduct = eq(products.id, pricelistPrices.productId);
  return readPageOf(
    db,
    selectPricelistId(db, id, scope),
    db
      .select(priceColumns)
      .from(pricelistPrices)
      .innerJoin(products, withProduct)
      .where(where)
      .orderBy(...list.orderBy)
      .limit(list.limit)
      .offset(list.offset),
    db.select({ n: count() }).from(pricelistPrices).innerJoin(products, withProduct).where(where),
  );
}

/**
 * What decides a price write, in one statement: the pricelist's scope and status, and which of
 * the product codes name no product (the codes travel as one JSON parameter).
 * Undefined if the pricelist does not exist.
 */
export async function checkPriceWrite(db: Db, id: number, productCodes: string[]) {
  const row = await db
    .select({
      status: pricelists.status,
      tierMode: pricelists.tierMode,
      unknownCodes: sql<string>`(select json_group_array(value) from (select distinct value
        from json_each(${JSON.stringify(productCodes)})
        where value not in (select code from products) order by value))`,
    })
    .from(pricelists)
    .where(eq(pricelists.id, id))
    .get();
  return (
    row && {
      status: row.status,
      tierMode: row.tierMode,
      unknownCodes: JSON.parse(row.unknownCodes) as string[],
    }
  );
}

/** How many rows of pricelist `id` have a flat amount (docs/pricing-rules.md §29). */
export async function countFlatAmounts(db: Db, id: number): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(pricelistPrices)
    .where(and(eq(pricelistPrices.pricelistId, id), sql`${pricelistPrices.flatAmount} > 0`))
    .get();
  return row?.n ?? 0;
}

/**
 * The pricelist may still be written to as its check found it, as SQL for the write to carry, so
 * that the rule is judged at commit and not on the earlier read: not ARCHIVED, and with
 * `salesOnly` a SALES list (docs/api/relations.md §5.2, docs/api/resources.md §3).
 */
export const stillAssignable = (id: number, salesOnly: boolean) =>
  sql`exists (select 1 from pricelists where id = ${id} and status <> 'ARCHIVED'${
    salesOnly ? sql` and kind = 'SALES'` : sql``
  })`;
