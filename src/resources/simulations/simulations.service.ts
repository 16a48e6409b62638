import type { Db } from "../../db/client";
import { ApiError, conflict, invalid, notFound, type FieldIssue } from "../../lib/core/errors";
import { iso } from "../../lib/core/schemas";
import {
  resolvePrices,
  type ChannelRoundingMode,
  type LinePrice,
  type PricelistCandidate,
} from "../../pricing";
import {
  applyChangeSet,
  compareLines,
  MarginTotals,
  PriceChanges,
  type ChangeSet,
  type PriceChangeRow,
  type PriceChangeSummary,
  type PricingRecords,
  type RecordIds,
} from "../../pricing/simulation";
import { loadSimulationData, type Audience, type SimulationData } from "../../db/pricing/audiences";
import {
  loadSelection,
  type RecordKind,
  type SelectionQuery,
  type StoredSelection,
} from "./simulations.repo";
import { MAX_SIMULATED_PRODUCTS, type SimulationRequest } from "./simulations.schemas";

/*
 * The publish simulation (docs/simulation.md): the stored data read once, then the pure engine
 * twice on it, as stored and with the change set as an overlay, so the two answers can differ by
 * the change set only. Each product is priced as a one-line order of `quantity`, like
 * GET /v1/api/prices. Nothing is written.
 */

const KINDS: [RecordKind, keyof RecordIds, string][] = [
  ["pricelist", "pricelistIds", "pricelist"],
  ["tradeCondition", "tradeConditionIds", "trade condition"],
  ["promotion", "promotionIds", "promotion"],
];

function changeSetOf(changes: SimulationRequest["changes"]): ChangeSet {
  const ids = (named?: Partial<Record<keyof RecordIds, number[]>>): RecordIds => ({
    pricelistIds: named?.pricelistIds ?? [],
    tradeConditionIds: named?.tradeConditionIds ?? [],
    promotionIds: named?.promotionIds ?? [],
  });
  return {
    activate: ids(changes.activate),
    deactivate: ids(changes.deactivate),
    prices: changes.prices ?? [],
  };
}

/** Every id of one kind the change set names (activated, deactivated, repriced). */
function namedIds(changes: ChangeSet, field: keyof RecordIds): number[] {
  const repriced = field === "pricelistIds" ? changes.prices.map((p) => p.pricelistId) : [];
  return [...new Set([...changes.activate[field], ...changes.deactivate[field], ...repriced])];
}

function selectionQuery(request: SimulationRequest, changes: ChangeSet): SelectionQuery {
  const { customers, products } = request;
  return {
    channelCode: request.channelCode,
    currency: request.currency ?? null,
    customers: customers.codes
      ? { kind: "codes", codes: customers.codes }
      : customers.sample !== undefined
        ? { kind: "sample", size: customers.sample }
        : null,
    products: products.codes
      ? { kind: "codes", codes: products.codes }
      : products.productGroupCodes
        ? { kind: "groups", codes: products.productGroupCodes }
        : { kind: "sample", size: products.sample! },
    pricelistIds: namedIds(changes, "pricelistIds"),
    tradeConditionIds: namedIds(changes, "tradeConditionIds"),
    promotionIds: namedIds(changes, "promotionIds"),
    priceProductCodes: [...new Set(changes.prices.map((p) => p.productCode))],
  };
}

/** The channel rules of the price lookup (docs/pricing-rules.md §2), with its codes and words. */
function checkChannel(request: SimulationRequest, stored: StoredSelection): string {
  const { channel } = stored;
  if (!channel) throw notFound(`channel ${request.channelCode} not found`);
  if (!channel.isActive) {
    throw conflict(`channel ${request.channelCode} is not active`, "CHANNEL_INACTIVE");
  }
  if (!channel.currency) {
    const message = `channel ${request.channelCode} has no primary pricelist; name a currency`;
    throw new ApiError(400, "CURRENCY_REQUIRED", message, [
      { path: "body.currency", message: "is required for this channel" },
    ]);
  }
  return channel.currency;
}

