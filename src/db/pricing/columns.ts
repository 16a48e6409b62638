import { sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  CONDITION_SCOPES,
  CONDITION_TYPES,
  DISCOUNT_TYPES,
  PRICELIST_LEVELS,
  PROMOTION_STACKINGS,
  ROUNDING_MODES,
  SCALE_BASES,
  STATUSES,
  THRESHOLD_BASES,
  TIER_MODES,
  type CostPricelist,
  type Derivation,
  type ExchangeRate,
  type FloorPricelist,
  type PriceBase,
  type PricelistCandidate,
  type PriceRow,
  type ProductCodes,
  type ProductFacts,
  type PromotionCandidate,
  type RoundingMode,
  type TargetField,
} from "../../pricing";
import { linkedCodes } from "../links";
import { pricelistPrices, pricelists, products, promotions, tradeConditions } from "../schema";
import {
  asIntRecord,
  asMember,
  asRecord,
  codes,
  flag,
  int,
  jsonArray,
  member,
  nullableInt,
  nullableMember,
  nullableText,
  select,
  text,
  type Decoded,
  type Selection,
} from "../rows";
import type { Params } from "./query";
import { byNamed, NAMED_READ, READ_DIMENSIONS, type Fragments } from "./reach";

/*
 * The column sets of pricing records (what the engine takes of a pricelist, a price row, a trade
 * condition, a promotion, a product) and the decoders that turn their rows into engine input,
 * each declared once for every reader: price lookups, their cached contexts, the publish
 * simulation and the linter.
 */

// The aliases the statements give these tables in their FROM clauses.
const p = alias(pricelists, "p");
const pp = alias(pricelistPrices, "pp");
const pr = alias(products, "pr");

/** A pricelist's derivation, as its columns (all null without one). */
const derivationColumns = {
  basePricelistId: nullableInt(p.basePricelistId),
  adjustmentBp: nullableInt(p.adjustmentBp),
  roundingMode: nullableMember(ROUNDING_MODES, p.roundingMode),
  roundingStep: nullableInt(p.roundingStep),
  roundingEnding: nullableInt(p.roundingEnding),
};

/**
 * What a list is to the request: a candidate (reaching, SALES), a base of one (or of a floor), a
 * floor, a COST list of the channel (admin keys only, docs/api/access.md §18).
 */
const LIST_ROLES = ["CANDIDATE", "BASE", "FLOOR", "COST"] as const;
export type ListRole = (typeof LIST_ROLES)[number];

/**
 * The exchange rates a derived list (alias `p`) converts its base's amounts with
 * (docs/pricing-rules.md §19): those of the pair (its base's currency → its own), as a JSON array;
 * [] when it derives from nothing or from its own currency (a rate's pair is never one currency).
 * With `at`: only the rate in force then (the pair's latest validFrom ≤ at) and the next one, what
 * a lookup at `at` needs; without: all of them, for the cached contexts that serve every moment.
 * In memory: `ratesAt`, below.
 */
const listRates = (at: SQL | null) => {
  const pair = sql`x.from_currency = pair.f and x.to_currency = p.currency`;
  const trim = at
    ? sql`and r.valid_from in (
        (select max(x.valid_from) from exchange_rates x where ${pair} and x.valid_from <= ${at}),
        (select min(x.valid_from) from exchange_rates x where ${pair} and x.valid_from > ${at}))`
    : sql``;
  return sql`case when p.base_pricelist_id is null then '[]' else (select json_group_array(
      json_object('from', r.from_currency, 'to', r.to_currency, 'rate', r.rate,
        'validFrom', r.valid_from))
    from (select b.currency as f from pricelists b where b.id = p.base_pricelist_id) pair
      join exchange_rates r on r.from_currency = pair.f and r.to_currency = p.currency ${trim}) end`;
};

const asRate = asRecord({ from: "text", to: "text", rate: "text", validFrom: "int" });

/**
 * A pricelist (table alias `p`) in a role, with the levels it reaches the request at and the
 * exchange rates its derivation needs (all of them, or with `at` those a lookup then needs).
 */
