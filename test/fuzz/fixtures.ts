import { inject } from "vitest";
import { KEYS, SALES_KEYS } from "../shared/helpers";
import { call as api } from "./worker";

/** A small, fresh set of real records, so part of the fuzzed requests address things that exist. */
export interface Fixtures {
  products: string[];
  channels: string[];
  groups: string[];
  customers: string[];
  /** GENERAL and INDIVIDUAL pricelist ids. */
  pricelists: number[];
  individual: number[];
  tradeConditions: number[];
  promotions: number[];
  webhooks: number[];
  /** Change requests: a DRAFT and a submitted one (PENDING_APPROVAL, or APPLIED by the policy). */
  changeRequests: number[];
  /**
   * Quotes (docs/quotes.md), written by a sales key under the default policy: a DRAFT, a
   * PENDING_APPROVAL, a SENT and an ACCEPTED one. Each names customers[0] in channels[0], whose
   * primary pricelist prices products[0] and products[1].
   */
  quotes: number[];
  /** Exchange rates by their key, as their path parameters write it. */
  exchangeRates: { from: string; to: string; validFrom: string }[];
  /** A URL webhooks may point to here (WEBHOOK_ALLOWED_HOSTS of the tests): the test receiver. */
  webhookUrl: string;
  /** How many requests building the set took. */
  requests: number;
}

/**
 * `quotes`: build the quote fixtures too (the quote operations only: each set costs a sales key
 * about ten writes, and one key's write limit would stop a whole run of them).
 */
