import { describe, expect, it } from "vitest";
import { api, expectProblem, KEYS } from "./helpers";

/** GET /v1/api/me (docs/api.md §6): the asking key's name and role, for either role. */
describe("GET /v1/api/me", () => {
  it("answers a read key its name and role", async () => {
    const res = await api("GET", "/v1/api/me", { key: KEYS.read });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: expect.stringMatching(/^read-[0-9a-f]{8}$/), role: "read" });
  });

  it("answers an admin key its name and role", async () => {
    const res = await api("GET", "/v1/api/me");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: expect.stringMatching(/^admin-[0-9a-f]{8}$/), role: "admin" });
  });

  it("refuses a missing or unknown key with 401", async () => {
    expectProblem(await api("GET", "/v1/api/me", { key: null }), 401, "UNAUTHORIZED");
    expectProblem(await api("GET", "/v1/api/me", { key: "nobody" }), 401, "UNAUTHORIZED");
  });
});
