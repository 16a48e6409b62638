/**
 * `npm run import` / `npm run export` (docs/csv.md) through the real Worker: the tools' engine
 * with the Worker's fetch, on this file's database and on a second, empty one (IMPORT_DB of
 * vitest.config.ts). For every kind: export → import into the empty database → export gives the
 * same bytes; and errors come back as the lines of the file.
 */
import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../scripts/lib/csv.mjs";
import { exportCsv, importCsv } from "../../scripts/lib/csv-engine.mjs";
import { createApi, type Api } from "../../scripts/lib/csv-http.mjs";
import { KINDS, type Context } from "../../scripts/lib/csv-kinds.mjs";
import { app } from "../../src/app";
import {
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createProductGroup,
  factoriesVia,
} from "../factories";
import { KEYS, uid } from "../shared/helpers";

const bindings = env as unknown as Record<string, unknown> & { IMPORT_DB: D1Database };

/** The tools' HTTP client, talking to the Worker on one database. */
const apiOn = (db: D1Database) =>
  createApi(
    { url: "http://pricing.test", key: KEYS.admin },
    {
      fetch: (url, init) => Promise.resolve(app.fetch(new Request(url, init), { ...env, DB: db })),
      retryPauseMs: 1,
    },
  );
const here = apiOn(env.DB);
const fresh = apiOn(bindings.IMPORT_DB);

