/**
 * The demo data set, built deterministically (seeded PRNG, fixed instants) and rendered as one SQL
 * file for `wrangler d1 execute --file`.
 *
 * Five channels: WEB-DE (Webshop Germany, EUR), SHOP-CH (Webshop Switzerland, CHF), FIELD-SALES
 * (EUR), B2B-AT (the B2B example's) and WEB-BR (worked example I's); 308 products, 51 customers in
 * six groups WHOLESALE, INSTALLERS, RETAIL, NORTH, SOUTH and DEALER. Six parts share them:
 * - the catalogue business (this file): 297 products P-00001… in a tree of product groups
 *   (demo-groups.mjs: 7 roots, up to 4 levels, a few products unclassified; press fittings and
 *   cable ties sold in tens, copper pipes from 5 bars, power tools at most 20 per order),
 *   customers C-1002…C-1050, their pricelists 2–9, 11–19 (19: the INSTALLERS list), the derived
 *   WHOLESALE dealer list 21 (field sales list 3 − 10 %, prices ending in 9) and the FIELD-SALES
 *   FLOOR list 22, WEB-DE's COST list 23 (the catalogue at 62 % of its list price), trade
 *   conditions 7–28 (23–28 and the converted 7 and 15 on product groups, 25
 *   with an ORDER_QUANTITY and 26 with an ORDER_VALUE scale, 28 the DRAFT the publish simulation
 *   is shown with), promotions 1–6, 8 (a VALUE
 *   threshold) and 9 (a QUANTITY threshold), and the catalogue prices of WEB-DE's primary
 *   pricelist 100. Every window of theirs starts on or after 2026-01-01 (the archived 2025 list
 *   18 aside, which no channel, group or customer uses).
 * - the worked example of the pricing rules (docs/pricing-rules.md §10, demo-worked-example.mjs),
 *   with its exact codes and values: channel WEB-DE, customer C-1001 (groups WHOLESALE and NORTH),
 *   products P-A/P-B/P-C, pricelists 100, 101, 200, 210 and 900 (named "PL-100 …" and so on),
 *   trade conditions 1–6 ("TC-1 …") and promotion 7 ("PR-7 …"), valid in 2025; with worked
 *   example E (§26): the COST list 940, the FLOOR list 941 derived from it at cost + 10 % and the
 *   ACCRUAL 29 for C-1001 on P-B.
 * - the worked example with B2B terms (docs/pricing-rules.md §16, demo-b2b-example.mjs): channel
 *   B2B-AT, customer K-7 in group DEALER, product groups FAST › SCREWS › WOOD and TOOLS, products
 *   W-1/S-1/T-1/X-1, pricelists 10, 20 (derived) and 30 (FLOOR), trade conditions 41–45 and
 *   promotion 51, valid in 2025.
 * - money (docs/pricing-rules.md §19–§22, demo-money.mjs): wood screws P-00298 priced per 1,000
 *   pieces in list 100 (1,000+: 12.50, 5,000+: 9.00 a thousand: a tier cliff), and the CHF list
 *   120 of SHOP-CH derived from list 100 at the EUR → CHF rate (0.9365 from 2026-01-01, 0.941 from
 *   2026-07-01), + 5 %, 5 Rappen up.
 * - graduated tiers (docs/pricing-rules.md §29, demo-graduated.mjs): worked example G's tiers for
 *   the cable ties P-00299 in WEB-DE's GRADUATED list 130.
 * - brands (docs/pricing-rules.md §31, demo-brands.mjs): worked example I in channel WEB-BR, brand
 *   BOSCH, products P-BOSCH-A and P-BOSCH-C, list 131, trade conditions 46 and 47.
 * The examples' data and figures are written once in worked-examples.mjs, which the engine and API
 * tests read too.
 * checkApart (demo-apart.mjs) makes sure that nothing outside an example reaches its request
 * before 2026, so both examples give exactly their documented answers and validUntil.
 *
 * Ids are explicit so that the docs can name them; new records created through the API get
 * ids above the highest seeded one (AUTOINCREMENT). demo-sql.mjs checks the API's write rules
 * and turns the data into SQL.
 */
