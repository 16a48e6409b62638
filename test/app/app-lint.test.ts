import { describe, expect, it } from "vitest";
import {
  countsBySeverity,
  type Finding,
  groupFindings,
  lintQueryOf,
  noFilters,
  unfiltered,
} from "../../app/src/lint/groups";
import { parseInstant, formatInstant } from "../../app/src/lib/instant";
import { ADMIN_ONLY, mayUse, pagesFor, sectionOf } from "../../app/src/ui/roles";

/**
 * The back office's pure logic (docs/app.md): the lint page's filters and groups (§1), the
 * instants typed as ISO 8601 in UTC (§3), and what a read key is offered (§6).
 */

const cliff = (pricelist: number, product: string): Finding => ({
  code: "TIER_CLIFF",
  severity: "WARNING",
  message: `pricelist ${pricelist} … ${product}`,
  records: [
    { kind: "pricelist", id: pricelist },
    { kind: "product", code: product },
  ],
});
const noPrimary: Finding = {
  code: "CHANNEL_WITHOUT_PRIMARY",
  severity: "ERROR",
  message: "channel X has no primary pricelist",
  records: [{ kind: "channel", code: "X" }],
};

describe("the lint page's groups and filters", () => {
  it("groups by code and pricelist in the API's order, with the findings of each", () => {
    const groups = groupFindings([
      noPrimary,
      cliff(100, "P-1"),
      cliff(8, "P-2"),
      cliff(100, "P-3"),
    ]);
    expect(groups.map((g) => [g.code, g.severity, g.pricelistId, g.findings.length])).toEqual([
      ["CHANNEL_WITHOUT_PRIMARY", "ERROR", null, 1],
      ["TIER_CLIFF", "WARNING", 100, 2],
      ["TIER_CLIFF", "WARNING", 8, 1],
    ]);
    expect(groups[1]!.findings.map((f) => f.records[1]!.code)).toEqual(["P-1", "P-3"]);
    expect(groupFindings([])).toEqual([]);
  });

  it("counts by severity in the vocabulary's order", () => {
    expect(countsBySeverity([noPrimary, cliff(1, "P")], ["ERROR", "WARNING", "INFO"])).toEqual([
      { severity: "ERROR", count: 1 },
      { severity: "WARNING", count: 1 },
      { severity: "INFO", count: 0 },
    ]);
  });

  it("sends each filter the API's way, and refuses a pricelist that is not an id", () => {
    expect(lintQueryOf(noFilters)).toEqual({ query: {} });
    expect(unfiltered({ ...noFilters, productCode: " " })).toBe(true);
    expect(unfiltered({ ...noFilters, code: "TIER_CLIFF" })).toBe(false);
    expect(
      lintQueryOf({
        severity: "WARNING",
        code: "TIER_CLIFF",
        pricelistId: " 100 ",
        productCode: " P-1 ",
      }),
    ).toEqual({
      query: {
        "filter.severity": ["WARNING"],
        "filter.code": ["TIER_CLIFF"],
        "filter.pricelistId": ["100"],
        "filter.productCode": ["P-1"],
      },
    });
    expect(lintQueryOf({ ...noFilters, pricelistId: "x" })).toEqual({
      problem: "Pricelist: type a pricelist id, a whole number from 1.",
    });
  });
});

describe("instants typed as ISO 8601 in UTC, 24-hour", () => {
  it.each([
    ["2026-12-01 00:00", "2026-12-01T00:00:00Z"],
    ["2026-12-01T23:59", "2026-12-01T23:59:00Z"],
    [" 2025-06-15 10:00:30 ", "2025-06-15T10:00:30Z"],
    ["2026-12-01", "2026-12-01T00:00:00Z"],
  ])("reads %j as %s", (typed, iso) => {
    expect(parseInstant(typed)).toEqual({ ok: true, value: iso });
  });

  it("reads empty as the default and names what is not an instant", () => {
    expect(parseInstant("")).toEqual({ ok: true, value: undefined });
    expect(parseInstant("12/01/2026, 12:00 AM")).toEqual({
      ok: false,
      error: "type the date and time as YYYY-MM-DD HH:MM (24-hour, UTC), e.g. 2026-12-01 00:00",
    });
    expect(parseInstant("2026-02-30 10:00")).toEqual({
      ok: false,
      error: "2026-02-30 10:00 is not a date and time that exists",
    });
    expect(parseInstant("2026-12-01 24:00")).toMatchObject({ ok: false });
  });

  it("shows an instant the way it is typed", () => {
    expect(formatInstant(Date.parse("2026-12-01T00:00:00Z"))).toBe("2026-12-01 00:00");
    expect(formatInstant(Date.parse("2026-06-15T13:05:59Z"))).toBe("2026-06-15 13:05");
  });
});

describe("what each key's role is offered", () => {
  it("a read key: the explorer, the quotes and the records, not the admin-only pages, each with a reason", () => {
    const { shown, hidden } = pagesFor("read");
    expect(shown.map((p) => p.section)).toEqual(["explorer", "quotes"]);
    expect(hidden.map((p) => p.section)).toEqual(["simulation", "changes", "lint"]);
    for (const p of hidden) expect(ADMIN_ONLY[p.section]).toMatch(/admin keys only/);
    expect(mayUse("read", sectionOf({ page: "record" }))).toBe(true);
    expect(mayUse("read", sectionOf({ page: "change" }))).toBe(false);
    expect(mayUse("read", sectionOf({ page: "new-change" }))).toBe(false);
    expect(mayUse("read", sectionOf({ page: "quote" }))).toBe(true);
  });

  it("a sales key: what a read key is offered (docs/app.md §13)", () => {
    expect(pagesFor("sales")).toEqual(pagesFor("read"));
  });

  it("an admin key: every page", () => {
    expect(pagesFor("admin").hidden).toEqual([]);
    expect(pagesFor("admin").shown).toHaveLength(5);
  });
});
