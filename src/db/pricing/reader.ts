import { loggable } from "../../core/errors";
import type { Db } from "../client";
import { IsolateCache, type CacheBounds } from "../isolate-cache";
import {
  assemblePriceContext,
  channelContextOf,
  customerContextOf,
  viewOf,
  type ChannelContext,
  type CustomerContext,
} from "./contexts";
import {
  loadChannelAndRequest,
  loadPriceContext,
  loadRequestPart,
  type CustomerPart,
  type PriceContext,
  type PriceQuery,
  type RequestPart,
} from "./lookup";
import {
  clearProductCache,
  heldProductPart,
  loadProductPart,
  rememberProducts,
} from "./product-cache";
import { stalled, within, type StallPolicy } from "./stall";

/*
 * The pricing reader (docs/architecture.md §2.3): the one entry a price request calls for its
 * whole context, `readPricingContext`, and the caches it owns. Below it, lookup.ts writes the
 * statements and contexts.ts assembles a request's context from the cached parts; the reader
 * decides which of them a request needs, sends its ONE round trip and keeps what it read.
 */

/**
 * The isolate's caches of channel contexts and of customer contexts (src/db/pricing/contexts.ts),
 * docs/architecture.md §3 (how they stay exact) and docs/performance.md "The caches" (their bounds
 * and what they save). A channel context is keyed by channel and
 * explain (explain keeps records of every status), a customer context by channel, customer and
 * explain; the currency, the products and the moment are applied per request, so one entry
 * serves them all (explain, and the key's scope, are part of both keys). Each entry
 * names the pricing data version it was read at, and is used only by
 * a lookup whose own batch reads that same version: a lookup never mixes data of two versions.
 */

/**
 * Whether the cached contexts served the lookup: the `ctx` entry of Server-Timing. "hit": the
 * channel's context, and a named customer's, came from the cache; "miss": one of them was read;
 * "stale": D1 stalled and the isolate's data answered (stall.ts).
 */
export type ContextCacheStatus = "hit" | "miss" | "off" | "stale";

/**
 * At most 64 channel contexts and 200,000 rows in all (records, list rows, link codes and
 * scales: about 150-190 bytes each with the indexes, measured on V8, so some 36 MB at worst, under
 * a third of an isolate's 128 MB); a context of more than 50,000 rows (9 MB) is not kept at all.
 * A channel of the 100k bench data holds 3,784 rows.
 */
export const CONTEXT_CACHE_BOUNDS: CacheBounds = {
  maxEntries: 64,
  maxWeight: 200_000,
  maxEntryWeight: 50_000,
};

/**
 * At most 2,000 customer contexts and 120,000 rows in all (some 20 MB at the channel contexts'
 * 150-190 bytes a row, so both caches stay under half an isolate's 128 MB); one of more than
 * 6,000 rows (a customer with hundreds of conditions of its own, or conditions naming thousands
 * of products) is not kept, and its lookups read it in their one batch. There are many customers
 * and each entry serves only its own lookups, so the rows bound the cache rather than the count:
 * a customer of the 100k bench data holds some 360 rows on average (its conditions name 8
 * products each), at most about 1,000, so some 330 such customers fit, the ones buying now (the
 * least recently used go first); customers with few conditions of their own, up to 2,000.
 */
export const CUSTOMER_CACHE_BOUNDS: CacheBounds = {
  maxEntries: 2_000,
  maxWeight: 120_000,
  maxEntryWeight: 6_000,
};

/** A context too large to keep is not read again for this long: those lookups use one batch. */
const OVERSIZED_RETRY_MS = 10 * 60_000;

interface Entry<C = ChannelContext> {
  version: number;
  context: C;
}

const cache = new IsolateCache<Entry>(CONTEXT_CACHE_BOUNDS);
const customers = new IsolateCache<Entry<CustomerContext>>(CUSTOMER_CACHE_BOUNDS);
/** Channels whose context was too large to keep, until when the one-batch loader serves them. */
const oversized = new Map<string, number>();

/** The switch `PRICE_CONTEXT_CACHE`: "off" (any case) disables the cache; anything else keeps it. */
export const contextCacheEnabled = (value: string | undefined) =>
  value?.trim().toLowerCase() !== "off";

