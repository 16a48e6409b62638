/**
 * The OpenAPI document proven usable by a real client: the types generated from /doc
 * (client/pricing-api.d.ts, `npm run client:generate`) drive openapi-fetch against the Worker.
 * Every call below is type-checked against the document (`npm run typecheck`); the assertions
 * read the typed results.
 */
import { exports } from "cloudflare:workers";
import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { components, paths } from "../../client/pricing-api";
import { KEYS, uid } from "../shared/helpers";

type Schemas = components["schemas"];

const client = (key: string) =>
  createClient<paths>({
    baseUrl: "http://pricing.test",
    headers: { "x-webhook-signature": key },
    fetch: (request) => exports.default.fetch(request),
  });

const admin = client(KEYS.admin);
const shop = client(KEYS.read);

/** Unwraps a typed result, failing with the problem body when the call did not succeed. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

interface Catalogue {
  channel: Schemas["ChannelWithPrimaryPricelist"];
  customer: Schemas["Customer"];
  bolt: string;
  nut: string;
  channelList: Schemas["Pricelist"];
  customerList: Schemas["Pricelist"];
}

/**
 * The back-office flow: products, a channel and a customer, a channel pricelist with tiers
 * (created DRAFT, prices uploaded, activated, made the channel's primary) and a customer
 * pricelist (assigned to the customer).
 */
async function backOffice(): Promise<Catalogue> {
  const bolt = ok(
    await admin.POST("/v1/api/product", { body: { code: uid("BOLT"), name: "Bolt" } }),
  );
  const nut = ok(await admin.POST("/v1/api/product", { body: { code: uid("NUT"), name: "Nut" } }));
  const channelCode = uid("CH");
  ok(await admin.POST("/v1/api/channel", { body: { code: channelCode, name: "Web shop" } }));
  const customer = ok(
    await admin.POST("/v1/api/customer", {
      body: { code: uid("CU"), name: "Muster GmbH", channelCodes: [channelCode] },
    }),
  );

  const draft = ok(
    await admin.POST("/v1/api/pricelist", { body: { name: "Web list", currency: "EUR" } }),
  );
  expect(draft.status).toBe("DRAFT");
  const upload = ok(
    await admin.PUT("/v1/api/pricelist/{id}/prices", {
      params: { path: { id: draft.id } },
      body: {
        prices: [
          { productCode: bolt.code, amount: 1000 },
          { productCode: bolt.code, minQuantity: 10, amount: 900 },
          { productCode: nut.code, amount: 250 },
        ],
      },
    }),
  );
  expect(upload.upserted).toBe(3);
  const channelList = ok(
    await admin.PATCH("/v1/api/pricelist/{id}", {
      params: { path: { id: draft.id } },
      body: { status: "ACTIVE" },
    }),
  );
  expect(channelList.status).toBe("ACTIVE");
  const channel = ok(
    await admin.PUT("/v1/api/channel/{code}/pricelist/primary", {
      params: { path: { code: channelCode } },
      body: { pricelistId: channelList.id },
    }),
  );

  const customerList = ok(
    await admin.POST("/v1/api/pricelist", {
      body: { name: "Muster terms", currency: "EUR", status: "ACTIVE", priority: 5 },
    }),
  );
  ok(
    await admin.PUT("/v1/api/pricelist/{id}/prices", {
      params: { path: { id: customerList.id } },
      body: { prices: [{ productCode: bolt.code, amount: 800 }] },
    }),
  );
  const assigned = ok(
    await admin.POST("/v1/api/customer/{code}/pricelist", {
      params: { path: { code: customer.code } },
      body: { pricelistId: customerList.id },
    }),
  );
  expect(assigned).toEqual({ customerCode: customer.code, pricelistId: customerList.id });

  return { channel, customer, bolt: bolt.code, nut: nut.code, channelList, customerList };
}

