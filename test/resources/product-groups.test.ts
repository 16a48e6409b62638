import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb, DbMeter } from "../../src/db/client";
import {
  insertProductGroup,
  writeProductGroup,
} from "../../src/resources/product-groups/product-groups.repo";
import {
  createProduct,
  createProductGroup,
  createPromotion,
  createTradeCondition,
} from "../factories";
import { api, expectProblem, issuePaths, KEYS, uid } from "../shared/helpers";

/** A chain of groups, each the parent of the next: `chain(3)` → [root, child, grandchild]. */
async function chain(levels: number, tag = uid("CH")) {
  const groups: any[] = [];
  for (let i = 0; i < levels; i++) {
    groups.push(
      await createProductGroup({ code: `${tag}-${i}`, parentCode: groups.at(-1)?.code ?? null }),
    );
  }
  return groups;
}

const patch = (code: string, body: unknown) =>
  api("PATCH", `/v1/api/product-group/${code}`, { body });

describe("product groups", () => {
  it("creates, reads, updates and deletes a group", async () => {
    const code = uid("PG");
    const res = await api("POST", "/v1/api/product-group", { body: { code, name: "Fasteners" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      code,
      name: "Fasteners",
      parentCode: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });

    const child = await createProductGroup({ name: "Screws", parentCode: code });
    expect(child.parentCode).toBe(code);

    const read = await api("GET", `/v1/api/product-group/${child.code}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(child);

    // Renaming the parent shows in the child: parentCode is read, not stored.
    const renamed = uid("PG");
    const moved = await patch(code, { code: renamed, name: "All fasteners" });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: res.body.id, code: renamed, name: "All fasteners" });
    expect((await api("GET", `/v1/api/product-group/${child.code}`)).body.parentCode).toBe(renamed);

    // null makes it a root.
    const root = await patch(child.code, { parentCode: null });
    expect(root.body).toMatchObject({ code: child.code, parentCode: null });

    expect((await api("DELETE", `/v1/api/product-group/${child.code}`)).status).toBe(204);
    expectProblem(await api("GET", `/v1/api/product-group/${child.code}`), 404, "NOT_FOUND");
    expect((await api("DELETE", `/v1/api/product-group/${renamed}`)).status).toBe(204);
  });

  it("refuses a taken code (409 naming it) and an unknown parent (400 naming parentCode)", async () => {
    const g = await createProductGroup();
    const dup = await api("POST", "/v1/api/product-group", { body: { code: g.code, name: "x" } });
    expect(expectProblem(dup, 409, "CONFLICT").detail).toBe(
      `product group code ${g.code} already exists`,
    );
    const other = await createProductGroup();
    expectProblem(await patch(other.code, { code: g.code }), 409, "CONFLICT");

    const unknown = await api("POST", "/v1/api/product-group", {
      body: { code: uid("PG"), name: "x", parentCode: "NO-SUCH-GROUP" },
    });
    expect(expectProblem(unknown, 400, "VALIDATION_FAILED").errors).toEqual([
      { path: "body.parentCode", message: "unknown product group NO-SUCH-GROUP" },
    ]);
    const moved = await patch(other.code, { parentCode: "NO-SUCH-GROUP" });
    expect(issuePaths(moved)).toEqual(["body.parentCode"]);
    // Nothing was written.
    expect((await api("GET", `/v1/api/product-group/${other.code}`)).body).toEqual(other);
  });

  it("validates bodies and path parameters, naming every field", async () => {
    const res = await api("POST", "/v1/api/product-group", {
      body: { code: "bad code!", name: "", parentCode: 5, extra: 1 },
    });
    expect(issuePaths(res).sort()).toEqual([
      "body.code",
      "body.extra",
      "body.name",
      "body.parentCode",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/product-group/" + "x".repeat(65)))).toEqual([
      "path.code",
    ]);
    expectProblem(await patch("NOPE-404", { name: "x" }), 404, "NOT_FOUND");
    expectProblem(await api("DELETE", "/v1/api/product-group/NOPE-404"), 404, "NOT_FOUND");
  });

  it("refuses a parent that would make a cycle, naming the chain", async () => {
    const [a, b, c] = await chain(3);
    const self = await patch(a.code, { parentCode: a.code });
    expect(expectProblem(self, 409, "CONFLICT").detail).toBe(
      `product group ${a.code} cannot have parent ${a.code}: that makes a cycle ` +
        `${a.code} → ${a.code} (each group → its parent)`,
    );
    const loop = await patch(a.code, { parentCode: c.code });
    expect(expectProblem(loop, 409, "CONFLICT").detail).toBe(
      `product group ${a.code} cannot have parent ${c.code}: that makes a cycle ` +
        `${a.code} → ${c.code} → ${b.code} → ${a.code} (each group → its parent)`,
    );
    expect((await api("GET", `/v1/api/product-group/${a.code}`)).body.parentCode).toBeNull();
  });

  it("allows 8 levels and refuses a 9th, counting the ancestors and the deepest descendants", async () => {
    const groups = await chain(8);
    expect(groups.at(-1).parentCode).toBe(groups[6].code);
    const ninth = await api("POST", "/v1/api/product-group", {
      body: { code: uid("PG"), name: "Too deep", parentCode: groups[7].code },
    });
    const codes = groups.map((g) => g.code).reverse();
    expect(expectProblem(ninth, 409, "CONFLICT").detail).toMatch(
      /^product group PG-\w+ under \S+ makes a branch of 9 levels, more than the 8 allowed: /,
    );
    expect(ninth.body.detail).toContain(`${codes.join(" → ")} (each group → its parent)`);

    // Moving a subtree of 3 levels under a group at level 6 makes 9: refused, naming the branch
    // from the deepest descendant up to the root.
    const sub = await chain(3);
    const move = await patch(sub[0].code, { parentCode: groups[5].code });
    const branch = [...sub.map((g) => g.code).reverse(), ...codes.slice(2)];
    expect(expectProblem(move, 409, "CONFLICT").detail).toBe(
      `product group ${sub[0].code} under ${groups[5].code} makes a branch of 9 levels, more ` +
        `than the 8 allowed: ${branch.join(" → ")} (each group → its parent)`,
    );
    // Under level 5 it fits exactly: 5 + 3 = 8.
    const fits = await patch(sub[0].code, { parentCode: groups[4].code });
    expect(fits.status).toBe(200);
    expect(fits.body.parentCode).toBe(groups[4].code);
  });

  it("re-checks the rule inside the write, so a move that raced past the read writes nothing", async () => {
    // The service judged against data that has changed since: the repository's guarded writes
    // see the table as it is and refuse (undefined), and the service judges again.
    const db = createDb(env.DB as never, new DbMeter());
    const [a, , c] = await chain(3);
    expect(await writeProductGroup(db, a.id, { parentId: c.id }, 8)).toBeUndefined();
    expect(await writeProductGroup(db, a.id, { parentId: a.id }, 8)).toBeUndefined();
    expect((await api("GET", `/v1/api/product-group/${a.code}`)).body.parentCode).toBeNull();
    // c is at level 3: a new group under it makes 4 levels, over a limit of 3.
    const code = uid("PG");
    expect(await insertProductGroup(db, { code, name: "x", parentId: c.id }, 3)).toBeUndefined();
    expectProblem(await api("GET", `/v1/api/product-group/${code}`), 404, "NOT_FOUND");
    const fits = await insertProductGroup(db, { code, name: "x", parentId: c.id }, 4);
    expect(fits).toMatchObject({ code, parentCode: c.code });
  });

  it("lists with search, sort and filter.parentCode ($eq, $null)", async () => {
    const tag = uid("LG");
    const root = await createProductGroup({ code: `${tag}-R`, name: "Root" });
    const b = await createProductGroup({ code: `${tag}-B`, name: "Beta", parentCode: root.code });
    const a = await createProductGroup({ code: `${tag}-A`, name: "Alpha", parentCode: root.code });
    await createProductGroup({ code: `${tag}-X`, name: "Grandchild", parentCode: a.code });

    const children = await api(
      "GET",
      `/v1/api/product-group?filter.parentCode=${root.code}&sortBy=name:ASC`,
      { key: KEYS.read },
    );
    expect(children.status).toBe(200);
    expect(children.body.data).toEqual([a, b]);
    expect(children.body.meta.totalItems).toBe(2);

    const roots = await api(
      "GET",
      `/v1/api/product-group?filter.parentCode=$null&search=${tag}&sortBy=code:ASC`,
    );
    expect(roots.body.data.map((g: any) => g.code)).toEqual([root.code]);

    const searched = await api("GET", `/v1/api/product-group?search=${tag}-&sortBy=code:DESC`);
    expect(searched.body.data.map((g: any) => g.code)).toEqual([
      `${tag}-X`,
      `${tag}-R`,
      `${tag}-B`,
      `${tag}-A`,
    ]);
    expect(issuePaths(await api("GET", "/v1/api/product-group?filter.parentCode=$gt:A"))).toEqual([
      "query.filter.parentCode",
    ]);
    expect(issuePaths(await api("GET", "/v1/api/product-group?filter.name=x"))).toEqual([
      "query.filter.name",
    ]);
  });

  it("refuses to delete a group with a child group, naming it", async () => {
    const [parent, child] = await chain(2);
    const res = await api("DELETE", `/v1/api/product-group/${parent.code}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `product group ${parent.code} is still named by 1 child group (${child.code}); ` +
        "remove it from them first",
    );
  });

  it("names every kind of blocker with its count, and deletes once they let go", async () => {
    const [group, child] = await chain(2);
    const product = await createProduct({ productGroupCode: group.code });
    const [tc1, tc2] = [
      await createTradeCondition({ productGroupCodes: [group.code] }),
      await createTradeCondition({ productGroupCodes: [group.code] }),
    ];
    const pr = await createPromotion({ productGroupCodes: [group.code] });
    const res = await api("DELETE", `/v1/api/product-group/${group.code}`);
    expect(expectProblem(res, 409, "IN_USE").detail).toBe(
      `product group ${group.code} is still named by 1 product (${product.code}), ` +
        `1 child group (${child.code}), 2 trade conditions (${tc1.id}, ${tc2.id}) and ` +
        `1 promotion (${pr.id}); remove it from them first`,
    );
    await api("PATCH", `/v1/api/product/${product.code}`, { body: { productGroupCode: null } });
    await patch(child.code, { parentCode: null });
    for (const tc of [tc1, tc2]) {
      await api("PATCH", `/v1/api/trade-conditions/${tc.id}`, { body: { productGroupCodes: [] } });
    }
    await api("PATCH", `/v1/api/promotion/${pr.id}`, { body: { productGroupCodes: [] } });
    expect((await api("DELETE", `/v1/api/product-group/${group.code}`)).status).toBe(204);
  });

  it("replays a create retried with the same Idempotency-Key", async () => {
    const body = { code: uid("PG"), name: "Once" };
    const headers = { "Idempotency-Key": uid("key") };
    const first = await api("POST", "/v1/api/product-group", { body, headers });
    expect(first.status).toBe(201);
    const again = await api("POST", "/v1/api/product-group", { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
  });

  it("needs an admin key to write and any key to read", async () => {
    const g = await createProductGroup();
    expectProblem(
      await api("GET", `/v1/api/product-group/${g.code}`, { key: null }),
      401,
      "UNAUTHORIZED",
    );
    expectProblem(
      await api("POST", "/v1/api/product-group", {
        key: KEYS.read,
        body: { code: uid("PG"), name: "x" },
      }),
      403,
      "FORBIDDEN",
    );
    expectProblem(
      await api("DELETE", `/v1/api/product-group/${g.code}`, { key: KEYS.read }),
      403,
      "FORBIDDEN",
    );
  });
});
