import { describe, expect, it } from "vitest";
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
