import { describe, expect, it } from "vitest";
import {
  archivePricelist,
  createChannel,
  createCustomer,
  createCustomerGroup,
  createIndividualPricelist,
  createPricelist,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, roundTrips } from "../shared/helpers";
import { channelPricelists, getChannel, getCustomer, getPricelist } from "../shared/reads";
import { describeBulkAssign } from "../shared/bulk-assign";

/** The channel's groups, read straight from the link table (there is no read endpoint for them). */
async function groupsOf(channelCode: string) {
  const { env } = await import("cloudflare:workers");
  const { results } = await env.DB.prepare(
    `select g.code from channel_customer_groups l join channels c on c.id = l.channel_id
     join customer_groups g on g.id = l.customer_group_id where c.code = ? order by g.code`,
  )
    .bind(channelCode)
    .all<{ code: string }>();
  return results.map((r) => r.code);
}

const channelCode = async () => (await createChannel()).code;

// Seed endpoint 12 and its unassign counterpart.
describeBulkAssign({
  label: "channel customer groups",
  path: (code) => `/v1/api/channel/${code}/customer-group`,
  field: "customerGroupCodes",
  createOwner: channelCode,
  createTarget: async () => (await createCustomerGroup()).code,
  linked: async (code, codes) => (await groupsOf(code)).filter((g) => codes.includes(g)),
  missingOwner: { key: "NOPE-CH", detail: "channel NOPE-CH not found" },
  badOwnerKeys: ["bad%20code"],
  badOwnerIssue: "path.code",
  roundTrips: {
    assign: { exactly: 2 },
    unassign: { atMost: 3 },
    bulkAssign: { exactly: 2 },
    bulkUnassign: { atMost: 3 },
  },
});

// Seed endpoint 11 and its assign counterpart; the links show in the customer.
describeBulkAssign({
  label: "channel customers",
  path: (code) => `/v1/api/channel/${code}/customer`,
  field: "customerCodes",
  createOwner: channelCode,
  createTarget: async () => (await createCustomer()).code,
  linked: async (code, codes) => {
    const linked = [];
    for (const c of codes) if ((await getCustomer(c)).channelCodes.includes(code)) linked.push(c);
    return linked.sort();
  },
  missingOwner: { key: "NOPE-CH", detail: "channel NOPE-CH not found" },
  badOwnerKeys: ["bad%20code"],
  badOwnerIssue: "path.code",
  roundTrips: {
    assign: { atMost: 3 },
    unassign: { atMost: 3 },
    bulkAssign: { atMost: 3 },
    bulkUnassign: { atMost: 3 },
  },
});

describe("channel customers", () => {
  it("unassigning keeps the customer's other channels", async () => {
    const [ch, other] = [await createChannel(), await createChannel()];
    const a = await createCustomer({ channelCodes: [ch.code, other.code] });
    const b = await createCustomer();
    const path = `/v1/api/channel/${ch.code}/customer`;
    expect((await api("POST", path, { body: { customerCodes: [b.code] } })).status).toBe(201);
    expect((await getCustomer(b.code)).channelCodes).toEqual([ch.code]);
    const res = await api("POST", `${path}/unassign`, {
      body: { customerCodes: [a.code, b.code] },
    });
    expect(res.body).toEqual({ unassigned: [a.code, b.code], notFound: [] });
    expect((await getCustomer(a.code)).channelCodes).toEqual([other.code]);
    expect((await getCustomer(b.code)).channelCodes).toEqual([]);
  });
});

