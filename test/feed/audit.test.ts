import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../src/index";
import { isWriteSql } from "../../src/db/audit";
import { AUDIT_ENTITIES, entityName } from "../../src/db/audit";
import { NOT_AUDITED, SUMMARIZED_LINKS } from "../../src/db/schema/audited";
import { productRefs } from "../../src/resources/products/products.list";
import {
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
  createProduct,
  createProductGroup,
} from "../factories";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

/**
 * The audit trail: every write through the API leaves one entry per changed row, in the same
 * batch as the write; failed writes leave none; GET /v1/api/audit lists them (admin keys only).
 */

let ADMIN_NAME = "";
beforeAll(async () => {
  // The tests configure the short form `admin:<sha256>`, named `admin-<first 8 hex>`.
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(KEYS.admin));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  ADMIN_NAME = `admin-${hex.slice(0, 8)}`;
});

/**
 * A write with a correlation id of its own; its entries are found by the request id the server
 * answered (never the client's).
 */
async function write(method: string, path: string, body?: unknown) {
  const correlationId = uid("req").toLowerCase();
  const res = await api(method, path, { body, headers: { "x-request-id": correlationId } });
  const requestId = res.headers.get("x-request-id")!;
  expect(requestId).not.toBe(correlationId);
  return { res, requestId, correlationId };
}

