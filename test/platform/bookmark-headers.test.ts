import { describe, expect, it } from "vitest";
import { api, KEYS, SALES_KEYS, uid } from "../shared/helpers";

/**
 * Every answer carries `x-d1-bookmark` (docs/api/access.md §10), refusals included: a 400 that read
 * D1 on the way, a 400 of the schema, a 403 of the key's role, a 404 and a 409, as the successes do,
 * so a client keeps its session whatever the answer.
 */
describe("x-d1-bookmark on every answer (docs/api/access.md §10)", () => {
  it("a success and each kind of refusal carry it", async () => {
    const code = uid("CH");
    const answers = {
      created: await api("POST", "/v1/api/channel", { body: { code, name: "Channel" } }),
      conflict: await api("POST", "/v1/api/channel", { body: { code, name: "Channel" } }),
      notFound: await api("GET", `/v1/api/channel/${uid("NONE")}`),
      unknownRef: await api("POST", "/v1/api/product", {
        body: { code: uid("P"), name: "P", productGroupCode: uid("NO-GROUP") },
      }),
      schema: await api("POST", "/v1/api/channel", { body: { code: "", name: "Channel" } }),
      query: await api("GET", "/v1/api/changes?after=x"),
      // Refusals of a key's role, answered before any route reads D1.
      readWrites: await api("PATCH", `/v1/api/channel/${code}`, {
        key: KEYS.read,
        body: { name: "x" },
      }),
      readAudit: await api("GET", "/v1/api/audit?limit=1", { key: KEYS.read }),
      salesChangeRequests: await api("GET", "/v1/api/change-requests", {
        key: SALES_KEYS["rep-1"],
      }),
    };
    const statuses = Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status]));
    expect(statuses).toEqual({
      created: 201,
      conflict: 409,
      notFound: 404,
      unknownRef: 400,
      schema: 400,
      query: 400,
      readWrites: 403,
      readAudit: 403,
      salesChangeRequests: 403,
    });
    const missing = Object.entries(answers)
      .filter(([, r]) => !r.headers.get("x-d1-bookmark"))
      .map(([k]) => k);
    expect(missing).toEqual([]);
  });

  it("a refusal without a D1 query answers the bookmark the client sent", async () => {
    const first = await api("POST", "/v1/api/channel", {
      body: { code: uid("CH"), name: "Channel" },
    });
    const bookmark = first.headers.get("x-d1-bookmark")!;
    expect(bookmark).toBeTruthy();
    const refused = await api("POST", "/v1/api/channel", {
      body: { code: "", name: "Channel" },
      headers: { "x-d1-bookmark": bookmark },
    });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-d1-bookmark")).toBe(bookmark);
  });
});
