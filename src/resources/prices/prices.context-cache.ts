import type { Db } from "../../lib/db";
import { IsolateCache, type CacheBounds } from "../../lib/isolate-cache";
import { assemblePriceContext, channelContextOf, type ChannelContext } from "./prices.context";
import {
  loadChannelAndRequest,
  loadPriceContext,
  loadRequestPart,
  type PriceContext,
  type PriceQuery,
} from "./prices.repo";

/**
 * The isolate's cache of channel contexts (prices.context.ts), docs/performance.md "The channel
 * context cache". Keyed by channel and explain (explain keeps records of every status); the
 * currency, the customer, the products and the moment are applied per request, so one entry
 * serves them all. Each entry names the pricing data version it was read at, and is used only by
 * a lookup whose own batch reads that same version: a lookup never mixes data of two versions.
 */

/** Whether the channel context came from the cache: the `ctx` entry of Server-Timing. */
export type ContextCacheStatus = "hit" | "miss" | "off";

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

/** A context too large to keep is not read again for this long: those lookups use one batch. */
const OVERSIZED_RETRY_MS = 10 * 60_000;

interface Entry {
  version: number;
  context: ChannelContext;
}

const cache = new IsolateCache<Entry>(CONTEXT_CACHE_BOUNDS);
/** Channels whose context was too large to keep, until when the one-batch loader serves them. */
const oversized = new Map<string, number>();

/** The switch `PRICE_CONTEXT_CACHE`: "off" (any case) disables the cache; anything else keeps it. */
export const contextCacheEnabled = (value: string | undefined) =>
  value?.trim().toLowerCase() !== "off";

const keyOf = (query: PriceQuery) => JSON.stringify([query.channelCode, query.explain]);

/** Empties the cache (tests). */
export function clearContextCache() {
  cache.clear();
  oversized.clear();
}

export interface LoadedContext {
  context: PriceContext;
  cache: ContextCacheStatus;
}

/** Keeps the context just read, or notes that it is too large to keep. */
function remember(key: string, version: number, context: ChannelContext) {
  // A channel that does not exist is not kept: made-up codes would push real channels out.
  if (!context.channel) return;
  if (!cache.set(key, { version, context }, context.rows)) {
    oversized.set(key, Date.now() + OVERSIZED_RETRY_MS);
  }
}

/**
 * The price context of a lookup. With a cached channel context: ONE round trip (the request's
 * part, which reads the data version too); when that version is the entry's, the answer is built
 * from both ("hit"). Otherwise, or without an entry, ONE round trip reads both parts at one
 * version ("miss": two round trips when a stale entry was tried first, one without an entry).
 */
export async function loadContext(
  db: Db,
  query: PriceQuery,
  enabled: boolean,
): Promise<LoadedContext> {
  if (!enabled) return { context: await loadPriceContext(db, query), cache: "off" };
  const key = keyOf(query);
  const until = oversized.get(key);
  if (until !== undefined) {
    if (Date.now() < until) return { context: await loadPriceContext(db, query), cache: "miss" };
    oversized.delete(key);
  }
  const entry = cache.get(key);
  if (entry) {
    const part = await loadRequestPart(db, query);
    if (part.version === entry.version) {
      return { context: assemblePriceContext(entry.context, part, query), cache: "hit" };
    }
  }
  const loaded = await loadChannelAndRequest(db, query);
  const context = channelContextOf(loaded.channel);
  // The latest read replaces the entry, also an older version (a replica behind, or a restore):
  // the next lookup reads the version again either way, so an entry is never wrong, only stale.
  remember(key, loaded.request.version, context);
  return { context: assemblePriceContext(context, loaded.request, query), cache: "miss" };
}
