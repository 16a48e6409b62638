import { describe, expect, it } from "vitest";
import {
  archiveTradeCondition,
  assignPricelistToChannel,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createPricelist,
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
} from "../factories";
import { api, expectProblem, KEYS, roundTrips, uid } from "../shared/helpers";
import { countRows, getCustomer, getPricelist } from "../shared/reads";

const del = (path: string) => api("DELETE", path);

/**
 * A 409 refusing a delete (docs/api/errors-and-limits.md §7.2): IN_USE with the records in the way.
 */
function inUse(res: Awaited<ReturnType<typeof api>>) {
  const body = expectProblem(res, 409, "IN_USE") as ReturnType<typeof expectProblem> & {
    blockers: unknown;
  };
  expect(body.type).toBe("urn:problem:pricing:in-use");
  return body;
}

/** A CUSTOMER_GROUP-scope trade condition targeting the groups. */
async function conditionTargeting(...groupCodes: string[]) {
  const tc = await createTradeCondition({ scope: "CUSTOMER_GROUP" });
  const res = await api("POST", `/v1/api/trade-conditions/${tc.id}/customer-groups`, {
    body: { customerGroupCodes: groupCodes },
  });
  expect(res.status).toBe(201);
  return tc;
}

describe("DELETE /v1/api/customer-group/{code}", () => {
  it("deletes the group with its memberships and assignments in one round trip", async () => {
    const group = await createCustomerGroup();
    const keep = await createCustomerGroup();
    const ch = await createChannel();
    const member = await createCustomer({
      customerGroupCodes: [group.code, keep.code],
      channelCodes: [ch.code],
    });
    const pl = await createPricelist();
    await api("POST", `/v1/api/customer-group/${group.code}/pricelist`, {
      body: { pricelistId: pl.id },
    });
    await api("POST", `/v1/api/channel/${ch.code}/customer-group`, {
      body: { customerGroupCodes: [group.code, keep.code] },
    });

    const res = await del(`/v1/api/customer-group/${group.code}`);
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expect(roundTrips(res)).toBe(1);
    expectProblem(await api("GET", `/v1/api/customer-group/${group.code}`), 404, "NOT_FOUND");
    // The customer, the channel and the pricelist stay; only the links to the group went.
    expect((await getCustomer(member.code)).customerGroupCodes).toEqual([keep.code]);
    const channelGroups = await api("GET", `/v1/api/channel/${ch.code}/customer-groups`);
    expect(channelGroups.body.data.map((g: { code: string }) => g.code)).toEqual([keep.code]);
    expect((await getPricelist(pl.id)).id).toBe(pl.id);
    for (const table of [
      "customer_group_members",
      "customer_group_pricelists",
      "channel_customer_groups",
    ]) {
      expect(await countRows(table, "customer_group_id", group.id)).toBe(0);
    }
    // Gone means gone: a second delete is a 404.
    const again = await del(`/v1/api/customer-group/${group.code}`);
    expect(expectProblem(again, 404, "NOT_FOUND").detail).toBe(
      `customer group ${group.code} not found`,
    );
  });

  it("refuses (409) while a trade condition or a promotion targets it, naming them", async () => {
    const group = await createCustomerGroup();
    const member = await createCustomer({ customerGroupCodes: [group.code] });
    const tc = await conditionTargeting(group.code);
    const archived = await conditionTargeting(group.code);
    await archiveTradeCondition(archived.id);
    const pr = await createPromotion({ customerGroupCodes: [group.code] });

    const res = await del(`/v1/api/customer-group/${group.code}`);
    const body = inUse(res);
    expect(body.detail).toBe(
      `customer group ${group.code} is still named by 2 trade conditions (${tc.id}, ` +
        `${archived.id}) and 1 promotion (${pr.id}); remove it from them first`,
    );
    expect(body.blockers).toEqual([
      { kind: "tradeCondition", count: 2, ids: [tc.id, archived.id] },
      { kind: "promotion", count: 1, ids: [pr.id] },
    ]);
    // Nothing was deleted: the group and its members are all there.
    expect((await api("GET", `/v1/api/customer-group/${group.code}`)).status).toBe(200);
    expect((await getCustomer(member.code)).customerGroupCodes).toEqual([group.code]);

    // As they let go, fewer stand in the way; an ARCHIVED condition's targets are frozen.
    await api("POST", `/v1/api/trade-conditions/${tc.id}/customer-groups/unassign`, {
      body: { customerGroupCodes: [group.code] },
    });
    await api("PATCH", `/v1/api/promotion/${pr.id}`, { body: { customerGroupCodes: [] } });
    const left = inUse(await del(`/v1/api/customer-group/${group.code}`));
    expect(left.blockers).toEqual([{ kind: "tradeCondition", count: 1, ids: [archived.id] }]);
  });

  it("deletes once nothing targets it any more", async () => {
    const group = await createCustomerGroup();
    const tc = await conditionTargeting(group.code);
    inUse(await del(`/v1/api/customer-group/${group.code}`));
    await api("POST", `/v1/api/trade-conditions/${tc.id}/customer-groups/unassign`, {
      body: { customerGroupCodes: [group.code] },
    });
    expect((await del(`/v1/api/customer-group/${group.code}`)).status).toBe(204);
  });

  it("needs an admin key (403) and a valid code (400)", async () => {
    const group = await createCustomerGroup();
    const path = `/v1/api/customer-group/${group.code}`;
    expectProblem(await api("DELETE", path, { key: KEYS.read }), 403, "FORBIDDEN");
    expectProblem(await api("DELETE", path, { key: null }), 401, "UNAUTHORIZED");
    expectProblem(await del("/v1/api/customer-group/bad%20code"), 400, "VALIDATION_FAILED");
    expect((await api("GET", path)).status).toBe(200);
  });
});