/** Every entry of one request, in write order. */
async function entriesOf(requestId: string) {
  const res = await api(
    "GET",
    `/v1/api/audit?filter.requestId=${encodeURIComponent(requestId)}&sortBy=id:ASC&limit=100`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
}

const summary = (entries: any[]) =>
  entries.map((e) => `${e.action} ${e.entity} ${JSON.stringify(e.entityKey)}`);

async function ok(method: string, path: string, body?: unknown) {
  const { res, requestId } = await write(method, path, body);
  if (res.status >= 300)
    throw new Error(`${method} ${path} -> ${res.status} ${JSON.stringify(res.body)}`);
  return { body: res.body, requestId, entries: await entriesOf(requestId) };
}

describe("write detection of the D1 client", () => {
  it("takes every insert, update, delete and replace for a write, also behind WITH and comments", () => {
    for (const text of [
      'insert into "products" ("code") values (?)',
      '  UPDATE "pricelists" set "status" = ?',
      'delete from "channel_customers" where 1',
      "replace into t values (1)",
      "-- why\n/* how */ insert into t values (1)",
      'with "x" as (select 1) insert into t select * from "x"',
      'with "x" as (select 1) delete from t where id in (select * from "x")',
    ]) {
      expect(isWriteSql(text), text).toBe(true);
    }
    for (const text of [
      'select "updated_at", "deleted" from "products"',
      "select replace(lower(code), 'a', 'b') from products",
      'with "x" as (select 1) select * from "x"',
      "pragma table_info('products')",
    ]) {
      expect(isWriteSql(text), text).toBe(false);
    }
  });
});

describe("audit triggers", () => {
  it("every data table has its INSERT, UPDATE and DELETE trigger, naming every column", async () => {
    const { results } = await env.DB.prepare(
      `select name from sqlite_master where type = 'table'
         and name not like 'sqlite_%' and name not like '\\_cf\\_%' escape '\\' and name not like 'd1_%'
         and name not like 'products_search%'
       order by name`,
    ).all<{ name: string }>();
    const tables = results.filter((t) => !NOT_AUDITED.has(t.name));
    expect(tables.length).toBeGreaterThanOrEqual(25);
    // The API's entity vocabulary is exactly the tables that carry triggers.
    expect(tables.map((t) => entityName(t.name)).sort()).toEqual([...AUDIT_ENTITIES].sort());
    const { results: triggers } = await env.DB.prepare(
      "select name, sql from sqlite_master where type = 'trigger' and name like 'audit_%'",
    ).all<{ name: string; sql: string }>();
    const sqlOf = new Map(triggers.map((t) => [t.name, t.sql]));
    for (const { name } of tables) {
      const { results: columns } = await env.DB.prepare(
        `select name from pragma_table_info('${name}')`,
      ).all<{ name: string }>();
      for (const action of ["insert", "update", "delete"]) {
        const text = sqlOf.get(`audit_${name}_${action}`);
        expect(text, `audit_${name}_${action}`).toBeDefined();
        expect(text).toContain(`ON \`${name}\``);
        expect(text).toContain("WHEN EXISTS (SELECT 1 FROM audit_context)");
        // Links a bulk write records per owner stay silent while it says so
        // (docs/api/feed-and-webhooks.md §11).
        expect(text!.includes("NOT (SELECT links_summarized FROM audit_context)")).toBe(
          SUMMARIZED_LINKS.has(name),
        );
        expect(text).toContain("c.request_id, c.correlation_id, c.key_name");
        for (const { name: column } of columns) {
          if (action !== "delete") expect(text, `${name}.${column}`).toContain(`NEW.${column}`);
          if (action !== "insert") expect(text, `${name}.${column}`).toContain(`OLD.${column}`);
        }
      }
    }
  });

  it("the webhooks table has its three triggers (migration 0019), none copying a secret", async () => {
    const { results: triggers } = await env.DB.prepare(
      "select name, sql from sqlite_master where type = 'trigger' and tbl_name = 'webhooks'",
    ).all<{ name: string; sql: string }>();
    expect(triggers.map((t) => t.name).sort()).toEqual([
      "audit_webhooks_delete",
      "audit_webhooks_insert",
      "audit_webhooks_update",
    ]);
    for (const { name, sql } of triggers) {
      expect(sql, name).toContain("WHEN EXISTS (SELECT 1 FROM audit_context)");
      expect(sql, name).toContain("'webhook'");
      // What the trigger writes (after BEGIN) names neither secret column; the UPDATE's WHEN may.
      const body = sql.slice(sql.indexOf("BEGIN"));
      expect(body, name).not.toMatch(/\.(previous_)?secret\b/);
      expect(body, name).not.toMatch(/'(previousSecret|secret)'/);
    }
  });

  it("keeps audit_log append-only and audit_context empty between requests", async () => {
    await createProduct();
    const context = await env.DB.prepare("select count(*) as n from audit_context").first<{
      n: number;
    }>();
    expect(context!.n).toBe(0);
    await expect(
      env.DB.prepare("update audit_log set key_name = 'someone-else'").run(),
    ).rejects.toThrow(/append-only/);
  });

  it("records nothing for writes that bypass the API (seeds, bulk loads)", async () => {
    const code = uid("SEEDED");
    await env.DB.prepare("insert into products (code, name) values (?, 'seeded')").bind(code).run();
    const res = await api("GET", `/v1/api/audit?filter.entity=product&filter.entityCode=${code}`);
    expect(res.body.meta.totalItems).toBe(0);
  });
});

describe("every kind of write leaves exactly its entries", () => {
  it("create (a single statement): one INSERT with the whole record, the key name and operationId", async () => {
    const code = uid("P");
    const { res, requestId, correlationId } = await write("POST", "/v1/api/product", {
      code,
      name: "Bolt",
    });
    expect(res.status).toBe(201);
    // Recording costs no round trip: the write and its audit rows are one batch.
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="1 query"/);
    const entries = await entriesOf(requestId);
    expect(entries).toEqual([
      {
        id: expect.any(Number),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        requestId,
        correlationId,
        keyName: ADMIN_NAME,
        operation: "createProduct",
        method: "POST",
        path: "/v1/api/product",
        entity: "product",
        entityKey: { id: res.body.id, code },
        action: "INSERT",
        before: null,
        after: {
          id: res.body.id,
          code,
          name: "Bolt",
          createdAt: res.body.createdAt,
          updatedAt: res.body.updatedAt,
          ...productRefs.nulls,
          minOrderQuantity: 1,
          orderIncrement: 1,
          maxOrderQuantity: null,
        },
      },
    ]);
  });

  it("update: only the changed fields before and after", async () => {
    const product = await createProduct({ name: "Old name" });
    const { body, entries } = await ok("PATCH", `/v1/api/product/${product.code}`, {
      name: "New name",
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      operation: "updateProduct",
      method: "PATCH",
      entity: "product",
      entityKey: { id: product.id, code: product.code },
      action: "UPDATE",
      before: { name: "Old name", updatedAt: product.updatedAt },
      after: { name: "New name", updatedAt: body.updatedAt },
    });
  });

  it("delete: one DELETE with the whole record before", async () => {
    const product = await createProduct();
    const { entries } = await ok("DELETE", `/v1/api/product/${product.code}`);
    expect(entries).toEqual([
      expect.objectContaining({
        operation: "deleteProduct",
        entity: "product",
        entityKey: { id: product.id, code: product.code },
        action: "DELETE",
        before: expect.objectContaining({ id: product.id, code: product.code, name: "Product" }),
        after: null,
      }),
    ]);
  });

  it("create in a batch (customer with groups and channels): the record and each link", async () => {
    const group = await createCustomerGroup({ name: "G" });
    const channel = await createChannel({ name: "Ch" });
    const code = uid("C");
    const { body, entries } = await ok("POST", "/v1/api/customer", {
      code,
      name: "Customer",
      customerGroupCodes: [group.code],
      channelCodes: [channel.code],
    });
    expect(summary(entries).sort()).toEqual(
      [
        `INSERT customer ${JSON.stringify({ id: body.id, code })}`,
        `INSERT customerGroupMember ${JSON.stringify({ customerGroupId: group.id, customerId: body.id })}`,
        `INSERT channelCustomer ${JSON.stringify({ channelId: channel.id, customerId: body.id })}`,
      ].sort(),
    );
    expect(new Set(entries.map((e) => e.operation))).toEqual(new Set(["createCustomer"]));
    expect(new Set(entries.map((e) => e.at)).size).toBe(1);
  });

  it("product groups, their links and the new columns (migration 0013)", async () => {
    const parent = await createProductGroup();
    const code = uid("PG");
    const group = await ok("POST", "/v1/api/product-group", {
      code,
      name: "Screws",
      parentCode: parent.code,
    });
    expect(group.entries).toEqual([
      expect.objectContaining({
        entity: "productGroup",
        entityKey: { id: group.body.id, code },
        action: "INSERT",
        after: expect.objectContaining({ code, name: "Screws", parentId: parent.id }),
      }),
    ]);
    const tc = await ok("POST", "/v1/api/trade-conditions", {
      name: "On screws",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 500,
      currency: "EUR",
      scaleBasis: "ORDER_VALUE",
      productGroupCodes: [code],
      scales: [{ minimum: 100_000, value: 700 }],
    });
    expect(summary(tc.entries).sort()).toEqual(
      [
        `INSERT tradeCondition ${JSON.stringify({ id: tc.body.id })}`,
        `INSERT tradeConditionProductGroup ${JSON.stringify({ tradeConditionId: tc.body.id, productGroupId: group.body.id })}`,
        `INSERT tradeConditionScale ${JSON.stringify({ tradeConditionId: tc.body.id, minQuantity: 100_000 })}`,
      ].sort(),
    );
    expect(tc.entries.find((e) => e.entity === "tradeCondition").after).toMatchObject({
      scaleBasis: "ORDER_VALUE",
    });
    const base = await createPricelist();
    const derived = await ok("POST", "/v1/api/pricelist", {
      name: "Dealer",
      currency: "EUR",
      derivation: {
        basePricelistId: base.id,
        adjustmentBp: -1000,
        rounding: { mode: "NEAREST", step: 10, ending: 9 },
      },
    });
    expect(derived.entries[0].after).toMatchObject({
      kind: "SALES",
      basePricelistId: base.id,
      adjustmentBp: -1000,
      roundingMode: "NEAREST",
      roundingStep: 10,
      roundingEnding: 9,
    });
    const product = await createProduct();
    const moved = await ok("PATCH", `/v1/api/product/${product.code}`, {
      productGroupCode: code,
      orderIncrement: 10,
    });
    expect(moved.entries[0]).toMatchObject({
      action: "UPDATE",
      before: { productGroupId: null, orderIncrement: 1, updatedAt: product.updatedAt },
      after: { productGroupId: group.body.id, orderIncrement: 10, updatedAt: moved.body.updatedAt },
    });
  });

  it("bulk assign and unassign: one entry per link actually written", async () => {
    const channel = await createChannel({ name: "Ch" });
    const customers = await Promise.all([1, 2, 3].map(() => createCustomer({ name: "C" })));
    const codes = customers.map((c) => c.code);
    const assign = await ok("POST", `/v1/api/channel/${channel.code}/customer`, {
      customerCodes: [...codes.slice(0, 2), "NOPE-1"],
    });
    expect(assign.entries.map((e) => [e.action, e.entity, e.operation])).toEqual([
      ["INSERT", "channelCustomer", "assignCustomersToChannel"],
      ["INSERT", "channelCustomer", "assignCustomersToChannel"],
    ]);
    expect(assign.entries.map((e) => e.after.customerId).sort()).toEqual(
      customers
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    );
    // Already assigned: skipped, nothing written, nothing recorded.
    const again = await ok("POST", `/v1/api/channel/${channel.code}/customer`, {
      customerCodes: codes.slice(0, 2),
    });
    expect(again.entries).toEqual([]);
    // The third was never assigned: only two links are deleted.
    const unassign = await ok("POST", `/v1/api/channel/${channel.code}/customer/unassign`, {
      customerCodes: codes,
    });
    expect(unassign.entries.map((e) => [e.action, e.entity, e.before.customerId])).toEqual(
      expect.arrayContaining([
        ["DELETE", "channelCustomer", customers[0].id],
        ["DELETE", "channelCustomer", customers[1].id],
      ]),
    );
    expect(unassign.entries).toHaveLength(2);
    expect(unassign.entries[0].operation).toBe("unassignCustomersFromChannel");
  });

  it("price upsert: INSERT for new rows, UPDATE with the old and new amount, nothing for unchanged ones", async () => {
    const [a, b] = [await createProduct(), await createProduct()];
    const pl = await createPricelist({ name: "Prices" });
    const first = await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      prices: [
        { productCode: a.code, amount: 1000 },
        { productCode: b.code, amount: 500, minQuantity: 10 },
      ],
    });
    expect(first.entries.map((e) => [e.action, e.entity, e.entityKey, e.after])).toEqual([
      [
        "INSERT",
        "pricelistPrice",
        { pricelistId: pl.id, productId: a.id, minQuantity: 1, validFrom: null },
        {
          pricelistId: pl.id,
          productId: a.id,
          minQuantity: 1,
          validFrom: null,
          validTo: null,
          amount: 1000,
          priceUnit: 1,
          flatAmount: 0,
        },
      ],
      [
        "INSERT",
        "pricelistPrice",
        { pricelistId: pl.id, productId: b.id, minQuantity: 10, validFrom: null },
        {
          pricelistId: pl.id,
          productId: b.id,
          minQuantity: 10,
          validFrom: null,
          validTo: null,
          amount: 500,
          priceUnit: 1,
          flatAmount: 0,
        },
      ],
    ]);
    const second = await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      prices: [
        { productCode: a.code, amount: 950 },
        { productCode: b.code, amount: 500, minQuantity: 10 },
      ],
    });
    expect(second.entries).toEqual([
      expect.objectContaining({
        operation: "upsertPricelistPrices",
        method: "PUT",
        path: `/v1/api/pricelist/${pl.id}/prices`,
        entity: "pricelistPrice",
        entityKey: { pricelistId: pl.id, productId: a.id, minQuantity: 1, validFrom: null },
        action: "UPDATE",
        before: { amount: 1000 },
        after: { amount: 950 },
      }),
    ]);
    const removed = await ok("POST", `/v1/api/pricelist/${pl.id}/prices/delete`, {
      productCodes: [b.code],
    });
    expect(summary(removed.entries)).toEqual([
      `DELETE pricelistPrice ${JSON.stringify({ pricelistId: pl.id, productId: b.id, minQuantity: 10, validFrom: null })}`,
    ]);
  });

  it("status change: the status and updatedAt before and after", async () => {
    const pl = await createPricelist({ name: "Status" });
    const { body, entries } = await ok("PATCH", `/v1/api/pricelist/${pl.id}`, {
      status: "ACTIVE",
    });
    expect(entries).toEqual([
      expect.objectContaining({
        operation: "updatePricelist",
        entity: "pricelist",
        entityKey: { id: pl.id },
        action: "UPDATE",
        before: { status: "DRAFT", updatedAt: pl.updatedAt },
        after: { status: "ACTIVE", updatedAt: body.updatedAt },
      }),
    ]);
  });

  it("booleans and instants read as the API shows them", async () => {
    const pl = await createPricelist({
      name: "Window",
      validFrom: "2025-01-01T00:00:00.123Z",
      taxInclusive: true,
    });
    const { entries } = await ok("PATCH", `/v1/api/pricelist/${pl.id}`, {
      taxInclusive: false,
      validTo: "2026-01-01",
    });
    expect(entries[0]).toMatchObject({
      before: { taxInclusive: true, validTo: null },
      after: { taxInclusive: false, validTo: "2026-01-01T00:00:00.000Z" },
    });
    const created_ = await entriesOf(
      (
        await api(
          "GET",
          `/v1/api/audit?filter.entity=pricelist&filter.entityId=${pl.id}&sortBy=id:ASC`,
        )
      ).body.data[0].requestId,
    );
    expect(created_[0].after).toMatchObject({
      validFrom: "2025-01-01T00:00:00.123Z",
      validTo: null,
      taxInclusive: true,
      allowsTradeDiscounts: true,
      customerId: null,
    });
  });

  it("cascade: deleting a customer records its memberships, links, individual pricelists and their prices", async () => {
    const product = await createProduct();
    const group = await createCustomerGroup({ name: "G" });
    const channel = await createChannel({ name: "Ch" });
    const customer = await createCustomer({
      name: "Leaving",
      customerGroupCodes: [group.code],
      channelCodes: [channel.code],
    });
    const own = await createIndividualPricelist(customer.code, {
      name: "Own",
    });
    await ok("PUT", `/v1/api/pricelist/${own.id}/prices`, {
      prices: [
        { productCode: product.code, amount: 700 },
        { productCode: product.code, minQuantity: 100, amount: 650 },
      ],
    });
    const general = await createPricelist({ name: "General" });
    await ok("POST", `/v1/api/customer/${customer.code}/pricelist`, { pricelistId: general.id });

    const { entries, requestId } = await ok("DELETE", `/v1/api/customer/${customer.code}`);
    expect(summary(entries).sort()).toEqual(
      [
        `DELETE customer ${JSON.stringify({ id: customer.id, code: customer.code })}`,
        `DELETE customerGroupMember ${JSON.stringify({ customerGroupId: group.id, customerId: customer.id })}`,
        `DELETE channelCustomer ${JSON.stringify({ channelId: channel.id, customerId: customer.id })}`,
        `DELETE customerPricelist ${JSON.stringify({ customerId: customer.id, pricelistId: general.id })}`,
        `DELETE pricelist ${JSON.stringify({ id: own.id })}`,
        `DELETE pricelistPrice ${JSON.stringify({ pricelistId: own.id, productId: product.id, minQuantity: 1, validFrom: null })}`,
        `DELETE pricelistPrice ${JSON.stringify({ pricelistId: own.id, productId: product.id, minQuantity: 100, validFrom: null })}`,
      ].sort(),
    );
    for (const entry of entries) {
      expect(entry).toMatchObject({
        requestId,
        keyName: ADMIN_NAME,
        operation: "deleteCustomer",
        method: "DELETE",
        after: null,
      });
    }
    expect(entries.find((e) => e.entity === "pricelist").before).toMatchObject({
      id: own.id,
      scope: "INDIVIDUAL",
      customerId: customer.id,
    });
  });
});