import { checkApart } from "./demo-apart.mjs";
import { addB2bExample, B2B_EXAMPLE } from "./demo-b2b-example.mjs";
import { addBrandsExample, BRANDS_APART } from "./demo-brands.mjs";
import { buildCatalogue } from "./demo-catalog.mjs";
import { CATALOGUE_GROUPS, groupOf, quantityRuleOf } from "./demo-groups.mjs";
import {
  instant,
  pricelist,
  productRecord,
  promotion,
  tradeCondition,
  Y2025,
  Y2026,
  Y2027,
} from "./demo-model.mjs";
import { addGraduatedExample } from "./demo-graduated.mjs";
import { addMoneyExample } from "./demo-money.mjs";
import { addWorkedExample, WORKED_EXAMPLE } from "./demo-worked-example.mjs";
import { createRandom } from "./random.mjs";

/** @typedef {import("./demo-model.mjs").Customer} Customer */
/** @typedef {import("./demo-model.mjs").DemoData} DemoData */
/** @typedef {import("./demo-model.mjs").Pricelist} Pricelist */
/** @typedef {import("./demo-model.mjs").PriceRow} PriceRow */
/** @typedef {import("./demo-model.mjs").Promotion} Promotion */
/** @typedef {import("./demo-model.mjs").TradeCondition} TradeCondition */
/** @typedef {import("./demo-catalog.mjs").Category} Category */
/** @typedef {import("./demo-catalog.mjs").Product} Product */

export const DEMO_SEED = 20260101;

/** CHF shelf price from the EUR list price: +8 %, up to whole 5 Rappen. */
const chf = (/** @type {number} */ eur) => Math.ceil((eur * 1.08) / 5) * 5;

/**
 * Prices of `products` at `factor` × base, plus quantity tiers (`[minQuantity, factor]`) for
 * consumables.
 * @param {readonly Product[]} products
 * @param {(product: Product) => number} base
 * @param {number} factor
 * @param {readonly (readonly [number, number])[]} [tiers]
 * @returns {PriceRow[]}
 */
function priced(products, base, factor, tiers = []) {
  return products.flatMap((product) => {
    const amount = (/** @type {number} */ f) => Math.round(base(product) * f);
    const rows = [{ productCode: product.code, minQuantity: 1, amount: amount(factor) }];
    if (product.consumable) {
      for (const [minQuantity, f] of tiers) {
        rows.push({ productCode: product.code, minQuantity, amount: amount(f) });
      }
    }
    return rows;
  });
}

const eurBase = (/** @type {Product} */ p) => p.listPrice;
const chfBase = (/** @type {Product} */ p) => chf(p.listPrice);
const GROUPS = [
  { code: "WHOLESALE", name: "Wholesale partners", description: "Resellers buying in bulk" },
  {
    code: "INSTALLERS",
    name: "Installers and trades",
    description: "Electricians, plumbers, fitters",
  },
  { code: "RETAIL", name: "Retail stores", description: "Hardware stores and DIY markets" },
  { code: "NORTH", name: "Region north", description: "Sales region north (DE)" },
  { code: "SOUTH", name: "Region south", description: "Sales region south (DE)" },
];

const TRADES = /** @type {const} */ ({
  WHOLESALE: [
    "Baustoffhandel",
    "Haustechnik-Großhandel",
    "Elektrogroßhandel",
    "Industriebedarf",
    "Befestigungstechnik",
  ],
  INSTALLERS: [
    "Elektrotechnik",
    "Sanitär und Heizung",
    "Haustechnik",
    "Gebäudetechnik",
    "Bau und Montage",
    "Elektroinstallation",
  ],
  RETAIL: ["Baumarkt", "Eisenwaren", "Werkzeughandel", "Heimwerkerbedarf"],
});
const DE_SURNAMES =
  "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Schröder Neumann Schwarz Braun Zimmermann Hartmann Krüger Lange Werner Krause Lehmann Köhler Peters".split(
    " ",
  );
const CH_SURNAMES = "Meier Keller Brunner Baumann Frei Gerber Moser Widmer Huber Steiner".split(
  " ",
);
const DE_FORMS = ["GmbH", "GmbH", "GmbH & Co. KG", "KG", "e.K.", "OHG"];
const CH_FORMS = ["AG", "GmbH"];

/**
 * @param {import("./random.mjs").Random} random
 * @returns {Customer[]} C-1002 … C-1050 (C-1001 belongs to the worked example)
 */
