import { describe, expect, it } from "vitest";
import {
  archive,
  channelPricelists,
  createChannel,
  createCustomer,
  createGeneral,
  createIndividual,
  getChannel,
  getCustomer,
  getPricelist,
  missingCodes,
  roundTrips,
} from "./factories/relations";
import { api, created, expectProblem, issuePaths, KEYS, uid } from "./helpers";

const channel = () => created("/v1/api/channel", { code: uid("CH"), name: "Channel" });
const group = () => created("/v1/api/customer-group", { code: uid("G"), name: "Group" });

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

describe("channel customer groups (seed endpoint 12 and its unassign counterpart)", () => {
  it("assigns, reports assigned/skipped/notFound, and is idempotent", async () => {
    const ch = await channel();
    const [a, b] = [await group(), await group()];
    const path = `/v1/api/channel/${ch.code}/customer-group`;
    const first = await api("POST", path, {
      body: { customerGroupCodes: [a.code, "NOPE-1", a.code] },
    });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ assigned: [a.code], skipped: ["NOPE-1"], notFound: ["NOPE-1"] });
    expect(first.headers.get("server-timing")).toMatch(/^db;desc="2 queries"/);

    const again = await api("POST", path, { body: { customerGroupCodes: [a.code, b.code] } });
    expect(again.body).toEqual({ assigned: [b.code], skipped: [a.code], notFound: [] });
    expect(await groupsOf(ch.code)).toEqual([a.code, b.code].sort());
  });

  it("unassigns: existing codes are unassigned (also when not assigned), unknown ones notFound", async () => {
    const ch = await channel();
    const [a, b] = [await group(), await group()];
    await api("POST", `/v1/api/channel/${ch.code}/customer-group`, {
      body: { customerGroupCodes: [a.code] },
    });
    const path = `/v1/api/channel/${ch.code}/customer-group/unassign`;
    const res = await api("POST", path, {
      body: { customerGroupCodes: [a.code, b.code, "NOPE-2"] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unassigned: [a.code, b.code], notFound: ["NOPE-2"] });
    expect(await groupsOf(ch.code)).toEqual([]);
    expect((await api("POST", path, { body: { customerGroupCodes: [a.code] } })).body).toEqual({
      unassigned: [a.code],
      notFound: [],
    });
  });

  it("handles 1000 codes in two round trips", async () => {
    const ch = await channel();
    const g = await group();
    const codes = [g.code, ...Array.from({ length: 999 }, (_, i) => `MISSING-${i}`)];
    const res = await api("POST", `/v1/api/channel/${ch.code}/customer-group`, {
      body: { customerGroupCodes: codes },
    });
    expect(res.status).toBe(201);
    expect(res.body.assigned).toEqual([g.code]);
    expect(res.body.notFound).toHaveLength(999);
    expect(res.headers.get("server-timing")).toMatch(/^db;desc="2 queries"/);
  });

  it("validates the body and the channel", async () => {
    const ch = await channel();
    const path = `/v1/api/channel/${ch.code}/customer-group`;
    expect(issuePaths(await api("POST", path, { body: { customerGroupCodes: [] } }))).toEqual([
      "body.customerGroupCodes",
    ]);
    const tooMany = Array.from({ length: 1001 }, (_, i) => `G-${i}`);
    expect(issuePaths(await api("POST", path, { body: { customerGroupCodes: tooMany } }))).toEqual([
      "body.customerGroupCodes",
    ]);
    expect(
      issuePaths(await api("POST", path, { body: { customerGroupCodes: ["bad code"] } })),
    ).toEqual(["body.customerGroupCodes.0"]);
    const missing = await api("POST", "/v1/api/channel/NOPE-CH/customer-group", {
      body: { customerGroupCodes: ["X"] },
    });
    expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
    const read = await api("POST", path, { key: KEYS.read, body: { customerGroupCodes: ["X"] } });
    expectProblem(read, 403, "FORBIDDEN");
  });
});

