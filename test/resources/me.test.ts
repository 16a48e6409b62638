import { describe, expect, it } from "vitest";
import { api, expectProblem, KEYS } from "../shared/helpers";

/** GET /v1/api/me (docs/api/access.md §6): the asking key's name and role, for either role. */
describe("GET /v1/api/me", () => {
  it("answers a read key its name and role", async () => {
    const res = await api("GET", "/v1/api/me", { key: KEYS.read });
    expect(res.status).toBe(200);
    const name = expect.stringMatching(/^read-[0-9a-f]{8}$/);
    // A `role:sha256hex` entry is its own owner.
    expect(res.body).toEqual({ name, owner: res.body.name, role: "read" });
  });

  it("answers an admin key its name and role", async () => {
    const res = await api("GET", "/v1/api/me");
    expect(res.status).toBe(200);
    const name = expect.stringMatching(/^admin-[0-9a-f]{8}$/);
    expect(res.body).toEqual({ name, owner: res.body.name, role: "admin" });
  });

  it("answers a rotated key's owner: the same for both of alice's keys", async () => {
    const keys = ["test-alice-key-2026", "test-alice-key-2027"];
    const answers = await Promise.all(keys.map((key) => api("GET", "/v1/api/me", { key })));
    expect(answers.map((res) => res.body)).toEqual([
      { name: "alice-2026", owner: "alice", role: "admin" },
      { name: "alice-2027", owner: "alice", role: "admin" },
    ]);
  });

  it("refuses a missing or unknown key with 401", async () => {
    expectProblem(await api("GET", "/v1/api/me", { key: null }), 401, "UNAUTHORIZED");
    expectProblem(await api("GET", "/v1/api/me", { key: "nobody" }), 401, "UNAUTHORIZED");
  });
});