describe("failed writes leave no entries", () => {
  it("409 duplicate code, 400 validation, 409 restricted delete, 404: nothing recorded", async () => {
    const product = await createProduct();
    const pl = await createPricelist({ name: "Keep" });
    await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      prices: [{ productCode: product.code, amount: 1 }],
    });
    const attempts = [
      await write("POST", "/v1/api/product", { code: product.code, name: "Dup" }),
      await write("POST", "/v1/api/product", { code: "bad code!", name: "" }),
      await write("DELETE", `/v1/api/product/${product.code}`),
      await write("PATCH", "/v1/api/product/NOPE-NOT-THERE", { name: "x" }),
      await write("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
        prices: [
          { productCode: product.code, amount: 2 },
          { productCode: "UNKNOWN-PRODUCT", amount: 3 },
        ],
      }),
      await write("PATCH", `/v1/api/pricelist/${pl.id}`, { status: "INACTIVE" }),
    ];
    expect(attempts.map((a) => a.res.status)).toEqual([409, 400, 409, 404, 400, 409]);
    for (const { requestId } of attempts) expect(await entriesOf(requestId)).toEqual([]);
    // And the price the failed upsert named is unchanged.
    const prices = await api("GET", `/v1/api/pricelist/${pl.id}/prices`);
    expect(prices.body.data[0].amount).toBe(1);
  });
});

