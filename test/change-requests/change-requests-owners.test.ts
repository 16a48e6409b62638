import { describe, expect, it } from "vitest";
import { createPricelist, createProduct } from "../factories";
import { api, expectProblem, KEYS } from "../shared/helpers";

/**
 * Four eyes compare owners, not keys (docs/api/access.md §6, docs/api/change-requests.md §17.2):
 * the keys of vitest.config.ts `alice:alice-2026:admin` and `alice:alice-2027:admin` are one
 * person's old and rotated key, `bob:bob-laptop:admin` another's.
 */

const ALICE_2026 = "test-alice-key-2026";
const ALICE_2027 = "test-alice-key-2027";
const BOB = "test-bob-key";

const base = "/v1/api/change-requests";

async function pendingRequest(key: string) {
  const list = (await createPricelist({ status: "ACTIVE" })).id as number;
  const product = (await createProduct()).code as string;
  const created = await api("POST", base, {
    key,
    body: {
      title: "rotation",
      effectiveAt: "2027-01-01T00:00:00Z",
      items: [
        { kind: "SET_PRICES", pricelistId: list, rows: [{ productCode: product, amount: 100 }] },
      ],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const submitted = await api("POST", `${base}/${created.body.id}/submit`, { key });
  expect(submitted.body).toMatchObject({ status: "PENDING_APPROVAL" });
  return created.body;
}

describe("API_KEYS in the owner form", () => {
  it("parses owner:name:role:sha256 beside the older forms; skips reserved owners", async () => {
    const { parseApiKeys } = await import("../../src/http/auth");
    const hex = "c".repeat(64);
    const keys = parseApiKeys(
      `alice:alice-2027:admin:${hex},erp-sync:admin:${hex},read:${hex},a:b:c:admin:${hex},` +
        `policy:admin:${hex},scheduled:s-1:admin:${hex}`,
    );
    expect(keys.map(({ name, owner, role }) => ({ name, owner, role }))).toEqual([
      { name: "alice-2027", owner: "alice", role: "admin" },
      { name: "erp-sync", owner: "erp-sync", role: "admin" },
      { name: "read-cccccccc", owner: "read-cccccccc", role: "read" },
    ]);
  });

  it("the author is the key's owner; the audit trail keeps the key's name", async () => {
    const request = await pendingRequest(ALICE_2026);
    expect(request).toMatchObject({ author: "alice", writers: ["alice"] });
    const trail = await api(
      "GET",
      `/v1/api/audit?filter.entity=changeRequest&filter.entityId=${request.id}`,
    );
    const insert = trail.body.data.find((entry: any) => entry.action === "INSERT");
    expect(insert).toMatchObject({ keyName: "alice-2026", after: { author: "alice" } });
  });
});

describe("SELF_APPROVAL compares owners", () => {
  it("a rotated key of the author cannot approve; another owner's key can", async () => {
    const request = await pendingRequest(ALICE_2026);

    const asRotated = await api("GET", `${base}/${request.id}`, { key: ALICE_2027 });
    expect(asRotated.body).toMatchObject({ author: "alice", writtenByCaller: true });
    const rotated = await api("POST", `${base}/${request.id}/approve`, { key: ALICE_2027 });
    expect(expectProblem(rotated, 403, "SELF_APPROVAL").detail).toBe(
      `change request ${request.id} was written by alice; an admin key of another owner must approve it`,
    );

    const asBob = await api("GET", `${base}/${request.id}`, { key: BOB });
    expect(asBob.body).toMatchObject({ writtenByCaller: false });
    const approved = await api("POST", `${base}/${request.id}/approve`, { key: BOB });
    expect(approved.body).toMatchObject({ status: "APPLIED", author: "alice", approvedBy: "bob" });
  });

  it("a key of the owner of an editor cannot approve; rejects name the owner", async () => {
    const request = await pendingRequest(ALICE_2026);
    // Bob edits a DRAFT of alice's: neither of them may approve it.
    const draft = await api("POST", base, {
      key: ALICE_2027,
      body: { title: "edited", items: request.items },
    });
    const edited = await api("PATCH", `${base}/${draft.body.id}`, {
      key: BOB,
      body: { title: "edited by bob" },
    });
    expect(edited.body).toMatchObject({ author: "alice", writers: ["alice", "bob"] });
    await api("POST", `${base}/${draft.body.id}/submit`, { key: BOB });
    for (const key of [ALICE_2026, BOB]) {
      const res = await api("POST", `${base}/${draft.body.id}/approve`, { key });
      expectProblem(res, 403, "SELF_APPROVAL");
    }
    const rejected = await api("POST", `${base}/${request.id}/reject`, {
      key: BOB,
      body: { reason: "not now" },
    });
    expect(rejected.body).toMatchObject({ status: "REJECTED", rejectedBy: "bob" });
  });

  it("a key without an owner is its own owner, named role-<first 8 hex>", async () => {
    const request = await pendingRequest(KEYS.admin);
    expect(request.author).toMatch(/^admin-[0-9a-f]{8}$/);
    const approved = await api("POST", `${base}/${request.id}/approve`, { key: ALICE_2027 });
    expect(approved.body).toMatchObject({ status: "APPLIED", approvedBy: "alice" });
  });
});