describe("typed client (openapi-fetch + types generated from /doc)", () => {
  it("runs the back-office flow: products, pricelist, prices, activate, assign", async () => {
    const { channel, customer, bolt, channelList, customerList } = await backOffice();

    expect(channel.primaryPricelistId).toBe(channelList.id);
    expect(channel.primaryPricelist).toMatchObject({ id: channelList.id, status: "ACTIVE" });

    const prices = ok(
      await admin.GET("/v1/api/pricelist/{id}/prices", {
        params: { path: { id: channelList.id }, query: { "filter.productCode": [bolt] } },
      }),
    );
    expect(prices.data).toEqual([
      {
        productCode: bolt,
        minQuantity: 1,
        amount: 1000,
        priceUnit: 1,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
      {
        productCode: bolt,
        minQuantity: 10,
        amount: 900,
        priceUnit: 1,
        flatAmount: 0,
        validFrom: null,
        validTo: null,
      },
    ]);
    expect(prices.meta.totalItems).toBe(2);

    const customers = ok(
      await admin.GET("/v1/api/pricelist/{id}/customers", {
        params: { path: { id: customerList.id } },
      }),
    );
    expect(customers.data.map((c) => c.code)).toEqual([customer.code]);
  });

  it("runs the storefront flow with a read key: a cart, a product listing, the customer", async () => {
    const { channel, customer, bolt, nut, channelList, customerList } = await backOffice();

    const cart = ok(
      await shop.POST("/v1/api/prices/resolve", {
        body: {
          channelCode: channel.code,
          customerCode: customer.code,
          lines: [
            { productCode: bolt, quantity: 12 },
            { productCode: nut, quantity: 3 },
          ],
        },
      }),
    );
    expect(cart.currency).toBe("EUR");
    // Every line priced: the total is answered and marked complete.
    expect(cart.complete).toBe(true);
    expect(cart.totalAmount).toBe(12 * 800 + 3 * 250);
    expect(cart.pricedTotalAmount).toBe(cart.totalAmount);
    const [boltLine, nutLine] = cart.lines;
    expect(boltLine).toMatchObject({
      productCode: bolt,
      status: "OK",
      finalUnitAmount: 800,
      lineAmount: 9600,
      listUnitAmount: 900, // the channel's tier for 12 units
      source: { level: "CUSTOMER", pricelistId: customerList.id, baseUnitAmount: 800 },
      adjustments: [],
    });
    expect(nutLine).toMatchObject({
      productCode: nut,
      finalUnitAmount: 250,
      lineAmount: 750,
      source: { level: "CHANNEL_PRIMARY", pricelistId: channelList.id, tierMinQuantity: 1 },
    });

    // Anonymous listing prices: repeated `product` parameters, one quantity.
    const listing = ok(
      await shop.GET("/v1/api/prices", {
        params: { query: { channel: channel.code, product: [bolt, nut], quantity: 10 } },
      }),
    );
    expect(listing.customerCode).toBeNull();
    expect(listing.lines.map((l) => [l.productCode, l.finalUnitAmount, l.lineAmount])).toEqual([
      [bolt, 900, 9000],
      [nut, 250, 2500],
    ]);
    // A product the catalogue does not know: no totalAmount, the priced lines summed apart.
    const partial = ok(
      await shop.GET("/v1/api/prices", {
        params: { query: { channel: channel.code, product: [bolt, uid("P")], quantity: 10 } },
      }),
    );
    const { totalAmount, pricedTotalAmount, complete } = partial;
    expect({ totalAmount, pricedTotalAmount, complete }).toEqual({
      totalAmount: null,
      pricedTotalAmount: 9000,
      complete: false,
    });
    expect(listing.lines[0]?.tiers).toEqual([
      { minQuantity: 1, amount: 1000, priceUnit: 1, flatAmount: 0 },
      { minQuantity: 10, amount: 900, priceUnit: 1, flatAmount: 0 },
    ]);

    const detail = ok(
      await shop.GET("/v1/api/customer/{code}", { params: { path: { code: customer.code } } }),
    );
    expect(detail.channelCodes).toEqual([channel.code]);
    expect(detail.pricelists.map((p) => p.id)).toEqual([customerList.id]);
    expect(detail.primaryPricelist?.id).toBe(customerList.id);
  });

  it("types the problem+json errors too", async () => {
    const missing = await shop.GET("/v1/api/customer/{code}", {
      params: { path: { code: "NO-SUCH-CUSTOMER" } },
    });
    expect(missing.data).toBeUndefined();
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, code: "NOT_FOUND" });
    expect(missing.error?.detail).toContain("NO-SUCH-CUSTOMER");

    const forbidden = await shop.POST("/v1/api/product", {
      body: { code: uid("P"), name: "Not with a read key" },
    });
    expect(forbidden.response.status).toBe(403);
    expect(forbidden.error?.code).toBe("FORBIDDEN");

    const invalid = await admin.PUT("/v1/api/pricelist/{id}/prices", {
      params: { path: { id: 999_999 } },
      body: { prices: [{ productCode: "P-A", amount: -1 }] },
    });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.errors?.map((e) => e.path)).toEqual(["body.prices.0.amount"]);
  });
});