export const listColumns = (role: ListRole, levels: SQL, at: SQL | null = null) =>
  select({
    role: member(LIST_ROLES, sql.raw(`'${role}'`)),
    id: int(p.id),
    name: text(p.name),
    status: member(STATUSES, p.status),
    currency: text(p.currency),
    priority: int(p.priority),
    validFrom: nullableInt(p.validFrom),
    validTo: nullableInt(p.validTo),
    allowsTradeDiscounts: flag(p.allowsTradeDiscounts),
    taxInclusive: flag(p.taxInclusive),
    tierMode: member(TIER_MODES, p.tierMode),
    levels: jsonArray(asMember(PRICELIST_LEVELS), levels),
    ...derivationColumns,
    rates: jsonArray(asRate, listRates(at)),
  });

const byPairThenDate = (a: ExchangeRate, b: ExchangeRate) =>
  a.from < b.from
    ? -1
    : a.from > b.from
      ? 1
      : a.to < b.to
        ? -1
        : a.to > b.to
          ? 1
          : a.validFrom - b.validFrom;

/**
 * `listRates` with `at`, in memory: of the rates the list rows carry, per pair the one in force
 * at `at` and the next one, each once, by pair and validFrom: the engine's `exchangeRates`.
 */
export function ratesAt(rows: readonly { rates: readonly ExchangeRate[] }[], at: number) {
  const kept = new Map<string, { inForce?: ExchangeRate; next?: ExchangeRate }>();
  for (const row of rows) {
    for (const rate of row.rates) {
      const key = `${rate.from}>${rate.to}`;
      let pair = kept.get(key);
      if (!pair) kept.set(key, (pair = {}));
      if (rate.validFrom <= at) {
        if (!pair.inForce || rate.validFrom > pair.inForce.validFrom) pair.inForce = rate;
      } else if (!pair.next || rate.validFrom < pair.next.validFrom) pair.next = rate;
    }
  }
  const rates: ExchangeRate[] = [];
  for (const { inForce, next } of kept.values()) {
    if (inForce) rates.push(inForce);
    if (next) rates.push(next);
  }
  return rates.sort(byPairThenDate);
}

export type ListRow = Decoded<
  ReturnType<typeof listColumns> extends Selection<infer F> ? F : never
>;

/** A price row (alias `pp`) with its product's code (alias `pr`). */
export const priceColumns = select({
  pricelistId: int(pp.pricelistId),
  productCode: text(pr.code),
  minQuantity: int(pp.minQuantity),
  validFrom: nullableInt(pp.validFrom),
  validTo: nullableInt(pp.validTo),
  amount: int(pp.amount),
  priceUnit: int(pp.priceUnit),
  flatAmount: int(pp.flatAmount),
});

/**
 * How far a record's link lists are trimmed: to what this request can match (a one-request
 * read); to the customer only (the customer context, which serves every product: its customer
 * and group links trimmed to the customer and G); not at all but the channel's (the channel
 * context, which serves every customer and product: channel links trimmed to the channel); or
 * not at all (the linter). contexts.ts trims the rest in memory the same way (`trimmed`).
 */
export type Trim = "REQUEST" | "CUSTOMER" | "CHANNEL" | "NONE";

/**
 * The codes linked to the outer record through a link table, trimmed by `only` when given:
 * never empty when the record has links (the statements' filters guarantee a match), so
 * "empty = all" keeps its meaning.
 */
const linked =
  (owner: string, ownerFk: string) =>
  (link: string, targetFk: string, target: string, only: SQL | undefined) =>
    codes(linkedCodes(link, ownerFk, owner, targetFk, target, only));

/**
 * The link lists conditions and promotions share (tables `<owner>_products`, …), each trimmed as
 * `trim` says. `f` and `q` are needed unless `trim` is NONE.
 */
function sharedLinks(
  q: Params,
  f: Fragments | undefined,
  owner: "trade_condition" | "promotion",
  trim: Trim,
) {
  const via = linked(`${owner}s.id`, `${owner}_id`);
  const link = (suffix: string, fk: string, target: string, only: () => SQL, trims: boolean) =>
    via(`${owner}_${suffix}`, fk, target, trims ? only() : undefined);
  // `+t.id`: the record's few links are read and each checked against the requested set. A bare
  // `t.id in (…)` lets SQLite probe the link index once per requested product or group for every
  // record instead (500 probes per record at 500 lines).
  const targets = Object.fromEntries(
    READ_DIMENSIONS.map((d) => [
      d.field,
      link(d.link, d.column, d.target, () => sql`+t.id in ${d.ids}`, trim === "REQUEST"),
    ]),
  ) as Record<TargetField, ReturnType<typeof link>>;
  return {
    ...targets,
    channelCodes: link(
      "channels",
      "channel_id",
      "channels",
      () => sql`t.code = ${q.channelCode}`,
      trim !== "NONE",
    ),
    customerGroupCodes: link(
      "customer_groups",
      "customer_group_id",
      "customer_groups",
      () => sql`t.id in ${f!.groups}`,
      trim === "REQUEST" || trim === "CUSTOMER",
    ),
  };
}