function customerIssues(request: SimulationRequest, stored: StoredSelection): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const { index, code, known, inChannel } of stored.customers) {
    const path = `body.customers.codes.${index}`;
    if (!known) issues.push({ path, message: `unknown customer ${code}` });
    else if (!inChannel) {
      const message = `customer ${code} is not assigned to channel ${request.channelCode}`;
      issues.push({ path, message });
    }
  }
  if (request.customers.sample !== undefined && stored.customers.length === 0) {
    if (!request.customers.anonymous) {
      const message = `channel ${request.channelCode} has no customers to sample`;
      issues.push({ path: "body.customers.sample", message });
    }
  }
  return issues;
}

function productIssues(request: SimulationRequest, stored: StoredSelection): FieldIssue[] {
  const { codes, productGroupCodes } = request.products;
  const field = codes ? "codes" : productGroupCodes ? "productGroupCodes" : "sample";
  const noun = codes ? "product" : "product group";
  const issues: FieldIssue[] = [];
  for (const { kind, index, code, known } of stored.products) {
    if (kind === "ENTRY" && !known) {
      issues.push({ path: `body.products.${field}.${index}`, message: `unknown ${noun} ${code}` });
    }
  }
  const count = stored.products.filter((p) => p.kind === "PRODUCT").length;
  if (issues.length || codes) return issues;
  const path = `body.products.${field}`;
  if (count > MAX_SIMULATED_PRODUCTS) {
    const message = `hold more than ${MAX_SIMULATED_PRODUCTS} products; name fewer groups, or products by code`;
    issues.push({ path, message });
  } else if (count === 0) {
    issues.push({
      path,
      message: productGroupCodes ? "hold no products" : "there are no products",
    });
  }
  return issues;
}

/** Activations of records not ACTIVE, deactivations of ACTIVE ones, tiers of editable lists. */
function changeIssues(changes: ChangeSet, stored: StoredSelection): FieldIssue[] {
  const status = new Map(stored.records.map((r) => [`${r.kind} ${r.id}`, r.status]));
  const issues: FieldIssue[] = [];
  for (const [kind, field, noun] of KINDS) {
    const check = (side: "activate" | "deactivate", judge: (s: string) => string | null) =>
      changes[side][field].forEach((id, i) => {
        const found = status.get(`${kind} ${id}`);
        const message = found === undefined ? "not found" : judge(found);
        const path = `body.changes.${side}.${field}.${i}`;
        if (message) issues.push({ path, message: `${noun} ${id} ${message}` });
      });
    check("activate", (s) =>
      s === "ACTIVE"
        ? "is already ACTIVE"
        : s === "ARCHIVED"
          ? "is ARCHIVED and cannot become ACTIVE"
          : null,
    );
    check("deactivate", (s) => (s === "ACTIVE" ? null : `is ${s}, not ACTIVE`));
  }
  changes.prices.forEach(({ pricelistId, productCode }, i) => {
    const found = status.get(`pricelist ${pricelistId}`);
    const path = `body.changes.prices.${i}`;
    if (found === undefined || found === "ARCHIVED") {
      const why = found ? "is ARCHIVED and can no longer be edited" : "not found";
      issues.push({ path: `${path}.pricelistId`, message: `pricelist ${pricelistId} ${why}` });
    }
    if (!stored.priceProductCodes.has(productCode)) {
      issues.push({ path: `${path}.productCode`, message: `unknown product ${productCode}` });
    }
  });
  return issues;
}

/** Whom and what to price, once the request is known to be sound (else its 404, 409 or 400). */
function checkSelection(request: SimulationRequest, changes: ChangeSet, stored: StoredSelection) {
  const currency = checkChannel(request, stored);
  const issues = [
    ...customerIssues(request, stored),
    ...productIssues(request, stored),
    ...changeIssues(changes, stored),
  ];
  if (issues.length) throw invalid(issues);
  return {
    currency,
    customerCodes: stored.customers.map((c) => c.code),
    // Named products are the entries; a sample or groups select the PRODUCT rows.
    productCodes: stored.products
      .filter((p) => p.kind === (request.products.codes ? "ENTRY" : "PRODUCT"))
      .map((p) => p.code),
  };
}