function buildCustomers(random) {
  /** @type {Customer[]} */
  const customers = [];
  const names = new Set();
  for (let n = 1002; n <= 1050; n++) {
    const swiss = n > 1040;
    const r = random.next();
    /** @type {keyof typeof TRADES} */
    const segment = r < 0.25 ? "WHOLESALE" : r < 0.7 ? "INSTALLERS" : "RETAIL";
    let name;
    do {
      name = `${random.pick(swiss ? CH_SURNAMES : DE_SURNAMES)} ${random.pick(TRADES[segment])} ${random.pick(swiss ? CH_FORMS : DE_FORMS)}`;
    } while (names.has(name));
    names.add(name);
    /** @type {string[]} */
    const groupCodes = [segment];
    /** @type {string[]} */
    let channelCodes = ["SHOP-CH"];
    if (!swiss) {
      const region = random.next();
      if (region < 0.35) groupCodes.push("NORTH");
      else if (region < 0.7) groupCodes.push("SOUTH");
      const c = random.next();
      channelCodes = c < 0.45 ? ["WEB-DE"] : c < 0.75 ? ["FIELD-SALES"] : ["WEB-DE", "FIELD-SALES"];
    }
    customers.push({ code: `C-${n}`, name, groupCodes, channelCodes });
  }
  return customers;
}