describe("request ids: the server's, with the client's x-request-id beside it", () => {
  it("a client cannot file its writes under another request's id", async () => {
    const first = await ok("POST", "/v1/api/product", { code: uid("P"), name: "First" });
    expect(first.entries).toHaveLength(1);
    // A second client sends the first request's id as its own.
    const spoof = await api("POST", "/v1/api/product", {
      body: { code: uid("P"), name: "Spoof" },
      headers: { "x-request-id": first.requestId },
    });
    expect(spoof.status).toBe(201);
    const spoofId = spoof.headers.get("x-request-id")!;
    expect(spoofId).not.toBe(first.requestId);
    expect(spoof.headers.get("x-correlation-id")).toBe(first.requestId);
    // The first request's trail is what it wrote, nothing more.
    expect(await entriesOf(first.requestId)).toEqual(first.entries);
    const filed = await entriesOf(spoofId);
    expect(filed).toEqual([
      expect.objectContaining({
        requestId: spoofId,
        correlationId: first.requestId,
        entityKey: { id: spoof.body.id, code: spoof.body.code },
      }),
    ]);
  });

  it("records the correlation id on every entry of a batch, filterable with filter.correlationId", async () => {
    const group = await createCustomerGroup({ name: "G" });
    const correlationId = `erp-import/${uid("run")}#7`;
    const res = await api("POST", "/v1/api/customer", {
      body: { code: uid("C"), name: "Correlated", customerGroupCodes: [group.code] },
      headers: { "x-request-id": correlationId },
    });
    expect(res.status).toBe(201);
    const listed = await api(
      "GET",
      `/v1/api/audit?filter.correlationId=${encodeURIComponent(correlationId)}&sortBy=id:ASC`,
    );
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.map((e: any) => [e.entity, e.requestId, e.correlationId])).toEqual([
      ["customer", res.headers.get("x-request-id"), correlationId],
      ["customerGroupMember", res.headers.get("x-request-id"), correlationId],
    ]);
  });

  it("records null without a valid x-request-id", async () => {
    const variants: Record<string, string>[] = [{}, { "x-request-id": "x".repeat(129) }];
    for (const headers of variants) {
      const res = await api("POST", "/v1/api/product", {
        body: { code: uid("P"), name: "Plain" },
        headers,
      });
      expect(res.status).toBe(201);
      const entries = await entriesOf(res.headers.get("x-request-id")!);
      expect(entries.map((e) => e.correlationId)).toEqual([null]);
    }
  });
});