describe("channel pricelist assignment (seed endpoint 14)", () => {
  it("assigns a GENERAL pricelist (also DRAFT), idempotently, without marking it primary", async () => {
    const ch = await createChannel();
    const pl = await createPricelist({ status: "DRAFT" });
    const path = `/v1/api/channel/${ch.code}/pricelist`;
    const first = await api("POST", path, { body: { pricelistId: pl.id } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ channelCode: ch.code, pricelistId: pl.id });
    expect(roundTrips(first)).toBeLessThanOrEqual(3);
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: false }]);
    expect((await getChannel(ch.code)).primaryPricelistId).toBeNull();

    const again = await api("POST", path, { body: { pricelistId: pl.id } });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: false }]);
  });

  it("keeps the primary mark when the primary pricelist is assigned again", async () => {
    const ch = await createChannel();
    const pl = await createPricelist({ status: "ACTIVE" });
    await api("PUT", `/v1/api/channel/${ch.code}/pricelist/primary`, {
      body: { pricelistId: pl.id },
    });
    const res = await api("POST", `/v1/api/channel/${ch.code}/pricelist`, {
      body: { pricelistId: pl.id },
    });
    expect(res.status).toBe(201);
    expect((await getChannel(ch.code)).primaryPricelistId).toBe(pl.id);
  });

  it("refuses INDIVIDUAL and ARCHIVED pricelists (409) and unknown records (404), writing nothing", async () => {
    const ch = await createChannel();
    const customer = await createCustomer();
    const individual = await createIndividualPricelist(customer.code);
    const archived = await createPricelist({ status: "ACTIVE" });
    await archivePricelist(archived.id);
    const path = `/v1/api/channel/${ch.code}/pricelist`;

    const ind = expectProblem(
      await api("POST", path, { body: { pricelistId: individual.id } }),
      409,
      "PRICELIST_NOT_ASSIGNABLE",
    );
    expect(ind.detail).toBe(
      `pricelist ${individual.id} is INDIVIDUAL (owned by customer ${customer.code}) and cannot be assigned to channel ${ch.code}`,
    );
    const arch = expectProblem(
      await api("POST", path, { body: { pricelistId: archived.id } }),
      409,
      "PRICELIST_NOT_ASSIGNABLE",
    );
    expect(arch.detail).toBe(
      `pricelist ${archived.id} is ARCHIVED and cannot be assigned to channel ${ch.code}`,
    );
    const noPricelist = await api("POST", path, { body: { pricelistId: 999999999 } });
    expect(expectProblem(noPricelist, 404, "NOT_FOUND").detail).toBe(
      "pricelist 999999999 not found",
    );
    const noChannel = await api("POST", "/v1/api/channel/NOPE-CH/pricelist", {
      body: { pricelistId: archived.id },
    });
    expect(expectProblem(noChannel, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
    expect(await channelPricelists(ch.code)).toEqual([]);
  });
});

