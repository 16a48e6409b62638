import type {
  ChannelRoundingMode,
  PromotionCandidate,
  QuoteTerms,
  TradeConditionCandidate,
} from "../../pricing";
import { currencyOf } from "./facts";
import { agreementsOf } from "./quote-terms";
import { listsOf, ratesAt, type ListRow } from "./columns";
import type { ChannelPart, CustomerPart, PriceContext, PriceQuery, RequestPart } from "./lookup";
import {
  chainOf,
  inWindow,
  priceListIds,
  reachable,
  reachedCodes,
  reachesGroups,
  reaching,
  trimmed,
  type Audience,
  type Reachable,
  type Targets,
} from "./reach";

/*
 * The cached contexts (docs/architecture.md "The context caches"): what every price lookup in a
 * channel reads whoever asks, for whichever products, at whichever moment (the channel, its
 * lists, its GLOBAL and CHANNEL conditions, its promotions, each with every link), and the same
 * for one customer's lookups; src/db/pricing/reader.ts keeps them between
 * requests. A lookup then reads only its own part (lookup.ts `loadRequestPart`) and
 * `assemblePriceContext` picks from both contexts, in memory, exactly the records the one-batch
 * reader (`loadPriceContext`) reads in SQL, with their link lists trimmed the same way (reach.ts
 * holds each SQL test beside its in-memory twin): the engine gets the same input, so the answer
 * is the same byte for byte (test/prices/price-context-cache.test.ts,
 * test/pricing/pricing-reader.test.ts).
 */

export interface ChannelContext {
  channel:
    | {
        code: string;
        isActive: boolean;
        roundingMode: ChannelRoundingMode;
        primaryCurrency: string | null;
      }
    | undefined;
  /**
   * The SALES lists at the channel levels, and the channel's floors; a derived list with every
   * exchange rate of its pair (docs/pricing-rules.md §19), so rates are cached with the lists.
   */
  lists: readonly ListRow[];
  /** Every list a SALES list of the channel derives from, up to 3 steps, by id. */
  bases: ReadonlyMap<number, ListRow>;
  conditions: Reachable<TradeConditionCandidate>;
  promotions: Reachable<PromotionCandidate>;
  /** The rows it holds (records, list rows, link codes and scales): its weight in the cache. */
  rows: number;
}

/** Freezes a record's lists: the engine must never change what later requests share. */
function frozenLists<T extends object>(record: T): T {
  for (const value of Object.values(record)) if (Array.isArray(value)) Object.freeze(value);
  return record;
}

/** Freezes a record and its lists. */
const frozen = <T extends object>(record: T): T => Object.freeze(frozenLists(record));

/**
 * Conditions and promotions reach the engine only as `trimmed`'s copies, which share their
 * lists: the lists are frozen, the records are not, so that each request copies them on V8's
 * fast path (a frozen object is copied property by property, some 9 times slower).
 */
const frozenReach = <T extends Targets>(records: readonly T[]) =>
  reachable(records.map(frozenLists));

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

/** The channel part as read (lookup.ts `loadChannelAndRequest`), indexed for lookups. */
export function channelContextOf(part: ChannelPart): ChannelContext {
  const head = part.channel;
  return {
    channel: head && {
      code: head.channelCode,
      isActive: head.channelIsActive,
      roundingMode: head.roundingMode,
      primaryCurrency: head.primaryCurrency,
    },
    ...listsAndBases(part.lists),
    conditions: frozenReach(part.conditions),
    promotions: frozenReach(part.promotions),
    rows: 1 + linkCount(part.lists) + linkCount(part.conditions) + linkCount(part.promotions),
  };
}

/**
 * The customer context: what every lookup of one customer in one channel reads whichever
 * products it asks for, at whichever moment (the customer, whether it buys in the channel, G;
 * the lists reaching it at the customer levels with their chains; its CUSTOMER and
 * CUSTOMER_GROUP conditions with every product link).
 */