describe("a write that changes nothing records nothing", () => {
  const version = async () =>
    (await env.DB.prepare("select version from pricing_version where id = 1").first<{
      version: number;
    }>())!.version;
  const primary = (code: string) => `/v1/api/channel/${code}/pricelist/primary`;
  const link = (channelId: number, pricelistId: number) =>
    JSON.stringify({ channelId, pricelistId });

  it("setting the primary pricelist that is already primary: no entry, same pricing version", async () => {
    const channel = await createChannel({ name: "Shop" });
    const pl = await createPricelist({ name: "Main" });
    const set = await ok("PUT", primary(channel.code), { pricelistId: pl.id });
    // Not yet assigned: one INSERT, already marked.
    expect(set.entries.map((e) => [e.action, e.entity, e.after])).toEqual([
      [
        "INSERT",
        "channelPricelist",
        { channelId: channel.id, pricelistId: pl.id, isPrimary: true },
      ],
    ]);
    const before = await version();
    const again = await ok("PUT", primary(channel.code), { pricelistId: pl.id });
    expect(again.body.primaryPricelist.id).toBe(pl.id);
    expect(again.entries).toEqual([]);
    expect(await version()).toBe(before);
  });

  it("moving the mark records exactly the two changed links", async () => {
    const channel = await createChannel({ name: "Shop" });
    const [a, b] = [await createPricelist({ name: "A" }), await createPricelist({ name: "B" })];
    await ok("PUT", primary(channel.code), { pricelistId: a.id });
    await ok("POST", `/v1/api/channel/${channel.code}/pricelist`, { pricelistId: b.id });
    const before = await version();
    const moved = await ok("PUT", primary(channel.code), { pricelistId: b.id });
    expect(summary(moved.entries)).toEqual([
      `UPDATE channelPricelist ${link(channel.id, a.id)}`,
      `UPDATE channelPricelist ${link(channel.id, b.id)}`,
    ]);
    expect(moved.entries.map((e) => [e.before, e.after])).toEqual([
      [{ isPrimary: true }, { isPrimary: false }],
      [{ isPrimary: false }, { isPrimary: true }],
    ]);
    expect(await version()).toBeGreaterThan(before);
    // To a pricelist not yet assigned: the old mark cleared, the new link inserted marked.
    const c = await createPricelist({ name: "C" });
    const fresh = await ok("PUT", primary(channel.code), { pricelistId: c.id });
    expect(summary(fresh.entries)).toEqual([
      `UPDATE channelPricelist ${link(channel.id, b.id)}`,
      `INSERT channelPricelist ${link(channel.id, c.id)}`,
    ]);
    expect(fresh.entries[1].after.isPrimary).toBe(true);
  });

  it("re-sending an unchanged price sheet: no entry, same version, the same answer", async () => {
    const [a, b] = [await createProduct(), await createProduct()];
    const pl = await createPricelist({ name: "Sheet" });
    const sheet = [
      { productCode: a.code, amount: 1000 },
      { productCode: b.code, minQuantity: 10, amount: 500 },
    ];
    await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices: sheet });
    const before = await version();
    const again = await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, { prices: sheet });
    expect(again.body).toEqual({ upserted: 2, closed: 0 });
    expect(again.entries).toEqual([]);
    expect(await version()).toBe(before);
    // One amount changed: one entry, a new version.
    const changed = await ok("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      prices: [sheet[0], { ...sheet[1], amount: 450 }],
    });
    expect(changed.body).toEqual({ upserted: 2, closed: 0 });
    expect(changed.entries.map((e) => [e.action, e.before, e.after])).toEqual([
      ["UPDATE", { amount: 500 }, { amount: 450 }],
    ]);
    expect(await version()).toBeGreaterThan(before);
  });

  it("clearing the mark of a channel without one, and assigning again: no entry, same version", async () => {
    const channel = await createChannel({ name: "Shop" });
    const pl = await createPricelist({ name: "Main" });
    await ok("POST", `/v1/api/channel/${channel.code}/pricelist`, { pricelistId: pl.id });
    const before = await version();
    expect((await ok("DELETE", primary(channel.code))).entries).toEqual([]);
    const assignAgain = await ok("POST", `/v1/api/channel/${channel.code}/pricelist`, {
      pricelistId: pl.id,
    });
    expect(assignAgain.entries).toEqual([]);
    expect(await version()).toBe(before);
  });

  it("a PATCH that repeats the stored fields and lists (in another order): no entry, same version", async () => {
    const products = [await createProduct(), await createProduct()];
    const condition = await created("/v1/api/trade-conditions", {
      name: "Repeat me",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "PERCENTAGE",
      value: 500,
      productCodes: products.map((p) => p.code),
      scales: [
        { minQuantity: 10, value: 700 },
        { minQuantity: 1, value: 500 },
      ],
    });
    const before = await version();
    const same = await ok("PATCH", `/v1/api/trade-conditions/${condition.id}`, {
      name: "Repeat me",
      productCodes: products.map((p) => p.code).reverse(),
      scales: [
        { value: 500, minQuantity: 1 },
        { value: 700, minQuantity: 10 },
      ],
    });
    expect(same.entries).toEqual([]);
    expect(same.body.updatedAt).toBe(condition.updatedAt);
    expect(await version()).toBe(before);
    // A real change still writes.
    const changed = await ok("PATCH", `/v1/api/trade-conditions/${condition.id}`, { value: 600 });
    expect(changed.entries.map((e) => [e.action, e.entity])).toEqual([
      ["UPDATE", "tradeCondition"],
    ]);
  });
});