describe("channel customers (seed endpoint 11 and its assign counterpart)", () => {
  it("assigns, reports assigned/skipped/notFound, is idempotent, and shows in the customer", async () => {
    const ch = await createChannel();
    const [a, b] = [await createCustomer(), await createCustomer()];
    const path = `/v1/api/channel/${ch.code}/customer`;
    const body = { customerCodes: [a.code, "NOPE-C1", a.code, b.code] };
    const first = await api("POST", path, { body });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      assigned: [a.code, b.code],
      skipped: ["NOPE-C1"],
      notFound: ["NOPE-C1"],
    });
    expect(roundTrips(first)).toBeLessThanOrEqual(3);
    expect((await getCustomer(a.code)).channelCodes).toEqual([ch.code]);
    expect((await getCustomer(b.code)).channelCodes).toEqual([ch.code]);

    const again = await api("POST", path, { body });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({
      assigned: [],
      skipped: [a.code, "NOPE-C1", b.code],
      notFound: ["NOPE-C1"],
    });
    expect((await getCustomer(a.code)).channelCodes).toEqual([ch.code]);
  });

  it("unassigns existing codes (also when not assigned) and reports unknown ones", async () => {
    const ch = await createChannel();
    const other = await createChannel();
    const [a, b] = [
      await createCustomer({ channelCodes: [ch.code, other.code] }),
      await createCustomer(),
    ];
    const path = `/v1/api/channel/${ch.code}/customer/unassign`;
    const body = { customerCodes: [a.code, b.code, "NOPE-C2"] };
    const res = await api("POST", path, { body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ unassigned: [a.code, b.code], notFound: ["NOPE-C2"] });
    expect(roundTrips(res)).toBeLessThanOrEqual(3);
    expect((await getCustomer(a.code)).channelCodes).toEqual([other.code]);

    const again = await api("POST", path, { body });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect((await getCustomer(a.code)).channelCodes).toEqual([other.code]);
  });

  it("handles 1000 codes each way in at most three round trips", async () => {
    const ch = await createChannel();
    const [a, b] = [await createCustomer(), await createCustomer()];
    const codes = [a.code, ...missingCodes(998, "NO-CUST"), b.code];
    const assigned = await api("POST", `/v1/api/channel/${ch.code}/customer`, {
      body: { customerCodes: codes },
    });
    expect(assigned.status).toBe(201);
    expect(assigned.body.assigned).toEqual([a.code, b.code]);
    expect(assigned.body.skipped).toHaveLength(998);
    expect(assigned.body.notFound).toHaveLength(998);
    expect(roundTrips(assigned)).toBeLessThanOrEqual(3);

    const unassigned = await api("POST", `/v1/api/channel/${ch.code}/customer/unassign`, {
      body: { customerCodes: codes },
    });
    expect(unassigned.status).toBe(200);
    expect(unassigned.body.unassigned).toEqual([a.code, b.code]);
    expect(unassigned.body.notFound).toHaveLength(998);
    expect(roundTrips(unassigned)).toBeLessThanOrEqual(3);
    expect((await getCustomer(b.code)).channelCodes).toEqual([]);
  });

  it("validates the body, the channel and the key", async () => {
    const ch = await createChannel();
    for (const suffix of ["customer", "customer/unassign"]) {
      const path = `/v1/api/channel/${ch.code}/${suffix}`;
      const post = (body: unknown) => api("POST", path, { body });
      expect(issuePaths(await post({ customerCodes: [] }))).toEqual(["body.customerCodes"]);
      expect(issuePaths(await post({ customerCodes: missingCodes(1001) }))).toEqual([
        "body.customerCodes",
      ]);
      expect(issuePaths(await post({ customerCodes: ["bad code"] }))).toEqual([
        "body.customerCodes.0",
      ]);
      expect(issuePaths(await post({}))).toEqual(["body.customerCodes"]);
      expect(issuePaths(await post({ customerCodes: ["A"], extra: 1 }))).toEqual(["body.extra"]);

      const missing = await api("POST", `/v1/api/channel/NOPE-CH/${suffix}`, {
        body: { customerCodes: ["X"] },
      });
      expect(expectProblem(missing, 404, "NOT_FOUND").detail).toBe("channel NOPE-CH not found");
      expectProblem(
        await api("POST", path, { key: null, body: { customerCodes: ["X"] } }),
        401,
        "UNAUTHORIZED",
      );
      expectProblem(
        await api("POST", path, { key: KEYS.read, body: { customerCodes: ["X"] } }),
        403,
        "FORBIDDEN",
      );
    }
  });
});

describe("channel pricelist assignment (seed endpoint 14)", () => {
  it("assigns a GENERAL pricelist (also DRAFT), idempotently, without marking it primary", async () => {
    const ch = await createChannel();
    const pl = await createGeneral({ status: "DRAFT" });
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
    const pl = await createGeneral();
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
    const individual = await createIndividual(customer.code);
    const archived = await createGeneral();
    await archive(archived.id);
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
    const pl = await createGeneral({ priority: 5 });
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
    const [a, b] = [await createGeneral(), await createGeneral({ status: "DRAFT" })];
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
    const pl = await createGeneral();
    await api("POST", `/v1/api/channel/${ch.code}/pricelist`, { body: { pricelistId: pl.id } });
    const res = await api("PUT", primary(ch.code), { body: { pricelistId: pl.id } });
    expect(res.status).toBe(200);
    expect(await channelPricelists(ch.code)).toEqual([{ id: pl.id, primary: true }]);
  });

  it("refuses INDIVIDUAL and ARCHIVED pricelists (409) and unknown records (404), keeping the primary", async () => {
    const ch = await createChannel();
    const current = await createGeneral();
    await api("PUT", primary(ch.code), { body: { pricelistId: current.id } });
    const individual = await createIndividual((await createCustomer()).code);
    const archived = await createGeneral();
    await archive(archived.id);

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
    const pl = await createGeneral();
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