export interface CustomerContext {
  head: CustomerPart["customer"];
  /** The SALES lists at the customer levels. */
  lists: readonly ListRow[];
  /** Every list one of them derives from, up to 3 steps, by id. */
  bases: ReadonlyMap<number, ListRow>;
  conditions: Reachable<TradeConditionCandidate>;
  /** Its ACCEPTED AGREEMENT quotes in the channel, every window (docs/pricing-rules.md §28.2). */
  agreements: readonly QuoteTerms[];
  /** The rows it holds (as ChannelContext's). */
  rows: number;
}

/** The customer part as read (lookup.ts `loadRequestPart`), indexed for lookups. */
export function customerContextOf(part: CustomerPart): CustomerContext {
  if (part.customer) frozen(part.customer);
  const agreements = agreementsOf(part.customer?.agreements ?? []).map(frozen);
  return {
    head: part.customer,
    ...listsAndBases(part.lists),
    conditions: frozenReach(part.conditions),
    agreements,
    rows: 1 + linkCount(part.lists) + linkCount(part.conditions) + linkCount(agreements),
  };
}

/** No customer: an anonymous lookup. */
const ANONYMOUS: CustomerContext = customerContextOf({
  customer: undefined,
  lists: [],
  conditions: [],
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
  picked(conditions, a, (condition) => {
    // `trimmed` answers a copy of its own: its customer links are set on it, not copied again.
    const kept = trimmed(condition, a);
    kept.customerCodes = condition.customerCodes.filter((code) => code === a.customerCode);
    return kept;
  });

const promotionsFor = (context: ChannelContext, a: Audience): PromotionCandidate[] =>
  picked(context.promotions, a, (promotion) =>
    reachesGroups(promotion.customerGroupCodes, a) ? trimmed(promotion, a) : undefined,
  );

/** What a lookup takes of its contexts before it reads its products. */
export interface ContextView {
  own: CustomerContext;
  currency: string | null;
  /** The contexts' lists and the bases of the chains that can price in `currency`. */
  lists: ListRow[];
  /** The lists whose rows the lookup needs (reach.ts `priceListIds`). */
  listIds: number[];
}

/** The lists of the channel context and the customer context (none: anonymous) for `query`. */
export function viewOf(
  context: ChannelContext,
  customer: CustomerContext | undefined,
  query: PriceQuery,
): ContextView {
  const own = customer ?? ANONYMOUS;
  const currency = context.channel
    ? currencyOf(query.currency, context.channel.primaryCurrency)
    : null;
  const bases = chainOf(own, currency, chainOf(context, currency, new Map()));
  return {
    own,
    currency,
    lists: [...context.lists, ...bases.values(), ...own.lists],
    listIds: priceListIds([...context.lists, ...own.lists], bases, currency, query.explain),
  };
}

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
  view: ContextView = viewOf(context, customer, query),
): PriceContext {
  const head = view.own.head;
  const groupCodes = [...(head?.groupCodes ?? [])].sort();
  const audience: Audience = {
    at: query.at,
    explain: query.explain,
    customerCode: query.customerCode,
    groups: new Set(groupCodes),
    reached: reachedCodes(part.products),
  };
  return {
    channel: context.channel && {
      code: context.channel.code,
      isActive: context.channel.isActive,
      roundingMode: context.channel.roundingMode,
    },
    customer:
      head?.customerCode != null
        ? { code: head.customerCode, inChannel: head.customerInChannel }
        : undefined,
    groupCodes,
    agreements: [...view.own.agreements],
    currency: view.currency,
    products: part.products,
    version: part.version,
    seenVersion: part.seenVersion,
    ...listsOf(view.lists, part.prices),
    exchangeRates: ratesAt(view.lists, query.at),
    tradeConditions: [
      ...conditionsFor(context.conditions, audience),
      ...conditionsFor(view.own.conditions, audience),
    ],
    promotions: promotionsFor(context, audience),
  };
}