describe("an upload cut off by the client", () => {
  /** A JSON body whose stream breaks after its first chunk, as when the client goes away. */
  function cutOff(code: string, headers: Record<string, string> = {}) {
    const first = new TextEncoder().encode(`{"code":"${code}","name":"Half`);
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("Network connection lost."));
        sent = true;
        controller.enqueue(first);
      },
    });
    return new Request("http://pricing.test/v1/api/product", {
      method: "POST",
      headers: {
        "x-webhook-signature": KEYS.admin,
        "content-type": "application/json",
        ...headers,
      },
      body,
      duplex: "half",
    } as RequestInit);
  }

  it.each([
    ["without a length (read by the body limit)", {}],
    ["with a content-length (read by the JSON check)", { "content-length": "200" }],
  ])("%s: 400 INCOMPLETE_BODY, no 500 logged, nothing written", async (_, headers) => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const code = uid("CUT");
    const ctx = createExecutionContext();
    const res = await worker.fetch(cutOff(code, headers), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      code: "INCOMPLETE_BODY",
      detail:
        "the request body ended before it was complete (the upload was cut off); nothing was written",
      requestId: res.headers.get("x-request-id"),
    });
    expect(error).not.toHaveBeenCalled();
    error.mockRestore();
    expectProblem(await api("GET", `/v1/api/product/${code}`), 404, "NOT_FOUND");
    expect(await entriesOf(res.headers.get("x-request-id")!)).toEqual([]);
  });
});