/** A trade condition (table `trade_conditions`) with its links and scales. */
export function conditionColumns(q: Params, f: Fragments | undefined, trim: Trim) {
  const t = tradeConditions;
  const via = linked("trade_conditions.id", "trade_condition_id");
  const toCustomer = trim === "REQUEST" || trim === "CUSTOMER";
  return select({
    id: int(t.id),
    name: text(t.name),
    scope: member(CONDITION_SCOPES, t.scope),
    status: member(STATUSES, t.status),
    type: member(CONDITION_TYPES, t.type),
    discountType: member(DISCOUNT_TYPES, t.discountType),
    value: int(t.value),
    currency: nullableText(t.currency),
    priceUnit: int(t.priceUnit),
    validFrom: nullableInt(t.validFrom),
    validTo: nullableInt(t.validTo),
    priority: int(t.priority),
    stackable: flag(t.stackable),
    ...sharedLinks(q, f, "trade_condition", trim),
    customerCodes: via(
      "trade_condition_customers",
      "customer_id",
      "customers",
      toCustomer ? sql`t.code = ${q.customerCode}` : undefined,
    ),
    scaleBasis: member(SCALE_BASES, t.scaleBasis),
    scales: jsonArray(
      asIntRecord("minimum", "value"),
      sql`(select json_group_array(json_object('minimum', s.min_quantity, 'value', s.value))
        from trade_condition_scales s where s.trade_condition_id = trade_conditions.id)`,
    ),
  });
}

/** A promotion (table `promotions`) with its links and threshold (see `promotionOf`). */
export function promotionColumns(q: Params, f: Fragments | undefined, trim: Trim) {
  const t = promotions;
  return select({
    id: int(t.id),
    name: text(t.name),
    status: member(STATUSES, t.status),
    discountType: member(DISCOUNT_TYPES, t.discountType),
    value: int(t.value),
    currency: nullableText(t.currency),
    priceUnit: int(t.priceUnit),
    validFrom: nullableInt(t.validFrom),
    validTo: nullableInt(t.validTo),
    priority: int(t.priority),
    stacking: member(PROMOTION_STACKINGS, t.stacking),
    ...sharedLinks(q, f, "promotion", trim),
    thresholdBasis: nullableMember(THRESHOLD_BASES, t.thresholdBasis),
    thresholdMinimum: nullableInt(t.thresholdMinimum),
  });
}

type PromotionRow = Decoded<
  ReturnType<typeof promotionColumns> extends Selection<infer F> ? F : never
>;

/** A promotion's row as the engine takes it. */
export const promotionOf = ({
  thresholdBasis,
  thresholdMinimum,
  ...row
}: PromotionRow): PromotionCandidate => ({
  ...row,
  threshold:
    thresholdBasis === null ? null : { basis: thresholdBasis, minimum: thresholdMinimum ?? 1 },
});

/**
 * A product's code in each dimension of records it names one of (`NAMED_READ`: its `brandCode`),
 * as columns, from the SQL `of` each gives.
 */
export const namedCodes = (of: (d: (typeof NAMED_READ)[number]) => SQL) =>
  byNamed((d) => nullableText(of(d)));

/** A product's codes in the named dimensions (`ProductCodes`) from a row holding them. */
const productCodesOf = (row: ProductCodes): ProductCodes => byNamed((d) => row[d.named]);

/** A row of the products statement: a requested product, or a group on a product's path. */
const FACT_KINDS = ["PRODUCT", "GROUP"] as const;