/** @returns {DemoData} */
export function buildDemoData() {
  const random = createRandom(DEMO_SEED);
  const catalogue = buildCatalogue(random);
  /** @param {...Category} categories */
  const inCategory = (...categories) => catalogue.filter((p) => categories.includes(p.category));
  const codes = (/** @type {readonly Product[]} */ products) => products.map((p) => p.code);
  /** @param {string} prefix */
  const named = (prefix) => catalogue.filter((p) => p.name.startsWith(prefix));
  const products = catalogue.map((p) => {
    const productGroupCode = groupOf(p);
    return productRecord({
      code: p.code,
      name: p.name,
      productGroupCode,
      ...quantityRuleOf(p, productGroupCode),
    });
  });
  /** @param {string} group */
  const inGroup = (group) => catalogue.filter((_, i) => products[i]?.productGroupCode === group);
  const customers = buildCustomers(random);

  // Each tier takes off less than one piece's worth at its first quantity (10+: 5 %, 50+: a
  // further 1.6 %), so buying fewer pieces never costs more (docs/pricing-lint.md §14): the
  // linter's TIER_CLIFF names the few cliffs the demo has on purpose or by rounding, not every
  // tiered product.
  const consumableTiers = /** @type {const} */ ([
    [10, 0.95],
    [50, 0.935],
  ]);

  /** The catalogue rows of WEB-DE's primary pricelist 100 (the worked example's PL-100). */
  const webListPrices = priced(catalogue, eurBase, 1, consumableTiers);

  /** @type {Pricelist[]} */
  const pricelists = [
    // What the catalogue costs Webshop Germany (docs/pricing-rules.md §23): 62 % of the list
    // price. Admin keys see each price's margin; the linter compares the channel's lists with it.
    pricelist({
      id: 23,
      name: "Webshop Germany cost 2026",
      kind: "COST",
      currency: "EUR",
      prices: priced(catalogue, eurBase, 0.62),
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
    pricelist({
      id: 2,
      name: "Webshop Switzerland list 2026",
      currency: "CHF",
      prices: priced(catalogue, chfBase, 1, consumableTiers),
      channels: [{ channelCode: "SHOP-CH", primary: true }],
    }),
    pricelist({
      id: 3,
      name: "Field sales list 2026",
      currency: "EUR",
      prices: priced(catalogue, eurBase, 0.97, [
        [20, 0.93],
        [100, 0.925],
      ]),
      channels: [{ channelCode: "FIELD-SALES", primary: true }],
    }),
    pricelist({
      id: 4,
      name: "Webshop Germany clearance 2026",
      currency: "EUR",
      priority: 5,
      validTo: Y2027,
      prices: priced(random.sample(catalogue, 25), eurBase, 0.8),
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
    pricelist({
      id: 5,
      name: "Webshop Germany list 2027 (draft)",
      status: "DRAFT",
      currency: "EUR",
      validFrom: Y2027,
      prices: priced(catalogue, eurBase, 1.03, [
        [10, 0.98],
        [50, 0.93],
      ]),
      channels: [{ channelCode: "WEB-DE", primary: false }],
    }),
    pricelist({
      id: 6,
      name: "Field sales project prices",
      currency: "EUR",
      priority: 5,
      prices: priced(
        random.sample(inCategory("cable", "pipe", "fitting", "tool"), 40),
        eurBase,
        0.9,
      ),
      channels: [{ channelCode: "FIELD-SALES", primary: false }],
    }),
    pricelist({
      id: 7,
      name: "Webshop Switzerland outlet",
      status: "INACTIVE",
      currency: "CHF",
      validTo: instant("2026-04-01T00:00:00.000Z"),
      prices: priced(random.sample(catalogue, 15), chfBase, 0.75),
      channels: [{ channelCode: "SHOP-CH", primary: false }],
    }),
    pricelist({
      id: 8,
      name: "Wholesale tiers EUR",
      currency: "EUR",
      priority: 10,
      prices: priced(
        random.sample(
          inCategory("fastener", "anchor", "cable", "cable-tie", "pipe", "fitting", "chemical"),
          150,
        ),
        eurBase,
        0.85,
        [
          [25, 0.82],
          [100, 0.815],
        ],
      ),
      groupCodes: ["WHOLESALE"],
    }),
    pricelist({
      id: 9,
      name: "Wholesale tiers CHF",
      currency: "CHF",
      priority: 10,
      prices: priced(
        random.sample(inCategory("fastener", "anchor", "cable-tie", "fitting"), 80),
        chfBase,
        0.85,
        [[25, 0.82]],
      ),
      groupCodes: ["WHOLESALE"],
    }),
    pricelist({
      id: 19,
      name: "Installer prices EUR",
      currency: "EUR",
      priority: 5,
      prices: priced(
        random.sample(
          inCategory("drill-bit", "abrasive", "cable", "conduit", "fitting", "tool", "glove"),
          120,
        ),
        eurBase,
        0.88,
        [
          [10, 0.84],
          [50, 0.825],
        ],
      ),
      groupCodes: ["INSTALLERS"],
    }),
    pricelist({
      id: 11,
      name: "Retail partner list",
      currency: "EUR",
      prices: priced(
        random.sample(inCategory("tool", "glove", "chemical", "anchor", "drill-bit"), 60),
        eurBase,
        0.92,
      ),
      groupCodes: ["RETAIL"],
    }),
    pricelist({
      id: 12,
      name: "Region south autumn list",
      status: "INACTIVE",
      currency: "EUR",
      validFrom: instant("2026-09-01T00:00:00.000Z"),
      validTo: instant("2026-12-01T00:00:00.000Z"),
      prices: priced(random.sample(catalogue, 30), eurBase, 0.9),
      groupCodes: ["SOUTH"],
    }),
    pricelist({
      id: 13,
      name: "Key account contract 2026",
      currency: "EUR",
      priority: 20,
      validTo: Y2027,
      prices: priced(random.sample(catalogue, 60), eurBase, 0.8, [[50, 0.785]]),
      customerCodes: ["C-1005", "C-1012", "C-1020"],
    }),
    pricelist({
      id: 14,
      name: "Individual prices C-1003",
      scope: "INDIVIDUAL",
      customerCode: "C-1003",
      currency: "EUR",
      prices: priced(random.sample(catalogue, 25), eurBase, 0.78),
    }),
    pricelist({
      id: 15,
      name: "Individual prices C-1012",
      scope: "INDIVIDUAL",
      customerCode: "C-1012",
      currency: "EUR",
      prices: priced(random.sample(inCategory("fastener", "anchor"), 15), eurBase, 0.8, [
        [100, 0.795],
      ]),
    }),
    pricelist({
      id: 16,
      name: "Individual prices C-1027 (in negotiation)",
      scope: "INDIVIDUAL",
      status: "DRAFT",
      customerCode: "C-1027",
      currency: "EUR",
      prices: priced(random.sample(catalogue, 20), eurBase, 0.82),
    }),
    pricelist({
      id: 17,
      name: "Individual prices C-1044",
      scope: "INDIVIDUAL",
      customerCode: "C-1044",
      currency: "CHF",
      prices: priced(random.sample(catalogue, 20), chfBase, 0.8),
    }),
    pricelist({
      id: 18,
      name: "Webshop Germany list 2025",
      status: "ARCHIVED",
      currency: "EUR",
      validFrom: Y2025,
      validTo: Y2026,
      prices: priced(catalogue, eurBase, 0.96),
    }),
    // Derived (docs/pricing-rules.md §3.7): every product of the field sales list 3, 10 % off and
    // moved to a price ending in 9, except four power tools at net dealer prices of its own.
    pricelist({
      id: 21,
      name: "Wholesale dealer list 2026 (field sales list − 10 %, prices ending in 9)",
      currency: "EUR",
      derivation: {
        basePricelistId: 3,
        adjustmentBp: -1000,
        rounding: { mode: "NEAREST", step: 10, ending: 9 },
      },
      prices: inGroup("POWER-TOOLS")
        .slice(0, 4)
        .map((p) => ({
          productCode: p.code,
          minQuantity: 1,
          amount: Math.round((p.listPrice * 0.85) / 100) * 100 - 1,
        })),
      groupCodes: ["WHOLESALE"],
    }),
    // A floor (§14): no discount takes these products below 80 % of their list price in field sales.
    pricelist({
      id: 22,
      name: "Field sales margin floor 2026 (80 % of list)",
      kind: "FLOOR",
      currency: "EUR",
      prices: priced(
        catalogue.filter((p) => ["tool", "fitting", "cable", "pipe"].includes(p.category)),
        eurBase,
        0.8,
      ),
      channels: [{ channelCode: "FIELD-SALES", primary: false }],
    }),
  ];

  const fasteners = inCategory("fastener");
  /** @type {TradeCondition[]} */
  const tradeConditions = [
    tradeCondition({
      id: 7,
      name: "Copper surcharge on cables",
      scope: "GLOBAL",
      type: "SURCHARGE",
      value: 300,
      productGroupCodes: ["CABLES"],
    }),
    tradeCondition({
      id: 8,
      name: "Webshop Germany online discount 2 %",
      scope: "CHANNEL",
      type: "DISCOUNT",
      value: 200,
      channelCodes: ["WEB-DE"],
    }),
    tradeCondition({
      id: 9,
      name: "Field sales volume discount",
      scope: "CHANNEL",
      type: "DISCOUNT",
      value: 200,
      channelCodes: ["FIELD-SALES"],
      scales: [
        { minimum: 20, value: 200 },
        { minimum: 100, value: 400 },
        { minimum: 500, value: 700 },
      ],
    }),
    tradeCondition({
      id: 10,
      name: "Wholesale fastener discount",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 800,
      priority: 10,
      productCodes: codes(random.sample(fasteners, 30)),
      groupCodes: ["WHOLESALE"],
    }),
    tradeCondition({
      id: 11,
      name: "Installer power tool discount",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 500,
      productCodes: codes(inCategory("tool")),
      channelCodes: ["WEB-DE", "FIELD-SALES"],
      groupCodes: ["INSTALLERS"],
    }),
    tradeCondition({
      id: 12,
      name: "Retail net price nitrile gloves",
      scope: "CUSTOMER_GROUP",
      type: "NET_PRICE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 1490,
      productCodes: codes(named("Nitrile-coated")),
      groupCodes: ["RETAIL"],
    }),
    tradeCondition({
      id: 13,
      name: "Key account net price combi hammer drill",
      scope: "CUSTOMER",
      type: "NET_PRICE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 31900,
      productCodes: codes(named("Cordless combi hammer drill")),
      customerCodes: ["C-1005", "C-1012"],
      scales: [
        { minimum: 1, value: 31900 },
        { minimum: 10, value: 29900 },
      ],
    }),
    tradeCondition({
      id: 14,
      name: "C-1008 loyalty bonus 3 %",
      scope: "CUSTOMER",
      type: "DISCOUNT",
      value: 300,
      stackable: true,
      customerCodes: ["C-1008"],
    }),
    tradeCondition({
      id: 15,
      name: "Switzerland freight surcharge on pipes",
      scope: "CHANNEL",
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "CHF",
      value: 150,
      productGroupCodes: ["PIPES"],
      channelCodes: ["SHOP-CH"],
    }),
    tradeCondition({
      id: 16,
      name: "Region south discount 4 %",
      scope: "CUSTOMER_GROUP",
      status: "INACTIVE",
      type: "DISCOUNT",
      value: 400,
      groupCodes: ["SOUTH"],
    }),
    tradeCondition({
      id: 17,
      name: "Loyalty discount 1 % from 2027",
      scope: "GLOBAL",
      status: "DRAFT",
      type: "DISCOUNT",
      value: 100,
      validFrom: Y2027,
    }),
    tradeCondition({
      id: 18,
      name: "Cable tie bulk discount",
      scope: "GLOBAL",
      type: "DISCOUNT",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 20,
      productCodes: codes(inCategory("cable-tie")),
      channelCodes: ["WEB-DE", "FIELD-SALES"],
      scales: [
        { minimum: 10, value: 20 },
        { minimum: 50, value: 45 },
      ],
    }),
    tradeCondition({
      id: 19,
      name: "Installer spring bonus 2026",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 300,
      stackable: true,
      validFrom: instant("2026-03-01T00:00:00.000Z"),
      validTo: instant("2026-06-01T00:00:00.000Z"),
      groupCodes: ["INSTALLERS"],
    }),
    tradeCondition({
      id: 20,
      name: "Region north freight bonus 2 %",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 200,
      stackable: true,
      groupCodes: ["NORTH"],
    }),
    tradeCondition({
      id: 21,
      name: "Hazardous goods surcharge",
      scope: "GLOBAL",
      type: "SURCHARGE",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 150,
      productCodes: codes(named("PU expanding foam")),
      channelCodes: ["WEB-DE", "FIELD-SALES"],
    }),
    tradeCondition({
      id: 22,
      name: "Field sales key account discount 6 %",
      scope: "CUSTOMER",
      type: "DISCOUNT",
      value: 600,
      priority: 5,
      channelCodes: ["FIELD-SALES"],
      customerCodes: ["C-1020"],
    }),
    // Terms on product groups (docs/pricing-rules.md §12): they reach every product of the group
    // and of the groups below it, also those added later. For a wholesaler, TC-10 (product
    // listed, rung 4) beats TC-24 (group reached, rung 5), and TC-24 (METRIC-FASTENERS, distance
    // 1 from a hex bolt) beats TC-23 (FIXINGS, distance 3).
    tradeCondition({
      id: 23,
      name: "Wholesale 10 % on fixings and fasteners",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 1000,
      productGroupCodes: ["FIXINGS"],
      groupCodes: ["WHOLESALE"],
    }),
    tradeCondition({
      id: 24,
      name: "Wholesale 12 % on metric bolts, nuts and washers",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 1200,
      productGroupCodes: ["METRIC-FASTENERS"],
      groupCodes: ["WHOLESALE"],
    }),
    tradeCondition({
      id: 25,
      name: "Fastener volume bonus: 2 % from 1,000 pieces in the order, 3 % from 5,000",
      scope: "GLOBAL",
      type: "DISCOUNT",
      value: 200,
      stackable: true,
      productGroupCodes: ["FASTENERS"],
      scaleBasis: "ORDER_QUANTITY",
      scales: [
        { minimum: 1000, value: 200 },
        { minimum: 5000, value: 300 },
      ],
    }),
    tradeCondition({
      id: 26,
      name: "Field sales project bonus on electrical: 3 % from 5,000 EUR, 5 % from 20,000 EUR",
      scope: "CHANNEL",
      type: "DISCOUNT",
      currency: "EUR",
      value: 300,
      productGroupCodes: ["ELECTRICAL"],
      channelCodes: ["FIELD-SALES"],
      scaleBasis: "ORDER_VALUE",
      scales: [
        { minimum: 500000, value: 300 },
        { minimum: 2000000, value: 500 },
      ],
    }),
    tradeCondition({
      id: 27,
      name: "Installer discount 4 % on plumbing",
      scope: "CUSTOMER_GROUP",
      type: "DISCOUNT",
      value: 400,
      productGroupCodes: ["PLUMBING"],
      groupCodes: ["INSTALLERS"],
    }),
    // What the publish simulation is shown with (docs/simulation.md §7): activating it lowers
    // the power tool prices of the retail customers of WEB-DE from the channel's 2 % to 5 %.
    tradeCondition({
      id: 28,
      name: "Retail power tool discount 5 % (draft)",
      scope: "CUSTOMER_GROUP",
      status: "DRAFT",
      type: "DISCOUNT",
      value: 500,
      productGroupCodes: ["POWER-TOOLS"],
      channelCodes: ["WEB-DE"],
      groupCodes: ["RETAIL"],
    }),
  ];

  /** @type {Promotion[]} */
  const promotions = [
    promotion({
      id: 1,
      name: "Winter tool week",
      value: 1000,
      validFrom: instant("2026-02-02T00:00:00.000Z"),
      validTo: instant("2026-02-09T00:00:00.000Z"),
      productCodes: codes(inCategory("tool")),
      channelCodes: ["WEB-DE"],
    }),
    promotion({
      id: 2,
      name: "Fastener summer sale",
      value: 1500,
      validFrom: instant("2026-07-01T00:00:00.000Z"),
      validTo: instant("2026-09-01T00:00:00.000Z"),
      productCodes: codes(fasteners),
      channelCodes: ["WEB-DE", "SHOP-CH"],
    }),
    promotion({
      id: 3,
      name: "Installer days",
      value: 500,
      stacking: "ON_TOP",
      priority: 5,
      validFrom: Y2026,
      validTo: instant("2028-01-01T00:00:00.000Z"),
      groupCodes: ["INSTALLERS"],
    }),
    promotion({
      id: 4,
      name: "Safety first: 1 EUR off gloves",
      discountType: "ABSOLUTE",
      currency: "EUR",
      value: 100,
      validFrom: Y2026,
      validTo: null,
      productCodes: codes(inCategory("glove")),
      channelCodes: ["FIELD-SALES"],
    }),
    promotion({
      id: 5,
      name: "Black Friday 2026",
      status: "DRAFT",
      value: 2000,
      validFrom: instant("2026-11-27T00:00:00.000Z"),
      validTo: instant("2026-12-01T00:00:00.000Z"),
      productCodes: codes(inCategory("tool", "drill-bit")),
      channelCodes: ["WEB-DE"],
    }),
    promotion({
      id: 6,
      name: "Switzerland launch offer",
      status: "INACTIVE",
      value: 800,
      validFrom: Y2026,
      validTo: instant("2026-04-01T00:00:00.000Z"),
      channelCodes: ["SHOP-CH"],
    }),
    // Thresholds (docs/pricing-rules.md §5.4): the lines the promotion reaches must add up first.
    promotion({
      id: 8,
      name: "Tool spend bonus: 5 % on top from 300 EUR of tools",
      value: 500,
      currency: "EUR",
      stacking: "ON_TOP",
      validFrom: Y2026,
      validTo: Y2027,
      productGroupCodes: ["TOOLING"],
      channelCodes: ["WEB-DE"],
      threshold: { basis: "VALUE", minimum: 30000 },
    }),
    promotion({
      id: 9,
      name: "Glove multipack: 10 % from 10 packs",
      value: 1000,
      validFrom: Y2026,
      validTo: Y2027,
      productGroupCodes: ["GLOVES"],
      channelCodes: ["WEB-DE", "FIELD-SALES"],
      threshold: { basis: "QUANTITY", minimum: 10 },
    }),
  ];

  /** @type {DemoData} */
  const data = {
    channels: [
      {
        code: "WEB-DE",
        name: "Webshop Germany",
        isActive: true,
        groupCodes: ["WHOLESALE", "INSTALLERS", "RETAIL", "NORTH", "SOUTH"],
      },
      {
        code: "SHOP-CH",
        name: "Webshop Switzerland",
        isActive: true,
        groupCodes: ["WHOLESALE", "INSTALLERS", "RETAIL"],
      },
      {
        code: "FIELD-SALES",
        name: "Field sales",
        isActive: true,
        groupCodes: ["WHOLESALE", "INSTALLERS", "NORTH", "SOUTH"],
      },
    ],
    groups: [...GROUPS],
    productGroups: [...CATALOGUE_GROUPS],
    brands: [],
    products,
    customers,
    pricelists,
    tradeConditions,
    promotions,
    exchangeRates: [],
  };
  addWorkedExample(data, webListPrices);
  addB2bExample(data);
  addMoneyExample(data);
  addGraduatedExample(data);
  addBrandsExample(data);
  checkApart(data, WORKED_EXAMPLE);
  checkApart(data, B2B_EXAMPLE);
  checkApart(data, BRANDS_APART);
  return data;
}