// By scope too (`scope.key`): an admin's contexts hold COST lists and ACCRUAL conditions, a read
// key's never (docs/api/access.md §18), so a read key's lookup never even holds a cost in memory.
const keyOf = (query: PriceQuery) =>
  JSON.stringify([query.channelCode, query.explain, query.scope.key]);

const customerKeyOf = (query: PriceQuery) =>
  JSON.stringify([query.channelCode, query.customerCode, query.explain, query.scope.key]);

/**
 * The data version the latest lookup read from D1, and when that read was sent: every entry of
 * this version was current then (the version names all the pricing data), which is how old a
 * stale answer is (stall.ts). The latest read wins, as for the entries.
 */
let confirmed = { version: -1, seenVersion: -1, at: 0 };

function confirm(version: number, seenVersion: number, at: number) {
  if (version !== confirmed.version || at > confirmed.at) confirmed = { version, seenVersion, at };
}

/** Empties the caches (tests). */
export function clearContextCache() {
  cache.clear();
  customers.clear();
  oversized.clear();
  clearProductCache();
  confirmed = { version: -1, seenVersion: -1, at: 0 };
}

export interface LoadedContext {
  context: PriceContext;
  cache: ContextCacheStatus;
  /** Only with "stale": ms since the data answered with was last confirmed current. */
  ageMs?: number;
}

/** Keeps the context just read, or notes that it is too large to keep. */
function remember(key: string, version: number, context: ChannelContext) {
  // A channel that does not exist is not kept: made-up codes would push real channels out.
  if (!context.channel) return;
  if (!cache.set(key, { version, context }, context.rows)) {
    oversized.set(key, Date.now() + OVERSIZED_RETRY_MS);
  }
}

/** The customer context just read, kept unless the customer does not exist (as a channel). */
function rememberCustomer(query: PriceQuery, version: number, part: CustomerPart) {
  const context = customerContextOf(part);
  if (part.customer?.customerCode != null) {
    customers.set(customerKeyOf(query), { version, context }, context.rows);
  }
  return context;
}

/** The customer context kept for `query` at `version`, if any (never for an anonymous lookup). */
function cachedCustomer(query: PriceQuery, version: number) {
  if (query.customerCode === null) return undefined;
  const entry = customers.get(customerKeyOf(query));
  return entry?.version === version ? entry.context : undefined;
}

/**
 * The context of `query` from its contexts and its own part, and the product cache told what the
 * part held (the rows of every list the contexts say can price).
 */
function assembled(
  context: ChannelContext,
  customer: CustomerContext | undefined,
  part: RequestPart,
  query: PriceQuery,
) {
  const view = viewOf(context, customer, query);
  rememberProducts(part.version, query.productCodes, part, view.listIds);
  return assemblePriceContext(context, customer, part, query, view);
}

/**
 * With a cached channel context: ONE round trip. When the customer's context is cached too (or
 * the lookup is anonymous), the request's part comes from the product cache, which reads only
 * the version and what it lacks; else the request's part and the customer's are read. When the
 * data's version is the entry's, the answer is built from them; else undefined.
 */
async function fromEntry(
  db: Db,
  query: PriceQuery,
  entry: Entry,
): Promise<LoadedContext | undefined> {
  const anonymous = query.customerCode === null;
  const known = cachedCustomer(query, entry.version);
  if (anonymous || known) {
    const view = viewOf(entry.context, known, query);
    const part = await loadProductPart(db, entry.version, query.productCodes, view.listIds);
    if (!part) return undefined;
    return {
      context: assemblePriceContext(entry.context, known, part, query, view),
      cache: "hit",
    };
  }
  const parts = await loadRequestPart(db, query, true);
  const { version } = parts.request;
  if (version !== entry.version) return undefined;
  const customer = parts.customer && rememberCustomer(query, version, parts.customer);
  return { context: assembled(entry.context, customer, parts.request, query), cache: "miss" };
}

/**
 * The whole context of `query` from the isolate alone, when it holds it at the version D1 last
 * confirmed: the channel's entry, the customer's (unless anonymous) and every product with the
 * rows of every list the lookup may price from. Undefined when anything is missing.
 */
function heldContext(query: PriceQuery): LoadedContext | undefined {
  const entry = cache.get(keyOf(query));
  if (!entry || entry.version !== confirmed.version) return undefined;
  const customer = cachedCustomer(query, entry.version);
  if (query.customerCode !== null && !customer) return undefined;
  const view = viewOf(entry.context, customer, query);
  const part = heldProductPart(confirmed, query.productCodes, view.listIds);
  if (!part) return undefined;
  const context = assemblePriceContext(entry.context, customer, part, query, view);
  return { context, cache: "stale", ageMs: Date.now() - confirmed.at };
}

