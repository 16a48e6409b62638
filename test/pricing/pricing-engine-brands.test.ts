import { describe, expect, it } from "vitest";
import { resolvePrices, type ProductFacts, type TradeConditionCandidate } from "../../src/pricing";
import { WORKED_EXAMPLE_I as I } from "../../scripts/lib/worked-examples.mjs";
import { condition, pricelist, request } from "../shared/pricing-engine-factories";

/**
 * Brands in the engine (docs/pricing-rules.md §31): worked example I exactly, from its data and
 * figures in scripts/lib/worked-examples.mjs (which test/resources/brands.test.ts writes through
 * the API and the demo data holds): a product reached through its brand sits on the group rung
 * after every group, explain shows it at distance 9, and a record listing the product reaches it
 * on the listed rung.
 */

const TC_B = 1;
const TC_G = 2;
const { brand, group } = I.tradeConditions;
const { plain, brandPriority, brandListsPA } = I.variants;

const products = new Map<string, ProductFacts>(
  I.products.map((p) => [
    p.code,
    {
      groupPath: p.productGroupCode ? [p.productGroupCode] : [],
      brandCode: p.brandCode,
      minOrderQuantity: 1,
      orderIncrement: 1,
      maxOrderQuantity: null,
    },
  ]),
);

/**
 * Example I's lines, P-A and P-C × 1, with TC-B changed by `brandExtra`; `reversed`: the lines
 * and the conditions in the other order.
 */
function priced(brandExtra: Partial<TradeConditionCandidate> = {}, reversed = false) {
  const { label: _b, ...brandFields } = brand;
  const { label: _g, ...groupFields } = group;
  const order = <T>(items: T[]) => (reversed ? [...items].reverse() : items);
  const answer = resolvePrices(
    request({
      channel: { code: I.channelCode },
      customer: null,
      groupCodes: [],
      products,
      explain: true,
      pricelists: [
        pricelist(
          1,
          ["CHANNEL_PRIMARY"],
          Object.fromEntries(I.products.map((p) => [p.code, [[1, I.amount]]])),
        ),
      ],
      tradeConditions: order([
        condition(TC_B, { ...brandFields, name: brand.label, ...brandExtra }),
        condition(TC_G, { ...groupFields, name: group.label }),
      ]),
      lines: order(I.products.map((p) => ({ productCode: p.code, quantity: 1 }))),
    }),
  );
  const lineOf = (code: string) => answer.lines.find((l) => l.productCode === code)!;
  const entry = (code: string, id: number) =>
    lineOf(code).explain!.tradeConditions.find((e) => e.id === id);
  return {
    amounts: Object.fromEntries(answer.lines.map((l) => [l.productCode, l.finalUnitAmount])),
    onPA: (id: number) => entry(I.products[0]!.code, id),
    onPC: (id: number) => entry(I.products[1]!.code, id),
  };
}

describe("worked example I (docs/pricing-rules.md §31)", () => {
  it("P-A: TC-G (distance 0) before TC-B (distance 9) on rung 11 → 900; P-C: TC-B → 700", () => {
    const answer = priced();
    expect(answer.amounts).toEqual(plain.finalUnitAmounts);
    expect(answer.onPA(TC_G)).toMatchObject(plain.onPA.group);
    expect(answer.onPA(TC_B)).toMatchObject(plain.onPA.brand);
    expect(answer.onPC(TC_B)).toMatchObject(plain.onPC.brand);
  });

  it("TC-B with priority 10: the distance decides first, P-A still 900", () => {
    const answer = priced({ priority: brandPriority.priority });
    expect(answer.amounts).toEqual(brandPriority.finalUnitAmounts);
  });

  it("TC-B also listing P-A: rung 10 (listed) on P-A → 700, P-C still through the brand", () => {
    const answer = priced({ productCodes: brandListsPA.productCodes });
    expect(answer.amounts).toEqual(brandListsPA.finalUnitAmounts);
    expect(answer.onPA(TC_B)).toMatchObject(brandListsPA.onPA.brand);
    expect(answer.onPC(TC_B)).toMatchObject(plain.onPC.brand);
  });

  it("is the same answer in any order of the conditions and the lines", () => {
    const a = priced();
    const b = priced({}, true);
    expect(b.amounts).toEqual(a.amounts);
    expect(b.onPA(TC_B)).toEqual(a.onPA(TC_B));
    expect(b.onPC(TC_B)).toEqual(a.onPC(TC_B));
  });
});
