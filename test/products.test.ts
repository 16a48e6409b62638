import { describe, expect, it } from "vitest";
import { api, created, createProduct, expectProblem, issuePaths, KEYS, uid } from "./helpers";

describe("products", () => {
  it("creates, reads, updates and deletes a product", async () => {
    const code = uid("P");
    const res = await api("POST", "/v1/api/product", { body: { code, name: "Hex bolt" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ code, name: "Hex bolt" });
    expect(res.body.id).toBeTypeOf("number");
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const read = await api("GET", `/v1/api/product/${code}`, { key: KEYS.read });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);

    const updated = await api("PATCH", `/v1/api/product/${code}`, {
      body: { name: "Hex bolt M8" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: res.body.id, code, name: "Hex bolt M8" });

    expect((await api("DELETE", `/v1/api/product/${code}`)).status).toBe(204);
    expectProblem(await api("GET", `/v1/api/product/${code}`), 404, "NOT_FOUND");
  });

  it("refuses to delete a product while a pricelist has a price for it (409)", async () => {
    const p = await createProduct();
    const pl = await created("/v1/api/pricelist", { name: "Prices", currency: "EUR" });
    const put = await api("PUT", `/v1/api/pricelist/${pl.id}/prices`, {
      body: { prices: [{ productCode: p.code, amount: 100 }] },
    });
    expect(put.status).toBe(200);
    const res = await api("DELETE", `/v1/api/product/${p.code}`);
    expect(expectProblem(res, 409, "CONFLICT").detail).toBe(
      `product ${p.code} still has prices or is named by a trade condition or promotion`,
    );
    expect((await api("GET", `/v1/api/product/${p.code}`)).body).toEqual(p);

    // Once its prices are gone, the product can go.
    await api("POST", `/v1/api/pricelist/${pl.id}/prices/delete`, {
      body: { productCodes: [p.code] },
    });
    expect((await api("DELETE", `/v1/api/product/${p.code}`)).status).toBe(204);
  });

  it("refuses a duplicate code with 409 naming it", async () => {
    const p = await createProduct();
    const res = await api("POST", "/v1/api/product", { body: { code: p.code, name: "Again" } });
    expect(expectProblem(res, 409, "CONFLICT").detail).toContain(p.code);
    const other = await createProduct();
    const rename = await api("PATCH", `/v1/api/product/${other.code}`, { body: { code: p.code } });
    expectProblem(rename, 409, "CONFLICT");
  });

  it("validates bodies and path parameters, naming every field", async () => {
    const res = await api("POST", "/v1/api/product", {
      body: { code: "bad code!", name: 5, extra: 1 },
    });
    expect(issuePaths(res).sort()).toEqual(["body.code", "body.extra", "body.name"]);
    expect(issuePaths(await api("GET", "/v1/api/product/" + "x".repeat(65)))).toEqual([
      "path.code",
    ]);
    expectProblem(
      await api("PATCH", "/v1/api/product/NOPE-404", { body: { name: "x" } }),
      404,
      "NOT_FOUND",
    );
    expectProblem(await api("DELETE", "/v1/api/product/NOPE-404"), 404, "NOT_FOUND");
  });

  it("lists with select, search by code and paging", async () => {
    const tag = uid("LST");
    for (let i = 0; i < 3; i++) await createProduct({ code: `${tag}-${i}`, name: `Item ${i}` });
    const res = await api(
      "GET",
      `/v1/api/product?search=${tag.toLowerCase()}&select=code&limit=2&sortBy=id:asc`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: expect.any(Number), code: `${tag}-0` },
      { id: expect.any(Number), code: `${tag}-1` },
    ]);
    expect(res.body.meta).toEqual({
      itemsPerPage: 2,
      totalItems: 3,
      currentPage: 1,
      totalPages: 2,
      sortBy: [["id", "ASC"]],
      search: tag.toLowerCase(),
      searchBy: ["code"],
      select: ["code"],
    });
    expect(res.body.links.next).toBe(
      `http://pricing.test/v1/api/product?page=2&limit=2&sortBy=id:ASC&search=${tag.toLowerCase()}&select=code`,
    );
    expect(issuePaths(await api("GET", "/v1/api/product?select=price"))).toEqual(["query.select"]);
    expect(issuePaths(await api("GET", "/v1/api/product?sortBy=name:ASC"))).toEqual([
      "query.sortBy",
    ]);
  });
});