describe("GET /v1/api/audit", () => {
  it("filters by entity, operation, action, key name and time range; sorts by id or at", async () => {
    const start = new Date().toISOString();
    const product = await createProduct();
    await ok("PATCH", `/v1/api/product/${product.code}`, { name: "Renamed" });
    const byEntity = await api(
      "GET",
      `/v1/api/audit?filter.entity=product&filter.entityCode=${product.code}`,
    );
    expect(byEntity.status).toBe(200);
    expect(byEntity.body.data.map((e: any) => e.action)).toEqual(["UPDATE", "INSERT"]);
    expect(byEntity.body.meta).toMatchObject({ totalItems: 2, sortBy: [["id", "DESC"]] });

    const updates = await api(
      "GET",
      `/v1/api/audit?filter.operation=updateProduct&filter.action=UPDATE&filter.keyName=${ADMIN_NAME}&filter.at=$gte:${start}&sortBy=at:ASC`,
    );
    expect(updates.body.data.length).toBeGreaterThanOrEqual(1);
    for (const e of updates.body.data) {
      expect(e).toMatchObject({
        operation: "updateProduct",
        action: "UPDATE",
        keyName: ADMIN_NAME,
      });
      expect(Date.parse(e.at)).toBeGreaterThanOrEqual(Date.parse(start) - 5);
    }
    const past = await api("GET", `/v1/api/audit?filter.at=$lte:2000-01-01`);
    expect(past.body.meta.totalItems).toBe(0);
  });

  it("refuses unknown entities, actions and bad instants with 400", async () => {
    const res = await api(
      "GET",
      "/v1/api/audit?filter.entity=products&filter.action=UPSERT&filter.at=$gte:yesterday",
    );
    expect(issuePaths(res).sort()).toEqual([
      "query.filter.action",
      "query.filter.at",
      "query.filter.entity",
    ]);
  });

  it("is for admin keys only: 403 for a read key, 401 without a key", async () => {
    const read = expectProblem(
      await api("GET", "/v1/api/audit", { key: KEYS.read }),
      403,
      "FORBIDDEN",
    );
    expect(read.detail).toBe("a read key cannot read the audit trail; use an admin key");
    expectProblem(await api("GET", "/v1/api/audit", { key: null }), 401, "UNAUTHORIZED");
  });

  it("is documented in /doc with its filters", async () => {
    const doc = (await api("GET", "/doc", { key: null })).body;
    const op = doc.paths["/v1/api/audit"].get;
    expect(op.operationId).toBe("listAuditEntries");
    expect(Object.keys(op.responses)).toEqual(["200", "400", "401", "403", "429"]);
    const names = op.parameters.map((p: any) => p.name);
    for (const f of [
      "entity",
      "operation",
      "action",
      "at",
      "keyName",
      "requestId",
      "correlationId",
    ]) {
      expect(names).toContain(`filter.${f}`);
    }
  });
});