/** The factories on the empty database (for what no CSV carries: channels, pricelists). */
const onFresh = factoriesVia(async (path, body) => {
  const res = await app.fetch(
    new Request(`http://pricing.test${path}`, {
      method: "POST",
      headers: { "x-webhook-signature": KEYS.admin, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { ...env, DB: bindings.IMPORT_DB },
  );
  const json: any = await res.json();
  if (res.status !== 201) throw new Error(`POST ${path} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
});

/** A record of the empty database. */
const freshGet = async (path: string) => (await fresh.get(path)).body;

beforeAll(async () => {
  await applyD1Migrations(bindings.IMPORT_DB, env.TEST_MIGRATIONS);
});

const NO_CONTEXT: Context = { label: "", notes: [], stateKey: "" };

async function* pieces(text: string) {
  for (let i = 0; i < text.length; i += 4096) yield text.slice(i, i + 4096);
}

async function exportText(api: Api, kind: string, ctx: Context = NO_CONTEXT) {
  let text = "";
  await exportCsv({ kind: KINDS[kind]!, ctx, api, write: (t) => void (text += t) });
  return text;
}

async function importText(
  api: Api,
  kind: string,
  text: string,
  options: { ctx?: Context; maxRows?: number } = {},
) {
  return importCsv({
    kind: KINDS[kind]!,
    ctx: options.ctx ?? NO_CONTEXT,
    api,
    source: pieces(text),
    maxRows: options.maxRows,
  });
}

/**
 * Export here → import into the empty database → export there: the same bytes. Each test makes
 * what its kind refers to (groups, channels) in the empty database through the API, with the
 * same fields as here, so a kind is checked by its own endpoint only.
 */
async function roundTrip(kind: string, options: { maxRows?: number } = {}) {
  const exported = await exportText(here, kind);
  const imported = await importText(fresh, kind, exported, options);
  expect(imported.rejected).toEqual([]);
  expect(imported.totals.rows).toBe(parseCsv(exported).length - 1); // the header aside
  expect(await exportText(fresh, kind)).toBe(exported);
  return { exported, imported };
}

describe("export → import into an empty database → export gives the same bytes", () => {
  it("product groups, children listed before their parents, across bodies", async () => {
    // Sorted by code the children come first: A-… and B-… before their root Z-….
    const root = await createProductGroup({ code: uid("Z"), name: "Fasteners, all kinds" });
    const child = await createProductGroup({
      code: uid("A"),
      name: 'Screws "special"',
      parentCode: root.code,
    });
    const grandchild = await createProductGroup({
      code: uid("B"),
      name: "Übergrößen ✓",
      parentCode: child.code,
    });
    const { exported } = await roundTrip("product-groups", { maxRows: 1 });
    expect(exported.indexOf(child.code)).toBeLessThan(exported.indexOf(`${root.code},`));
    expect(await freshGet(`/v1/api/product-group/${grandchild.code}`)).toMatchObject({
      name: "Übergrößen ✓",
      parentCode: child.code,
    });
  });

  it("products with their group and quantity rules; the same file again changes nothing", async () => {
    const group = await createProductGroup();
    const boxed = await createProduct({
      name: 'Hex bolt M8, "zinc"',
      productGroupCode: group.code,
      minOrderQuantity: 100,
      orderIncrement: 50,
      maxOrderQuantity: 10000,
    });
    const plain = await createProduct({ name: "Loose" });
    await onFresh.createProductGroup({ code: group.code, name: group.name });
    const { exported, imported } = await roundTrip("products");
    expect(exported).toContain(
      `${boxed.code},"Hex bolt M8, ""zinc""",${group.code},100,50,10000,\n`,
    );
    expect(exported).toContain(`${plain.code},Loose,,1,1,,\n`);
    const { rows } = imported.totals;
    expect(imported.totals).toEqual({ rows, created: rows, updated: 0, unchanged: 0 });
    const again = await importText(fresh, "products", exported);
    expect(again.totals).toEqual({ rows, created: 0, updated: 0, unchanged: rows });
  });

  it('customer groups: descriptions with line breaks and quotes, "" and none', async () => {
    const text = 'Two\r\nlines, "quoted"\tand a tab';
    const described = await createCustomerGroup({ description: text });
    const empty = await createCustomerGroup({ description: "" });
    const none = await createCustomerGroup();
    const { exported } = await roundTrip("customer-groups");
    expect(exported).toContain(`${empty.code},Group,""\n`);
    expect(exported).toContain(`${none.code},Group,\n`);
    expect(await freshGet(`/v1/api/customer-group/${described.code}`)).toMatchObject({
      description: text,
    });
    expect(await freshGet(`/v1/api/customer-group/${empty.code}`)).toMatchObject({
      description: "",
    });
    expect(await freshGet(`/v1/api/customer-group/${none.code}`)).toMatchObject({
      description: null,
    });
  });

  it("customers with their group and channel memberships", async () => {
    const channel = await createChannel();
    await onFresh.createChannel({ code: channel.code }); // channels are not a kind
    const [a, b] = [await createCustomerGroup(), await createCustomerGroup()];
    const member = await createCustomer({
      customerGroupCodes: [b.code, a.code],
      channelCodes: [channel.code],
    });
    const loner = await createCustomer({ name: "Müller & Söhne, Wien" });
    for (const group of [a, b]) await onFresh.createCustomerGroup({ code: group.code });
    const { exported } = await roundTrip("customers");
    const groups = [a.code, b.code].sort().join(";");
    expect(exported).toContain(`${member.code},Customer,${groups},${channel.code}\n`);
    expect(exported).toContain(`${loner.code},"Müller & Söhne, Wien",,\n`);
    expect(await freshGet(`/v1/api/customer/${member.code}`)).toMatchObject({
      customerGroupCodes: [a.code, b.code].sort(),
      channelCodes: [channel.code],
    });
  });

  it("prices of a pricelist, in its currency's decimals", async () => {
    const [p, q] = [await createProduct(), await createProduct()];
    const list = await createPricelist({ currency: "KWD" });
    const put = await here.put(`/v1/api/pricelist/${list.id}/prices`, {
      prices: [
        { productCode: p.code, minQuantity: 1, amount: 12345 },
        { productCode: p.code, minQuantity: 10, amount: 5 },
        // Priced per 1,000 pieces: the unit travels with the row (docs/csv.md §2).
        { productCode: p.code, minQuantity: 5000, amount: 4250, priceUnit: 1000 },
        { productCode: q.code, minQuantity: 1, amount: 0 },
        // A scheduled row cuts q's undated one: both carry their window in the file.
        { productCode: q.code, minQuantity: 1, amount: 7, validFrom: "2027-01-01T00:00:00Z" },
      ],
    });
    expect(put.status).toBe(200);
    for (const product of [p, q]) await onFresh.createProduct({ code: product.code });
    const target = await onFresh.createPricelist({ currency: "KWD" });
    const ctxHere = await KINDS.prices!.prepare(here, { pricelist: String(list.id) });
    const ctxThere = await KINDS.prices!.prepare(fresh, { pricelist: String(target.id) });
    const exported = await exportText(here, "prices", ctxHere);
    expect(exported).toContain(
      `${p.code},1,12.345,1,,,\n${p.code},10,0.005,1,,,\n${p.code},5000,4.250,1000,,,\n`,
    );
    expect(exported).toContain(
      `${q.code},1,0.000,1,,2027-01-01T00:00:00.000Z,\n` +
        `${q.code},1,0.007,1,2027-01-01T00:00:00.000Z,,\n`,
    );
    const imported = await importText(fresh, "prices", exported, { ctx: ctxThere });
    expect(imported).toMatchObject({ rejected: [], totals: { rows: 5 } });
    expect(await exportText(fresh, "prices", ctxThere)).toBe(exported);
  });

  it("prices in a currency without decimals: the exponent comes from GET /v1/api/currencies", async () => {
    const list = await createPricelist({ currency: "JPY" });
    const ctx = await KINDS.prices!.prepare(here, { pricelist: String(list.id) });
    expect(ctx).toMatchObject({ digits: 0, currency: "JPY" });
    expect(ctx.label).toContain("JPY: 0 decimals");
  });

  it("exchange rates, their rates exact and in normal form", async () => {
    const put = await here.put("/v1/api/exchange-rates", {
      rates: [
        { from: "USD", to: "EUR", rate: "0.920", validFrom: "2027-01-01" },
        { from: "USD", to: "EUR", rate: "0.9", validFrom: "2027-02-01T00:00:00Z" },
        { from: "USD", to: "JPY", rate: "150.25", validFrom: "2027-01-01" },
        { from: "EUR", to: "CHF", rate: "0.000123456789", validFrom: "2026-06-01T12:30:00Z" },
      ],
    });
    expect(put.status).toBe(200);
    const { exported, imported } = await roundTrip("exchange-rates");
    expect(exported).toBe(
      "from,to,rate,validFrom\n" +
        "EUR,CHF,0.000123456789,2026-06-01T12:30:00.000Z\n" +
        "USD,EUR,0.92,2027-01-01T00:00:00.000Z\n" +
        "USD,EUR,0.9,2027-02-01T00:00:00.000Z\n" +
        "USD,JPY,150.25,2027-01-01T00:00:00.000Z\n",
    );
    expect(imported.totals).toEqual({ rows: 4, created: 4, updated: 0, unchanged: 0 });
    const again = await importText(fresh, "exchange-rates", exported);
    expect(again.totals).toEqual({ rows: 4, created: 0, updated: 0, unchanged: 4 });
  });
});

describe("errors come back as the lines of the file", () => {
  it("products: what the file or the service refuses is named by its line; the rest is written", async () => {
    const [ok, unknownGroup, tooFew, ok2] = [uid("P"), uid("P"), uid("P"), uid("P")];
    const text = [
      "code,name,productGroupCode,minOrderQuantity,maxOrderQuantity",
      `${ok},Fine,,,`,
      `${unknownGroup},No such group,NOPE-GROUP,,`,
      "P 1,Bad code,,,",
      `${tooFew},Max below min,,10,5`,
      `${ok2},"Also fine, quoted",,,`,
      `${ok},Repeated,,,`,
    ].join("\r\n");
    const result = await importText(fresh, "products", text);
    expect(result.rejected).toEqual([
      { line: 3, reason: expect.stringMatching(/^productGroupCode: .*NOPE-GROUP/) },
      { line: 4, reason: expect.stringContaining("is not a code") },
      { line: 5, reason: expect.stringMatching(/^maxOrderQuantity: /) },
      { line: 7, reason: `repeats code ${ok} of line 2` },
    ]);
    expect(result.totals.rows).toBe(2);
    expect((await fresh.get(`/v1/api/product/${ok2}`)).body).toMatchObject({
      name: "Also fine, quoted",
    });
    expect((await fresh.get(`/v1/api/product/${unknownGroup}`)).status).toBe(404);
  });

  it("product groups: a cycle and a missing parent are their lines, however the rows are cut", async () => {
    const [a, b, orphan, fine] = [uid("PG"), uid("PG"), uid("PG"), uid("PG")];
    const text = `code,name,parentCode\n${a},A,${b}\n${b},B,${a}\n${orphan},Orphan,NOPE-PG\n${fine},Fine,${a}\n`;
    for (const maxRows of [1000, 1]) {
      const result = await importText(fresh, "product-groups", text, { maxRows });
      expect(result.rejected, `bodies of ${maxRows}`).toEqual([
        { line: 2, reason: expect.stringMatching(/^parentCode: .*cycle/) },
        { line: 3, reason: expect.stringMatching(/^parentCode: .*cycle/) },
        { line: 4, reason: "parentCode: unknown product group NOPE-PG" },
        { line: 5, reason: `parentCode: unknown product group ${a}` },
      ]);
      expect((await fresh.get(`/v1/api/product-group/${a}`)).status).toBe(404);
    }
  });

  it("prices: an unknown product is its line; the other rows of its body are written", async () => {
    const product = await onFresh.createProduct();
    const list = await onFresh.createPricelist();
    const ctx = await KINDS.prices!.prepare(fresh, { pricelist: String(list.id) });
    const text = `productCode,minQuantity,amount,priceUnit\n${product.code},1,1.50,\nNOPE-P,1,2.00,\n${product.code},5,1.999,\n${product.code},10,1.00,1\n${product.code},20,9.00,20000\n`;
    const result = await importText(fresh, "prices", text, { ctx });
    expect(result.rejected).toEqual([
      { line: 3, reason: "productCode: unknown product NOPE-P" },
      { line: 4, reason: "amount 1.999 has more decimals than EUR allows (at most 2 decimals)" },
      { line: 6, reason: "priceUnit: must be at most 10000" },
    ]);
    expect(await exportText(fresh, "prices", ctx)).toBe(
      "productCode,minQuantity,amount,priceUnit,validFrom,validTo,flatAmount\n" +
        `${product.code},1,1.50,1,,,\n${product.code},10,1.00,1,,,\n`,
    );
  });

  it("prices: a flatAmount on a VOLUME list is its line (docs/pricing-rules.md §29); the rest is written", async () => {
    const product = await onFresh.createProduct();
    const list = await onFresh.createPricelist();
    const ctx = await KINDS.prices!.prepare(fresh, { pricelist: String(list.id) });
    const text = `productCode,minQuantity,amount,flatAmount\n${product.code},1,1.00,\n${product.code},10,0.90,5.00\n${product.code},50,0.80,0\n`;
    const result = await importText(fresh, "prices", text, { ctx });
    expect(result.rejected).toEqual([
      {
        line: 3,
        reason: `flatAmount: must be 0: pricelist ${list.id} is VOLUME (flat amounts are for GRADUATED pricelists)`,
      },
    ]);
    expect(await exportText(fresh, "prices", ctx)).toBe(
      "productCode,minQuantity,amount,priceUnit,validFrom,validTo,flatAmount\n" +
        `${product.code},1,1.00,1,,,\n${product.code},50,0.80,1,,,\n`,
    );
  });

  it("exchange rates: a rate the service refuses is its line; the rest is written", async () => {
    const text = [
      "from,to,rate,validFrom",
      "SEK,DKK,0.65,2027-01-01",
      "SEK,DKK,0,2027-02-01",
      "SEK,SEK,1,2027-01-01",
      "SEK,NOK,1.0000000000001,2027-01-01",
      "SEK,DKK,0.66,2027-01-01T00:00:00Z",
      "SEK,XYZ,1.1,2027-01-01",
      "SEK,NOK,1.02,2027-03-01",
    ].join("\n");
    const result = await importText(fresh, "exchange-rates", text);
    expect(result.rejected).toEqual([
      { line: 3, reason: "rate: must be greater than 0" },
      {
        line: 4,
        reason: "to: must differ from from (SEK): a rate converts one currency into another",
      },
      { line: 5, reason: "rate: has 14 significant digits; at most 12 are allowed" },
      {
        line: 6,
        reason: "validFrom: repeats the rate SEK→DKK from 2027-01-01T00:00:00.000Z of row 0",
      },
      {
        line: 7,
        reason: "to: must be the ISO 4217 code of a currency in circulation, such as EUR",
      },
    ]);
    const rates = (await fresh.get("/v1/api/exchange-rates?filter.from=SEK")).body.data;
    expect(rates.map((r: any) => [r.to, r.rate])).toEqual([
      ["DKK", "0.65"],
      ["NOK", "1.02"],
    ]);
  });
});