export async function createFixtures(
  tag: string,
  options: { quotes?: boolean } = {},
): Promise<Fixtures> {
  let requests = 0;
  // Deterministic codes keep a seeded run reproducible.
  const uid = (prefix: string) => `${prefix}-${tag}-${requests}`;
  const call = async (method: string, path: string, body?: unknown) => {
    requests++;
    const res = await api(method, path, { body });
    if (res.status >= 300) {
      throw new Error(`fixture ${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  };
  const code = async (path: string, prefix: string, extra: Record<string, unknown> = {}) =>
    (await call("POST", path, { code: uid(prefix), name: `${prefix} fixture`, ...extra }))
      .code as string;

  const products = [
    await code("/v1/api/product", "FP"),
    await code("/v1/api/product", "FP"),
    await code("/v1/api/product", "FP"),
  ];
  const channels = [await code("/v1/api/channel", "FCH"), await code("/v1/api/channel", "FCH")];
  const groups = [
    await code("/v1/api/customer-group", "FG"),
    await code("/v1/api/customer-group", "FG"),
  ];
  const customers = [
    await code("/v1/api/customer", "FC", {
      customerGroupCodes: [groups[0]],
      channelCodes: [channels[0]],
    }),
    await code("/v1/api/customer", "FC", { channelCodes: channels }),
    await code("/v1/api/customer", "FC"),
  ];

  const general = (status: string) =>
    call("POST", "/v1/api/pricelist", { name: "Fixture list", currency: "EUR", status });
  const activeList = (await general("ACTIVE")).id as number;
  const draftList = (await general("DRAFT")).id as number;
  const individual = [
    (
      await call("POST", "/v1/api/pricelist/individual", {
        customerCode: customers[0],
        name: "Fixture individual",
        currency: "EUR",
      })
    ).id as number,
    (
      await call("POST", "/v1/api/pricelist/individual", {
        customerCode: customers[1],
        name: "Fixture individual",
        currency: "EUR",
      })
    ).id as number,
  ];
  await call("PUT", `/v1/api/pricelist/${activeList}/prices`, {
    // The third product stays free of prices and conditions, so it can be deleted.
    prices: products.slice(0, 2).flatMap((productCode, i) => [
      { productCode, amount: 1000 + i },
      { productCode, minQuantity: 10, amount: 900 + i },
    ]),
  });
  await call("PUT", `/v1/api/pricelist/${individual[0]}/prices`, {
    prices: [{ productCode: products[0], amount: 800 }],
  });
  await call("PUT", `/v1/api/channel/${channels[0]}/pricelist/primary`, {
    pricelistId: activeList,
  });
  await call("POST", `/v1/api/customer-group/${groups[0]}/pricelist`, { pricelistId: draftList });

  const condition = (body: Record<string, unknown>) =>
    call("POST", "/v1/api/trade-conditions", {
      name: "Fixture condition",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 500,
      status: "ACTIVE",
      ...body,
    });
  const tradeConditions = [
    (await condition({ scope: "CUSTOMER_GROUP" })).id as number,
    (await condition({ scope: "CUSTOMER" })).id as number,
    (await condition({ scope: "CHANNEL", channelCodes: [channels[0]] })).id as number,
  ];
  await call("POST", `/v1/api/trade-conditions/${tradeConditions[0]}/customer-groups`, {
    customerGroupCodes: [groups[0]],
  });
  await call("POST", `/v1/api/trade-conditions/${tradeConditions[1]}/customers`, {
    customerCodes: [customers[0]],
  });
  const promotion = async (status: string) =>
    (
      await call("POST", "/v1/api/promotion", {
        name: "Fixture promotion",
        discountType: "PERCENTAGE",
        value: 1000,
        status,
        productCodes: [products[0]],
      })
    ).id as number;
  const promotions = [await promotion("ACTIVE"), await promotion("DRAFT")];
  const webhookUrl = `${inject("receiverUrl")}/fuzz`;
  // A deployment holds at most 20 webhooks (docs/api/feed-and-webhooks.md §14): the earlier sets'
  // go first, so every set (and the fuzzer's creates after it) has room.
  for (const { id } of (await call("GET", "/v1/api/webhooks?limit=100")).data as { id: number }[]) {
    await call("DELETE", `/v1/api/webhooks/${id}`);
  }
  // Off: the queue consumer leaves them alone while the fuzzer writes.
  const webhooks = [
    (await call("POST", "/v1/api/webhooks", { url: webhookUrl, events: ["prices"], active: false }))
      .id as number,
  ];

  const changeRequest = async () =>
    (
      await call("POST", "/v1/api/change-requests", {
        title: "Fixture change",
        effectiveAt: "2099-01-01",
        items: [
          {
            kind: "SET_PRICES",
            pricelistId: activeList,
            rows: [{ productCode: products[0], amount: 1100 }],
          },
        ],
      })
    ).id as number;
  const changeRequests = [await changeRequest(), await changeRequest()];
  await call("POST", `/v1/api/change-requests/${changeRequests[1]}/submit`);
  const quoteFixtures = async (): Promise<number[]> => {
    // The quote policy is one for the deployment, and the fuzzer PUTs random ones: the default
    // (docs/quotes.md §4.1: one ADMIN tier, every quote waits for an admin key) lets a submit
    // succeed and leaves a PENDING_APPROVAL quote an admin key may approve or reject.
    await call("PUT", "/v1/api/quotes/policy", {
      autoApprove: null,
      tiers: [{ name: "ADMIN", maxCutBp: 10_000, minMarginBp: null, approvers: [] }],
    });
    // A sales key writes them (docs/quotes.md §1), so no admin key the fuzzer sends is the author's
    // (403 SELF_APPROVAL, §4.3) and its approve and reject reach the transition.
    const BY: Record<string, string> = {
      create: SALES_KEYS["rep-1"],
      submit: SALES_KEYS["rep-1"],
      send: SALES_KEYS["rep-1"],
      approve: KEYS.admin,
      accept: KEYS.read,
    };
    const quote = async (...actions: string[]) => {
      requests++;
      const created = await api("POST", "/v1/api/quotes", {
        key: BY.create,
        body: {
          customerCode: customers[0],
          channelCode: channels[0],
          validTo: new Date(Date.now() + 30 * 86_400_000).toISOString(),
          lines: [{ productCode: products[0], quantity: 1 }],
        },
      });
      if (created.status !== 201) {
        throw new Error(`fixture quote -> ${created.status} ${JSON.stringify(created.body)}`);
      }
      for (const action of actions) {
        requests++;
        const res = await api("POST", `/v1/api/quotes/${created.body.id}/${action}`, {
          key: BY[action],
        });
        if (res.status !== 200) {
          throw new Error(`fixture quote ${action} -> ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      return created.body.id as number;
    };
    return [
      await quote(),
      await quote("submit"),
      await quote("submit", "approve", "send"),
      await quote("submit", "approve", "send", "accept"),
    ];
  };
  const quotes = options.quotes ? await quoteFixtures() : [];
  // Rates have no code: the same keys each time, an upsert leaves them as they are.
  const exchangeRates = [
    { from: "EUR", to: "CHF", validFrom: "2025-01-01T00:00:00Z" },
    { from: "USD", to: "EUR", validFrom: "2025-01-01T00:00:00Z" },
  ];
  await call("PUT", "/v1/api/exchange-rates", {
    rates: exchangeRates.map((key, i) => ({ ...key, rate: ["0.95", "0.92"][i] })),
  });

  return {
    products,
    channels,
    groups,
    customers,
    pricelists: [activeList, draftList, ...individual],
    individual,
    tradeConditions,
    promotions,
    webhooks,
    changeRequests,
    quotes,
    exchangeRates,
    webhookUrl,
    requests,
  };
}