/** Reads every part of `query` at one version in ONE round trip and keeps the contexts. */
async function readAll(db: Db, query: PriceQuery, key: string): Promise<LoadedContext> {
  const sent = Date.now();
  const loaded = await loadChannelAndRequest(db, query);
  const context = channelContextOf(loaded.channel);
  const { version, seenVersion } = loaded.request;
  confirm(version, seenVersion, sent);
  // The latest read replaces the entries, also an older version (a replica behind, or a restore):
  // the next lookup reads the version again either way, so an entry is never wrong, only stale.
  remember(key, version, context);
  const customer = loaded.customer && rememberCustomer(query, version, loaded.customer);
  return { context: assembled(context, customer, loaded.request, query), cache: "miss" };
}

/** With an entry: its freshness check (`fromEntry`), and when the version moved, a full read. */
async function checked(db: Db, query: PriceQuery, key: string, entry: Entry) {
  const sent = Date.now();
  const warm = await fromEntry(db, query, entry);
  if (!warm) return readAll(db, query, key);
  confirm(entry.version, warm.context.seenVersion, sent);
  return warm;
}

/**
 * Waits for the freshness check up to the policy's bound (the shorter one once this isolate's own
 * long D1 work is in flight, stall.ts `within`); past it, answers from the isolate when
 * it holds the whole context (stale, at most `staleMaxS` old, else 503) and leaves the check to
 * finish in the background, where its answer refreshes the caches. Without the whole context,
 * waits as if there were no bound.
 */
async function throughStall(
  fresh: Promise<LoadedContext>,
  query: PriceQuery,
  policy: StallPolicy,
): Promise<LoadedContext> {
  const first = await within(fresh, policy);
  if ("value" in first) return first.value;
  const held = heldContext(query);
  if (!held) return fresh;
  policy.background(
    fresh.catch((err: unknown) => {
      console.error(
        JSON.stringify({ message: "late freshness check failed", error: loggable(err) }),
      );
    }),
  );
  if (held.ageMs! > policy.staleMaxS * 1000) throw stalled(policy, first.stalledMs);
  return held;
}

/** How the reader reads a lookup's data. */
export interface PricingReadOptions {
  /** Keep the channel context in the isolate (PRICE_CONTEXT_CACHE); false: one batch reads all. */
  cache: boolean;
  /** Told whether the channel context came from the cache, as soon as that is known. */
  onContext?: (status: ContextCacheStatus) => void;
  /** Answer from the isolate's data when D1 stalls (stall.ts); absent: always wait. */
  stall?: StallPolicy;
}

/**
 * The price context of a lookup: the one entry a price request calls, once. With a cached channel
 * context: ONE round trip (`fromEntry`, "hit" when the customer's context was cached too). When
 * the version moved, or without an entry, ONE round trip reads every part at one version ("miss":
 * two round trips when a stale entry was tried first, one without an entry). With a stall policy,
 * a check of a held context that D1 keeps waiting past its bound is answered from the isolate
 * (`throughStall`). Without the cache ("off"), one batch reads everything (lookup.ts
 * `loadPriceContext`).
 */
export async function readPricingContext(
  db: Db,
  query: PriceQuery,
  options: PricingReadOptions = { cache: true },
): Promise<LoadedContext> {
  const loaded = await loadContext(db, query, options.cache, options.stall);
  options.onContext?.(loaded.cache);
  return loaded;
}

async function loadContext(
  db: Db,
  query: PriceQuery,
  enabled: boolean,
  stall?: StallPolicy,
): Promise<LoadedContext> {
  if (!enabled) return { context: await loadPriceContext(db, query), cache: "off" };
  const key = keyOf(query);
  const until = oversized.get(key);
  if (until !== undefined) {
    if (Date.now() < until) return { context: await loadPriceContext(db, query), cache: "miss" };
    oversized.delete(key);
  }
  const entry = cache.get(key);
  if (!entry) return readAll(db, query, key);
  const fresh = checked(db, query, key, entry);
  return stall ? throughStall(fresh, query, stall) : fresh;
}