/** A product's or a group's facts, from the SQL of each value (`row`). */
export const factColumns = (kind: (typeof FACT_KINDS)[number], row: Record<string, SQL>) =>
  select({
    kind: member(FACT_KINDS, sql.raw(`'${kind}'`)),
    code: text(row.code!),
    /** The product's group; the group itself. */
    groupId: nullableInt(row.groupId!),
    /** The group's parent (null for a product). */
    parentId: nullableInt(row.parentId!),
    minOrderQuantity: int(row.minOrderQuantity!),
    orderIncrement: int(row.orderIncrement!),
    maxOrderQuantity: nullableInt(row.maxOrderQuantity!),
    /** The product's code in each dimension of records it names one of (null for a group). */
    ...namedCodes((d) => row[d.named]!),
  });

export type FactRow = Decoded<
  ReturnType<typeof factColumns> extends Selection<infer F> ? F : never
>;

/** The price rows of each pricelist, by pricelist id. */
export function pricesByPricelist(rows: readonly (PriceRow & { pricelistId: number })[]) {
  const byId = new Map<number, PriceRow[]>();
  for (const { pricelistId, ...row } of rows) {
    const list = byId.get(pricelistId);
    if (list) list.push(row);
    else byId.set(pricelistId, [row]);
  }
  return byId;
}

interface DerivationColumns {
  basePricelistId: number | null;
  adjustmentBp: number | null;
  roundingMode: RoundingMode | null;
  roundingStep: number | null;
  roundingEnding: number | null;
}

/** The derivation of a pricelist row, without its columns. */
function derivationOf<T extends DerivationColumns>(row: T) {
  const { basePricelistId, adjustmentBp, roundingMode, roundingStep, roundingEnding, ...rest } =
    row;
  const derivation: Derivation | null =
    basePricelistId === null
      ? null
      : {
          basePricelistId,
          adjustmentBp: adjustmentBp ?? 0,
          rounding:
            roundingMode === null
              ? null
              : { mode: roundingMode, step: roundingStep ?? 1, ending: roundingEnding ?? 0 },
        };
  return { ...rest, derivation };
}

/** A group path never holds more than this many groups (a product's own and 8 ancestors). */
const MAX_GROUP_PATH = 9;

/**
 * Each requested product's facts: its group path (own group first), its quantity rule and its
 * codes in the named dimensions.
 */
export function productFacts(rows: readonly FactRow[]) {
  const groups = new Map<number, { code: string; parentId: number | null }>();
  for (const row of rows) if (row.kind === "GROUP") groups.set(row.groupId!, row);
  const facts = new Map<string, ProductFacts>();
  for (const row of rows) {
    if (row.kind !== "PRODUCT") continue;
    const groupPath: string[] = [];
    let group = row.groupId === null ? undefined : groups.get(row.groupId);
    while (group && groupPath.length < MAX_GROUP_PATH) {
      groupPath.push(group.code);
      group = group.parentId === null ? undefined : groups.get(group.parentId);
    }
    const { minOrderQuantity, orderIncrement, maxOrderQuantity } = row;
    facts.set(row.code, {
      minOrderQuantity,
      orderIncrement,
      maxOrderQuantity,
      groupPath,
      ...productCodesOf(row),
    });
  }
  return facts;
}

/**
 * The pricelist rows as the engine takes them: candidates, bases, floors (a floor with its
 * derivation from a COST list, docs/pricing-rules.md §24) and COST lists, with their rows.
 */
export function listsOf(rows: readonly ListRow[], prices: ReadonlyMap<number, PriceRow[]>) {
  const pricesOf = (id: number) => prices.get(id) ?? [];
  const pricelists: PricelistCandidate[] = [];
  const priceBases: PriceBase[] = [];
  const floors: FloorPricelist[] = [];
  const costs: CostPricelist[] = [];
  for (const { role, rates: _rates, ...row } of rows) {
    const { id, name, status, currency, priority, validFrom, validTo } = row;
    const { derivation } = derivationOf(row);
    const list = { id, name, status, currency, priority, validFrom, validTo, prices: pricesOf(id) };
    if (role === "CANDIDATE") {
      pricelists.push({ ...derivationOf(row), prices: pricesOf(id) });
    } else if (role === "BASE") {
      priceBases.push({ id, currency, derivation, prices: pricesOf(id) });
    } else if (role === "FLOOR") {
      floors.push({ ...list, derivation });
    } else {
      costs.push(list);
    }
  }
  return { pricelists, priceBases, floors, costs };
}