describe("every 409 that refuses a delete names the records in the way", () => {
  it("lists at most 20 of a kind, in order, with the full count", async () => {
    const group = await createCustomerGroup();
    const promotions = [];
    for (let i = 0; i < 22; i++) {
      promotions.push((await createPromotion({ customerGroupCodes: [group.code] })).id as number);
    }
    const body = inUse(await del(`/v1/api/customer-group/${group.code}`));
    const shown = promotions.slice(0, 20);
    expect(body.blockers).toEqual([{ kind: "promotion", count: 22, ids: shown }]);
    expect(body.detail).toBe(
      `customer group ${group.code} is still named by 22 promotions (${shown.join(", ")} and 2 ` +
        "more); remove it from them first",
    );
  });

  it("product: the pricelists with prices for it (each once), conditions, promotions", async () => {
    const p = await createProduct();
    const [pl1, pl2] = [await createPricelist(), await createPricelist()];
    await api("PUT", `/v1/api/pricelist/${pl1.id}/prices`, {
      body: {
        prices: [
          { productCode: p.code, amount: 100 },
          { productCode: p.code, minQuantity: 10, amount: 90 },
        ],
      },
    });
    await api("PUT", `/v1/api/pricelist/${pl2.id}/prices`, {
      body: { prices: [{ productCode: p.code, amount: 95 }] },
    });
    const tc = await createTradeCondition({ productCodes: [p.code] });
    const pr = await createPromotion({ productCodes: [p.code] });
    const body = inUse(await del(`/v1/api/product/${p.code}`));
    expect(body.blockers).toEqual([
      { kind: "pricelist", count: 2, ids: [pl1.id, pl2.id] },
      { kind: "tradeCondition", count: 1, ids: [tc.id] },
      { kind: "promotion", count: 1, ids: [pr.id] },
    ]);
    expect(body.detail).toBe(
      `product ${p.code} is still named by 2 pricelists (${pl1.id}, ${pl2.id}), ` +
        `1 trade condition (${tc.id}) and 1 promotion (${pr.id}); remove it from them first`,
    );
    expect((await api("GET", `/v1/api/product/${p.code}`)).body).toEqual(p);
  });

  it("product group: products and child groups by code, conditions and promotions by id", async () => {
    const tag = uid("BG");
    const group = await createProductGroup({ code: `${tag}-G` });
    const child = await createProductGroup({ code: `${tag}-C`, parentCode: group.code });
    const product = await createProduct({ code: `${tag}-P`, productGroupCode: group.code });
    const tc = await createTradeCondition({ productGroupCodes: [group.code] });
    const pr = await createPromotion({ productGroupCodes: [group.code] });
    const body = inUse(await del(`/v1/api/product-group/${group.code}`));
    expect(body.blockers).toEqual([
      { kind: "product", count: 1, codes: [product.code] },
      { kind: "productGroup", count: 1, codes: [child.code] },
      { kind: "tradeCondition", count: 1, ids: [tc.id] },
      { kind: "promotion", count: 1, ids: [pr.id] },
    ]);
    expect(body.detail).toBe(
      `product group ${group.code} is still named by 1 product (${product.code}), ` +
        `1 child group (${child.code}), 1 trade condition (${tc.id}) and 1 promotion ` +
        `(${pr.id}); remove it from them first`,
    );
  });

  it("channel: the trade conditions and promotions that name it", async () => {
    const ch = await createChannel();
    const pl = await createPricelist();
    await assignPricelistToChannel(ch.code, pl.id);
    const tc = await createTradeCondition({ scope: "CHANNEL", channelCodes: [ch.code] });
    const pr = await createPromotion({ channelCodes: [ch.code] });
    const body = inUse(await del(`/v1/api/channel/${ch.code}`));
    expect(body.blockers).toEqual([
      { kind: "tradeCondition", count: 1, ids: [tc.id] },
      { kind: "promotion", count: 1, ids: [pr.id] },
    ]);
    expect(body.detail).toBe(
      `channel ${ch.code} is still named by 1 trade condition (${tc.id}) and 1 promotion ` +
        `(${pr.id}); remove it from them first`,
    );
    // Assignments are no blockers: they go with a channel that can be deleted.
    expect((await api("GET", `/v1/api/channel/${ch.code}/pricelists`)).body.meta.totalItems).toBe(
      1,
    );
  });

  it("/doc documents the shape on every DELETE that others can stand in the way of", async () => {
    const doc = (await api("GET", "/doc")).body;
    expect(doc.components.schemas.Problem.properties.blockers).toEqual({
      type: "array",
      items: { $ref: "#/components/schemas/Blocker" },
      description: expect.stringContaining("IN_USE"),
    });
    const conflicts = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
      ([path, ops]) => {
        const example = ops.delete?.responses["409"].content["application/problem+json"].example;
        return example?.code === "IN_USE" ? [[path, example] as const] : [];
      },
    );
    // These at least; a new record others can name (a product's brand) adds its own.
    expect(conflicts.map(([path]) => path)).toEqual(
      expect.arrayContaining([
        "/v1/api/channel/{code}",
        "/v1/api/customer-group/{code}",
        "/v1/api/product-group/{code}",
        "/v1/api/product/{code}",
      ]),
    );
    for (const [path, example] of conflicts) {
      expect(example.blockers.length, path).toBeGreaterThan(0);
      expect(example.detail, path).toMatch(/ is still named by .+; remove it from them first$/);
    }
  });
});
