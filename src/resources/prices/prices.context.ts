import type { PromotionCandidate, TradeConditionCandidate } from "../../pricing";
import {
  listsOf,
  type ChannelPart,
  type CustomerPart,
  type ListRow,
  type PriceContext,
  type PriceQuery,
  type RequestPart,
} from "./prices.repo";

/**
 * The channel context: what every price lookup in a channel reads whoever asks, for whichever
 * products, at whichever moment (the channel, its lists, its GLOBAL and CHANNEL conditions, its
 * promotions, each with every link), kept between requests by prices.context-cache.ts, as is the
 * customer context (`CustomerContext`, the same for one customer's lookups). A lookup then reads
 * only its own part (prices.repo.ts `loadRequestPart`) and `assemblePriceContext` picks from
 * both contexts, in memory, exactly the records the one-batch loader
 * (`loadPriceContext`) reads in SQL, with their link lists trimmed the same way: the engine gets
 * the same input, so the answer is the same byte for byte (test/price-context-cache.test.ts).
 */

/** Records of one kind with an index from each product and group they name to their positions. */
interface Reachable<T> {
  records: readonly T[];
  /** Positions of the records that name no product and no group: they reach every product. */
  everyProduct: readonly number[];
  byProduct: ReadonlyMap<string, number[]>;
  byGroup: ReadonlyMap<string, number[]>;
}

export interface ChannelContext {
  channel: { code: string; isActive: boolean; primaryCurrency: string | null } | undefined;
  /** The SALES lists at the channel levels, and the channel's floors. */
  lists: readonly ListRow[];
  /** Every list a SALES list of the channel derives from, up to 3 steps, by id. */
  bases: ReadonlyMap<number, ListRow>;
  conditions: Reachable<TradeConditionCandidate>;
  promotions: Reachable<PromotionCandidate>;
  /** The rows it holds (records, list rows, link codes and scales): its weight in the cache. */
  rows: number;
}

interface Targets {
  productCodes: readonly string[];
  productGroupCodes: readonly string[];
}

/** Freezes a record and its lists: the engine must never change what later requests share. */
function frozen<T extends object>(record: T): T {
  for (const value of Object.values(record)) if (Array.isArray(value)) Object.freeze(value);
  return Object.freeze(record);
}

function reachable<T extends Targets>(records: readonly T[]): Reachable<T> {
  const everyProduct: number[] = [];
  const byProduct = new Map<string, number[]>();
  const byGroup = new Map<string, number[]>();
  const add = (index: Map<string, number[]>, code: string, at: number) => {
    const positions = index.get(code);
    if (positions) positions.push(at);
    else index.set(code, [at]);
  };
  records.forEach((record, at) => {
    frozen(record);
    if (record.productCodes.length === 0 && record.productGroupCodes.length === 0) {
      everyProduct.push(at);
    }
    for (const code of record.productCodes) add(byProduct, code, at);
    for (const code of record.productGroupCodes) add(byGroup, code, at);
  });
  return { records, everyProduct, byProduct, byGroup };
}

const linkCount = (records: readonly object[]) =>
  records.reduce<number>(
    (sum, record) =>
      sum +
      Object.values(record).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : 0), 1),
    0,
  );

/** A part's list rows: the lists it reaches (and floors), and the bases of their chains by id. */
function listsAndBases(rows: readonly ListRow[]) {
  const bases = new Map<number, ListRow>();
  const lists: ListRow[] = [];
  for (const row of rows) {
    frozen(row);
    if (row.role === "BASE") bases.set(row.id, row);
    else lists.push(row);
  }
  return { lists, bases };
}

/** The channel part as read (prices.repo.ts `loadChannelAndRequest`), indexed for lookups. */
export function channelContextOf(part: ChannelPart): ChannelContext {
  const head = part.channel;
  return {
    channel: head && {
      code: head.channelCode,
      isActive: head.channelIsActive,
      primaryCurrency: head.primaryCurrency,
    },
    ...listsAndBases(part.lists),
    conditions: reachable(part.conditions),
    promotions: reachable(part.promotions),
    rows: 1 + part.lists.length + linkCount(part.conditions) + linkCount(part.promotions),
  };
}

/**
 * The customer context: what every lookup of one customer in one channel reads whichever
 * products it asks for, at whichever moment (the customer, whether it buys in the channel, G;
 * the lists reaching it at the customer levels with their chains; its CUSTOMER and
 * CUSTOMER_GROUP conditions with every product link), kept by prices.context-cache.ts.
 */
export interface CustomerContext {
  head: CustomerPart["customer"];
  /** The SALES lists at the customer levels. */
  lists: readonly ListRow[];
  /** Every list one of them derives from, up to 3 steps, by id. */
  bases: ReadonlyMap<number, ListRow>;
  conditions: Reachable<TradeConditionCandidate>;
  /** The rows it holds (as ChannelContext's). */
  rows: number;
}

/** The customer part as read (prices.repo.ts `loadRequestPart`), indexed for lookups. */
export function customerContextOf(part: CustomerPart): CustomerContext {
  if (part.customer) frozen(part.customer);
  return {
    head: part.customer,
    ...listsAndBases(part.lists),
    conditions: reachable(part.conditions),
    rows: 1 + part.lists.length + linkCount(part.conditions),
  };
}