describe("channel primary pricelist (seed endpoints 6 and 19)", () => {
  const primary = (code: string) => `/v1/api/channel/${code}/pricelist/primary`;

  it("sets the primary: assigns first, answers with the channel and the full pricelist", async () => {
    const ch = await createChannel();
    const pl = await createPricelist({ status: "ACTIVE", priority: 5 });
    const res = await api("PUT", primary(ch.code), { body: { pricelistId: pl.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...ch,
      primaryPricelistId: pl.id,
      primaryPricelist: await getPricelist(pl.id),
    });
    expect(res.body.primaryPricelist).toEqual(pl);
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect(await getChannel(ch.code)).toEqual({ ...ch, primaryPricelistId: pl.id });
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: true }]);

    const again = await api("PUT", primary(ch.code), { body: { pricelistId: pl.id } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: true }]);
  });

  it("moves the mark from A to B, leaving A assigned and unmarked", async () => {
    const ch = await createChannel();
    const [a, b] = [
      await createPricelist({ status: "ACTIVE" }),
      await createPricelist({ status: "DRAFT" }),
    ];
    await api("PUT", primary(ch.code), { body: { pricelistId: a.id } });
    const moved = await api("PUT", primary(ch.code), { body: { pricelistId: b.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.primaryPricelistId).toBe(b.id);
    expect(moved.body.primaryPricelist).toEqual(b);
    expect(await channelPricelists(ch.code)).toEqual([
      { id: a.id, primary: false },
      { id: b.id, primary: true },
    ]);
    expect((await getChannel(ch.code)).primaryPricelistId).toBe(b.id);
  });

  it("marks an already assigned pricelist without assigning it twice", async () => {
    const ch = await createChannel();
    const pl = await createPricelist({ status: "ACTIVE" });
    await api("POST", `/v1/api/channel/${ch.code}/pricelist`, { body: { pricelistId: pl.id } });
    const res = await api("PUT", primary(ch.code), { body: { pricelistId: pl.id } });
    expect(res.status).toBe(200);
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: true }]);
  });

  it("refuses INDIVIDUAL and ARCHIVED pricelists (409) and unknown records (404), keeping the primary", async () => {
    const ch = await createChannel();
    const current = await createPricelist({ status: "ACTIVE" });
    await api("PUT", primary(ch.code), { body: { pricelistId: current.id } });
    const individual = await createIndividualPricelist((await createCustomer()).code);
    const archived = await createPricelist({ status: "ACTIVE" });
    await archivePricelist(archived.id);

    for (const id of [individual.id, archived.id]) {
      const res = await api("PUT", primary(ch.code), { body: { pricelistId: id } });
      expect(expectProblem(res, 409, "PRICELIST_NOT_ASSIGNABLE").detail).toContain(
        `pricelist ${id} is`,
      );
    }
    const noPricelist = await api("PUT", primary(ch.code), { body: { pricelistId: 999999999 } });
    expect(expectProblem(noPricelist, 404, "NOT_FOUND").detail).toBe(
      "pricelist 999999999 not found",
    );
    const noChannel = await api("PUT", primary("NOPE-CH"), { body: { pricelistId: current.id } });
    expect(expectProblem(noChannel, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
    expect(await channelPricelists(ch.code)).toEqual([{ id: current.id, primary: true }]);
  });

  it("removes the mark (DELETE): 204, the pricelist stays assigned, repeating is harmless", async () => {
    const ch = await createChannel();
    const pl = await createPricelist({ status: "ACTIVE" });
    await api("PUT", primary(ch.code), { body: { pricelistId: pl.id } });
    const res = await api("DELETE", primary(ch.code));
    expect(res.status).toBe(204);
    expect(res.body).toBe("");
    expect(roundTrips(res)).toBe(1);
    expect(await getChannel(ch.code)).toEqual({ ...ch, primaryPricelistId: null });
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: false }]);

    const again = await api("DELETE", primary(ch.code));
    expect(again.status).toBe(204);
    const never = await createChannel();
    expect((await api("DELETE", primary(never.code))).status).toBe(204);

    const missing = await api("DELETE", primary("NOPE-CH"));
    expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
    expect(issuePaths(await api("DELETE", primary("bad code")))).toEqual(["path.code"]);
    expectProblem(await api("DELETE", primary(ch.code), { key: null }), 401, "UNAUTHORIZED");
    expectProblem(await api("DELETE", primary(ch.code), { key: KEYS.read }), 403, "FORBIDDEN");
  });
});

describe("channel pricelist bodies (seed endpoints 6 and 14)", () => {
  it("validate pricelistId as a positive integer and refuse other keys", async () => {
    const ch = await createChannel();
    for (const [method, suffix] of [
      ["POST", "pricelist"],
      ["PUT", "pricelist/primary"],
    ] as const) {
      const path = `/v1/api/channel/${ch.code}/${suffix}`;
      const send = (body: unknown) => api(method, path, { body });
      for (const pricelistId of [0, -1, 1.5, "1", null, 1e20]) {
        expect(issuePaths(await send({ pricelistId }))).toEqual(["body.pricelistId"]);
      }
      expect(issuePaths(await send({}))).toEqual(["body.pricelistId"]);
      expect(issuePaths(await send({ pricelistId: 1, extra: true }))).toEqual(["body.extra"]);
      expect(
        issuePaths(
          await api(method, `/v1/api/channel/bad%20code/${suffix}`, { body: { pricelistId: 1 } }),
        ),
      ).toEqual(["path.code"]);
      expectProblem(
        await api(method, path, { raw: "{", headers: { "content-type": "application/json" } }),
        400,
        "MALFORMED_JSON",
      );
      expectProblem(
        await api(method, path, { key: null, body: { pricelistId: 1 } }),
        401,
        "UNAUTHORIZED",
      );
      expectProblem(
        await api(method, path, { key: KEYS.read, body: { pricelistId: 1 } }),
        403,
        "FORBIDDEN",
      );
    }
  });
});