export interface Simulation {
  channelCode: string;
  currency: string;
  at: string;
  quantity: number;
  rows: PriceChangeRow[];
  rowsOmitted: number;
  summary: PriceChangeSummary;
}

/** What every engine request of one simulation shares. */
interface Run {
  at: number;
  currency: string;
  /** The channel's (docs/pricing-rules.md §20). */
  roundingMode: ChannelRoundingMode;
  channelCode: string;
  quantity: number;
  productCodes: readonly string[];
  data: SimulationData;
}

/** The records of one side (as stored, or with the change set), the pricelists by id. */
interface Side {
  records: PricingRecords;
  lists: Map<number, PricelistCandidate>;
}

const sideOf = (records: PricingRecords): Side => ({
  records,
  lists: new Map(records.pricelists.map((p) => [p.id, p])),
});

/** One buyer's lines on one side, each product a one-line order. */
function priceFor(run: Run, customerCode: string | null, { records, lists }: Side): LinePrice[] {
  const audience: Audience = run.data.audiences.get(customerCode) ?? { groupCodes: [], reach: [] };
  // Each list at every level it reaches this buyer; the engine merges them by id.
  const pricelists: PricelistCandidate[] = audience.reach.flatMap(({ pricelistId, level }) => {
    const list = lists.get(pricelistId);
    return list ? [{ ...list, levels: [level] }] : [];
  });
  return resolvePrices({
    ...records,
    pricelists,
    // An admin's simulation: every line with its cost and margin (docs/pricing-rules.md §26).
    margin: true,
    at: run.at,
    currency: run.currency,
    roundingMode: run.roundingMode,
    channel: { code: run.channelCode },
    customer: customerCode === null ? null : { code: customerCode },
    groupCodes: audience.groupCodes,
    products: run.data.products,
    separateOrders: true,
    lines: run.productCodes.map((productCode) => ({ productCode, quantity: run.quantity })),
  }).lines;
}

/** The rows of every buyer whose lines differ (the first `maxRows`), and the summary over all. */
function compareAll(
  run: Run,
  buyers: readonly (string | null)[],
  changes: ChangeSet,
  maxRows: number,
) {
  const before = sideOf(run.data.records);
  const after = sideOf(applyChangeSet(run.data.records, changes));
  const changed = new PriceChanges(maxRows);
  const margin = {
    before: new MarginTotals(run.roundingMode),
    after: new MarginTotals(run.roundingMode),
  };
  for (const customerCode of buyers) {
    const linesBefore = priceFor(run, customerCode, before);
    const linesAfter = priceFor(run, customerCode, after);
    linesBefore.forEach((line, i) => {
      margin.before.add(line);
      margin.after.add(linesAfter[i]!);
      const row = compareLines(customerCode, line, linesAfter[i]!);
      if (row) changed.add(row);
    });
  }
  return changed.result(buyers.length * run.productCodes.length, {
    before: margin.before.result(),
    after: margin.after.result(),
  });
}

/** POST /v1/api/simulations/prices: two D1 round trips, then the engine twice per buyer. */
export async function simulatePrices(db: Db, request: SimulationRequest): Promise<Simulation> {
  const at = request.at ?? Date.now();
  const changes = changeSetOf(request.changes);
  const query = selectionQuery(request, changes);
  const stored = await loadSelection(db, query, MAX_SIMULATED_PRODUCTS);
  const { currency, customerCodes, productCodes } = checkSelection(request, changes, stored);
  const data = await loadSimulationData(db, {
    channelCode: request.channelCode,
    currency,
    at,
    customerCodes,
    productCodes,
    pricelistIds: query.pricelistIds,
    tradeConditionIds: query.tradeConditionIds,
    promotionIds: query.promotionIds,
  });
  const run = {
    at,
    currency,
    roundingMode: stored.channel!.roundingMode,
    channelCode: request.channelCode,
    quantity: request.quantity,
    productCodes,
    data,
  };
  const buyers = [...(request.customers.anonymous ? [null] : []), ...customerCodes];
  return {
    channelCode: request.channelCode,
    currency,
    at: iso(at),
    quantity: request.quantity,
    ...compareAll(run, buyers, changes, request.maxRows),
  };
}