/** No customer: an anonymous lookup. */
const ANONYMOUS: CustomerContext = customerContextOf({
  customer: undefined,
  lists: [],
  conditions: [],
});

/**
 * The lists the `lists` that can price in `currency` derive from, up to 3 steps, among `bases`:
 * the `chain` of prices.repo.ts `pricingLists`, walked in memory; added to `found` by id.
 */
function chainOf(
  { lists, bases }: Pick<ChannelContext, "lists" | "bases">,
  currency: string | null,
  found: Map<number, ListRow>,
) {
  let step = lists.filter(
    (l) => l.role === "CANDIDATE" && l.status === "ACTIVE" && l.currency === currency,
  );
  for (let steps = 1; steps <= 3 && step.length > 0; steps++) {
    const next: ListRow[] = [];
    for (const list of step) {
      const base = list.basePricelistId === null ? undefined : bases.get(list.basePricelistId);
      if (!base) continue;
      found.set(base.id, base);
      next.push(base);
    }
    step = next;
  }
  return found;
}

/** What the request can match: the filters of the loader's SQL (prices.repo.ts `fragments`). */
interface Audience {
  at: number;
  explain: boolean;
  customerCode: string | null;
  /** G: the customer's groups assigned to the channel. */
  groups: ReadonlySet<string>;
  /** The requested products that exist. */
  products: ReadonlySet<string>;
  /** Their groups and every ancestor. */
  productGroups: ReadonlySet<string>;
}

/** Positions of the records reaching a requested product (`forProducts`), ascending. */
function reaching<T>(reach: Reachable<T>, audience: Audience): number[] {
  const hit = new Set(reach.everyProduct);
  const add = (index: ReadonlyMap<string, number[]>, codes: ReadonlySet<string>) => {
    for (const code of codes) for (const at of index.get(code) ?? []) hit.add(at);
  };
  add(reach.byProduct, audience.products);
  add(reach.byGroup, audience.productGroups);
  return [...hit].sort((a, b) => a - b);
}

/** `live` without its status test, which the channel context already made. */
const inWindow = (record: { validTo: number | null }, a: Audience) =>
  a.explain || record.validTo === null || record.validTo > a.at;

const only = (codes: readonly string[], keep: ReadonlySet<string>) =>
  codes.length === 0 ? codes : codes.filter((code) => keep.has(code));

/** A record's product links trimmed to the request, as `sharedLinks` trims them in SQL. */
const trimmed = <T extends Targets & { customerGroupCodes: readonly string[] }>(
  record: T,
  a: Audience,
): T => ({
  ...record,
  productCodes: only(record.productCodes, a.products),
  productGroupCodes: only(record.productGroupCodes, a.productGroups),
  customerGroupCodes: only(record.customerGroupCodes, a.groups),
});

/** The records of `reach` that reach the request and are in its window, as `keep` makes them. */
function picked<T extends { validTo: number | null }, U>(
  reach: Reachable<T>,
  a: Audience,
  keep: (record: T) => U | undefined,
): U[] {
  const out: U[] = [];
  for (const at of reaching(reach, a)) {
    const record = reach.records[at]!;
    const kept = inWindow(record, a) ? keep(record) : undefined;
    if (kept) out.push(kept);
  }
  return out;
}

const conditionsFor = (
  conditions: Reachable<TradeConditionCandidate>,
  a: Audience,
): TradeConditionCandidate[] =>
  picked(conditions, a, (condition) => ({
    ...trimmed(condition, a),
    customerCodes: condition.customerCodes.filter((code) => code === a.customerCode),
  }));

/** Promotions also name no customer group, or one of G. */
const promotionsFor = (context: ChannelContext, a: Audience): PromotionCandidate[] =>
  picked(context.promotions, a, (promotion) => {
    const groups = promotion.customerGroupCodes;
    if (groups.length > 0 && !groups.some((code) => a.groups.has(code))) return undefined;
    return trimmed(promotion, a);
  });

/**
 * The price context of `query` from the channel context, the customer context (none: an
 * anonymous lookup) and the request's part, which must all describe the same data version: what
 * `loadPriceContext` answers for that version.
 */
export function assemblePriceContext(
  context: ChannelContext,
  customer: CustomerContext | undefined,
  part: RequestPart,
  query: PriceQuery,
): PriceContext {
  const own = customer ?? ANONYMOUS;
  const head = own.head;
  const groupCodes = [...(head?.groupCodes ?? [])].sort();
  const currency = context.channel ? (query.currency ?? context.channel.primaryCurrency) : null;
  const audience: Audience = {
    at: query.at,
    explain: query.explain,
    customerCode: query.customerCode,
    groups: new Set(groupCodes),
    products: new Set(part.products.keys()),
    productGroups: part.groupCodes,
  };
  const bases = chainOf(own, currency, chainOf(context, currency, new Map()));
  const rows = [...context.lists, ...bases.values(), ...own.lists];
  return {
    channel: context.channel && { code: context.channel.code, isActive: context.channel.isActive },
    customer:
      head?.customerCode != null
        ? { code: head.customerCode, inChannel: head.customerInChannel }
        : undefined,
    groupCodes,
    currency,
    products: part.products,
    version: part.version,
    ...listsOf(rows, part.prices),
    tradeConditions: [
      ...conditionsFor(context.conditions, audience),
      ...conditionsFor(own.conditions, audience),
    ],
    promotions: promotionsFor(context, audience),
  };
}