describe("pricing disputes: why did this customer pay X on date Y?", () => {
  it("resolve with `at` tells today's answer for Y; the audit trail tells what changed since", async () => {
    const product = await createProduct();
    const channel = await createChannel({ name: "Shop" });
    const customer = await createCustomer({
      name: "Disputing",
      channelCodes: [channel.code],
    });
    const own = await createIndividualPricelist(customer.code, {
      name: "Contract",
    });
    await ok("PUT", `/v1/api/pricelist/${own.id}/prices`, {
      prices: [{ productCode: product.code, amount: 1000 }],
    });
    await ok("PATCH", `/v1/api/pricelist/${own.id}`, { status: "ACTIVE" });
    const cart = (at: string) => ({
      channelCode: channel.code,
      customerCode: customer.code,
      currency: "EUR",
      at,
      lines: [{ productCode: product.code, quantity: 1 }],
    });

    // Date Y: the invoice. The customer paid 1000.
    await new Promise((r) => setTimeout(r, 20));
    const invoicedAt = new Date().toISOString();
    const then = await api("POST", "/v1/api/prices/resolve", { body: cart(invoicedAt) });
    expect(then.body.lines[0]).toMatchObject({
      finalUnitAmount: 1000,
      source: { pricelistId: own.id },
    });
    await new Promise((r) => setTimeout(r, 20));

    // Later the contract price is lowered.
    await ok("PUT", `/v1/api/pricelist/${own.id}/prices`, {
      prices: [{ productCode: product.code, amount: 900 }],
    });

    // The customer disputes: "your price for Y is 900". Resolve at Y with today's data says so...
    const now = await api("POST", "/v1/api/prices/resolve", { body: cart(invoicedAt) });
    expect(now.body.lines[0]).toMatchObject({
      finalUnitAmount: 900,
      source: { pricelistId: own.id },
    });
    // ... and the audit trail of the pricelist that priced the line shows what it said at Y.
    const changes = await api(
      "GET",
      `/v1/api/audit?filter.entity=pricelistPrice&filter.at=$gte:${invoicedAt}&sortBy=id:ASC`,
    );
    const ofThisList = changes.body.data.filter(
      (e: any) => e.entityKey.pricelistId === own.id && e.entityKey.productId === product.id,
    );
    expect(ofThisList).toEqual([
      expect.objectContaining({
        action: "UPDATE",
        operation: "upsertPricelistPrices",
        keyName: ADMIN_NAME,
        before: { amount: 1000 },
        after: { amount: 900 },
      }),
    ]);
    expect(Date.parse(ofThisList[0].at)).toBeGreaterThan(Date.parse(invoicedAt));
    // The amount in force at Y = the "before" of the first change after Y: 1000, as invoiced.
  });
});
