import type { Db } from "../../db/client";
import { ApiError, conflict, invalid, notFound, type FieldIssue } from "../../core/errors";
import { iso } from "../../core/schemas";
import { nextTurn } from "../../core/steps";
import { holdingD1 } from "../../db/holding";
import { TARGET_DOCS } from "../../core/targeting";
import { TARGET_FIELDS } from "../../pricing";
import {
  comparePrices,
  type PairObserver,
  type SimulationResult,
  type ChangeSet,
  type PriceChangeRow,
  type PriceChangeSummary,
  type RecordIds,
} from "../../pricing/simulation";
import { loadSimulationData } from "../../db/pricing/audiences";
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
      : (selectedBy(products) ?? { kind: "sample", size: products.sample! }),
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

/** The products named by the codes of a targeting dimension, if the request selects them so. */
function selectedBy(products: SimulationRequest["products"]) {
  for (const field of TARGET_FIELDS) {
    const codes = field === "productCodes" ? undefined : products[field];
    if (codes) return { kind: "targets" as const, field, codes };
  }
  return undefined;
}

function productIssues(request: SimulationRequest, stored: StoredSelection): FieldIssue[] {
  const { codes } = request.products;
  const by = selectedBy(request.products);
  const field = codes ? "codes" : (by?.field ?? "sample");
  const noun = by ? TARGET_DOCS[by.field].noun : "product";
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
      message: by ? "hold no products" : "there are no products",
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

/** The answer (docs/simulation.md §4). */
export interface Simulation {
  channelCode: string;
  currency: string;
  at: string;
  quantity: number;
  rows: PriceChangeRow[];
  rowsOmitted: number;
  summary: PriceChangeSummary;
}

/**
 * The answer as the Worker holds it until it is written: each row as its JSON, one string,
 * rather than the objects of its two lines (docs/simulation.md §8).
 */
export interface HeldSimulation extends Omit<Simulation, "rows"> {
  rows: string[];
}

/**
 * How many simulations may run at once in one isolate (docs/simulation.md §9): one in all (so one
 * per API key name too): two of the largest at once pushed lookups' p99 to about 3× their p99
 * alone, one keeps it within 2×, and what it holds stays well inside an isolate's 128 MB. Over either → 429 with Retry-After.
 * A place is held from the start until the answer is written or the client goes away, and for
 * `leaseSeconds` at most: a request the platform drops midway (a client that disconnects) may
 * never run the code that gives its place back.
 */
export const SIMULATION_LIMITS = {
  perKey: 1,
  perIsolate: 1,
  retryAfterSeconds: 5,
  leaseSeconds: 60,
} as const;

function tooManySimulations(why: string): ApiError {
  const seconds = SIMULATION_LIMITS.retryAfterSeconds;
  return new ApiError(
    429,
    "TOO_MANY_SIMULATIONS",
    `${why}; retry after ${seconds} seconds`,
    undefined,
    { headers: { "retry-after": String(seconds) } },
  );
}

/** The 429 of a key that already has a simulation running here. */
export const keyBusy = () =>
  tooManySimulations(
    `a simulation of this API key is still running (at most ${SIMULATION_LIMITS.perKey} per key at a time)`,
  );

/** The 429 of an isolate that runs as many simulations as it may (`most`). */
export const isolateBusy = (most: number = SIMULATION_LIMITS.perIsolate) =>
  tooManySimulations(
    `${most === 1 ? "a simulation is" : `${most} simulations are`} running on this server instance, the most it runs at once`,
  );

/** The simulations running in one isolate, each with the key that runs it and its lease. */
export class SimulationPlaces {
  private readonly held = new Set<{ keyName: string; until: number }>();

  constructor(
    private readonly limits: {
      perKey: number;
      perIsolate: number;
      leaseSeconds: number;
    } = SIMULATION_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A place for a simulation of `keyName`, or the 429 thrown; the answer gives it back (later
   * calls do nothing). Places past their lease are given back first.
   */
  claim(keyName: string): () => void {
    const now = this.now();
    for (const place of this.held) if (place.until <= now) this.held.delete(place);
    const mine = [...this.held].filter((place) => place.keyName === keyName).length;
    if (mine >= this.limits.perKey) throw keyBusy();
    if (this.held.size >= this.limits.perIsolate) throw isolateBusy(this.limits.perIsolate);
    const place = { keyName, until: now + this.limits.leaseSeconds * 1000 };
    this.held.add(place);
    return () => void this.held.delete(place);
  }
}

/** This isolate's simulations. */
const places = new SimulationPlaces();

/** A place for a simulation of `keyName` in this isolate, or the 429 (see SimulationPlaces). */
export const claimSimulation = (keyName: string) => places.claim(keyName);

/**
 * A simulation read and checked (two D1 round trips; or its 404, 409 or 400), with its
 * comparison ready to run in steps (`comparePrices`) and the head of its answer. `observe`, when
 * given, sees every pair (the route gives none; a change request's impact sums over them all).
 */
export async function startSimulation(db: Db, request: SimulationRequest, observe?: PairObserver) {
  const at = request.at ?? Date.now();
  const changes = changeSetOf(request.changes);
  const query = selectionQuery(request, changes);
  // Both reads are long D1 work of this isolate: its price lookups wait less behind them.
  const stored = await holdingD1(() => loadSelection(db, query, MAX_SIMULATED_PRODUCTS));
  const { currency, customerCodes, productCodes } = checkSelection(request, changes, stored);
  const data = await holdingD1(() =>
    loadSimulationData(db, {
      channelCode: request.channelCode,
      currency,
      at,
      customerCodes,
      productCodes,
      pricelistIds: query.pricelistIds,
      tradeConditionIds: query.tradeConditionIds,
      promotionIds: query.promotionIds,
    }),
  );
  const steps = comparePrices(
    {
      at,
      currency,
      // The channel's (docs/pricing-rules.md §21); checkSelection answered 404 without one.
      roundingMode: stored.channel!.roundingMode,
      channelCode: request.channelCode,
      quantity: request.quantity,
      buyers: [...(request.customers.anonymous ? [null] : []), ...customerCodes],
      productCodes,
      products: data.products,
      audiences: data.audiences,
      records: data.records,
      changes,
      maxRows: request.maxRows,
    },
    { keep: (row) => JSON.stringify(row), observe },
  );
  const head = {
    channelCode: request.channelCode,
    currency,
    at: iso(at),
    quantity: request.quantity,
  };
  return { head, steps };
}

/**
 * POST /v1/api/simulations/prices: two D1 round trips, then the engine twice per buyer and
 * product, in steps between which the isolate's other requests run (docs/simulation.md §8).
 */
export async function simulatePrices(
  db: Db,
  request: SimulationRequest,
  observe?: PairObserver,
): Promise<HeldSimulation> {
  const { head, steps } = await startSimulation(db, request, observe);
  let step: IteratorResult<void, SimulationResult<string>>;
  do {
    await nextTurn();
    step = steps.next();
  } while (!step.done);
  return { ...head, ...step.value };
}

/** Rows per piece of the written answer: some 80 KB of JSON. */
const ROWS_PER_PIECE = 50;

/**
 * The answer's JSON in pieces, byte for byte `JSON.stringify` of the `Simulation` it holds: the
 * head, the rows fifty at a time, the summary. Written as the client reads, so the 17 MB of the
 * largest answer are never one string (docs/simulation.md §8).
 */
export function* simulationJson(simulation: HeldSimulation): Generator<string, void> {
  const { rows, rowsOmitted, summary, ...head } = simulation;
  yield `${JSON.stringify(head).slice(0, -1)},"rows":[`;
  for (let i = 0; i < rows.length; i += ROWS_PER_PIECE) {
    const piece = rows.slice(i, i + ROWS_PER_PIECE).join(",");
    yield i === 0 ? piece : `,${piece}`;
  }
  yield `],"rowsOmitted":${rowsOmitted},"summary":${JSON.stringify(summary)}}`;
}
