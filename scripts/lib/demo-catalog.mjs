/**
 * The demo product catalogue: a B2B building-supplies range (fasteners, anchors, drill bits,
 * abrasives, electrical, plumbing, safety, power tools, chemicals) with a list price in EUR cents.
 * Names come from the real combinations of each range; the PRNG only chooses which of them are
 * stocked and jitters prices a little.
 */

/** @typedef {import("./random.mjs").Random} Random */

/**
 * @typedef {"fastener" | "anchor" | "drill-bit" | "abrasive" | "cable" | "conduit" | "cable-tie"
 *   | "pipe" | "fitting" | "glove" | "tool" | "chemical"} Category
 */

/**
 * @typedef {object} Product
 * @property {string} code
 * @property {string} name
 * @property {Category} category
 * @property {number} listPrice list price in EUR cents (the German web shop's 1+ price)
 * @property {boolean} consumable sold in quantity tiers on the channel lists
 */

/** @typedef {{ name: string, price: number }} Candidate */

/**
 * @template A, B
 * @param {readonly A[]} as
 * @param {readonly B[]} bs
 * @returns {[A, B][]}
 */
const cross = (as, bs) => as.flatMap((a) => bs.map((b) => /** @type {[A, B]} */ ([a, b])));

const FINISHES = /** @type {const} */ ([
  ["zinc plated", 1],
  ["hot-dip galvanised", 1.4],
  ["stainless A2", 2.2],
  ["stainless A4", 3.2],
]);

/** @type {{ category: Category, count: number, consumable: boolean, candidates: () => Candidate[] }[]} */
const RANGES = [
  {
    category: "fastener",
    count: 64,
    consumable: true,
    candidates: () =>
      cross(cross([6, 8, 10, 12, 16], [20, 30, 40, 50, 60, 80, 100]), FINISHES)
        .filter(([[d, l]]) => l >= d * 2.5)
        .map(([[d, l], [finish, factor]]) => {
          const box = d >= 16 ? 25 : d >= 12 ? 50 : 100;
          return {
            name: `Hex bolt M${d}x${l} ${finish} (box of ${box})`,
            price: 150 + 0.35 * d * d * l * (box / 100) * factor,
          };
        }),
  },
  {
    category: "fastener",
    count: 16,
    consumable: true,
    candidates: () =>
      cross([6, 8, 10, 12, 16, 20], FINISHES).map(([d, [finish, factor]]) => ({
        name: `Hex nut M${d} ${finish} (box of 200)`,
        price: 100 + 4 * d * d * factor,
      })),
  },
  {
    category: "fastener",
    count: 12,
    consumable: true,
    candidates: () =>
      cross([6, 8, 10, 12, 16], FINISHES).map(([d, [finish, factor]]) => ({
        name: `Flat washer ${d} mm ${finish} (box of 500)`,
        price: 100 + 2.5 * d * d * factor,
      })),
  },
  {
    category: "fastener",
    count: 30,
    consumable: true,
    candidates: () =>
      cross(
        cross([3.5, 4, 4.5, 5, 6], [25, 30, 40, 50, 60, 80, 100]),
        /** @type {const} */ ([
          ["yellow zinc", 1],
          ["stainless A2", 2.4],
        ]),
      )
        .filter(([[d, l]]) => l >= d * 6)
        .map(([[d, l], [finish, factor]]) => ({
          name: `Wood screw ${d.toFixed(1)}x${l} Torx ${finish} (box of 200)`,
          price: 150 + 0.4 * d * d * l * factor,
        })),
  },
  {
    category: "anchor",
    count: 14,
    consumable: true,
    candidates: () => [
      ...cross([5, 6, 8, 10, 12, 14], [25, 30, 40, 50, 60, 80])
        .filter(([d, l]) => l >= d * 4 && l <= d * 7)
        .map(([d, l]) => ({
          name: `Nylon wall plug ${d}x${l} mm (box of 100)`,
          price: 150 + 1.2 * d * l,
        })),
      ...cross([8, 10, 12, 16], [75, 95, 115, 140]).map(([d, l]) => ({
        name: `Through bolt anchor M${d}x${l} zinc plated (box of 50)`,
        price: 900 + 0.9 * d * l,
      })),
    ],
  },
  {
    category: "drill-bit",
    count: 24,
    consumable: true,
    candidates: () => [
      ...cross(
        [2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7, 8, 9, 10, 11, 12, 13],
        /** @type {const} */ ([
          ["HSS", 1],
          ["HSS-Co cobalt", 1.8],
        ]),
      ).map(([d, [kind, factor]]) => ({
        name: `${kind} twist drill bit ${d.toFixed(1)} mm DIN 338`,
        price: (80 + d * d * 9) * factor,
      })),
      ...cross([5, 6, 8, 10, 12, 14, 16], [110, 160, 210, 260])
        .filter(([d, l]) => l <= 110 + d * 15)
        .map(([d, l]) => ({
          name: `SDS-plus masonry drill bit ${d}x${l} mm`,
          price: 250 + d * l * 0.9,
        })),
    ],
  },
  {
    category: "abrasive",
    count: 14,
    consumable: true,
    candidates: () =>
      cross(
        cross(
          /** @type {const} */ ([
            [115, 120],
            [125, 150],
            [230, 320],
          ]),
          /** @type {const} */ ([
            [1.0, 1],
            [1.6, 1.1],
            [2.5, 1.2],
          ]),
        ),
        /** @type {const} */ ([
          ["inox", 1.3],
          ["steel", 1],
          ["stone", 1.1],
        ]),
      ).map(([[[diameter, base], [thickness, tFactor]], [material, mFactor]]) => ({
        name: `Cutting disc ${diameter}x${thickness.toFixed(1)} mm ${material} (box of 10)`,
        price: 10 * base * tFactor * mFactor,
      })),
  },
  {
    category: "cable",
    count: 16,
    consumable: false,
    candidates: () => [
      ...cross(cross([3, 5], [1.5, 2.5, 4, 6, 10]), [50, 100]).map(([[cores, cs], length]) => ({
        name: `NYM-J ${cores}x${cs} mm² installation cable (${length} m ring)`,
        price: (30 + cores * cs * 6) * length,
      })),
      ...cross([1.5, 2.5, 4, 6, 10, 16], [100]).map(([cs, length]) => ({
        name: `H07V-K ${cs} mm² single core wire green-yellow (${length} m)`,
        price: (8 + cs * 7) * length,
      })),
    ],
  },
  {
    category: "conduit",
    count: 10,
    consumable: false,
    candidates: () => [
      ...[16, 20, 25, 32, 40, 50].map((d) => ({
        name: `PVC conduit ${d} mm x 3 m grey`,
        price: 60 + d * 8,
      })),
      ...[16, 20, 25, 32].map((d) => ({
        name: `Flexible corrugated conduit M${d} (50 m)`,
        price: 900 + d * 60,
      })),
      ...[15, 30, 40, 60].map((w) => ({
        name: `Cable trunking ${w}x${w} mm x 2 m white`,
        price: 250 + w * 9,
      })),
    ],
  },
  {
    category: "cable-tie",
    count: 12,
    consumable: true,
    candidates: () =>
      cross(
        cross([2.5, 3.6, 4.8, 7.6], [100, 200, 300, 370]),
        /** @type {const} */ (["black UV-resistant", "natural"]),
      ).map(([[w, l], colour]) => ({
        name: `Cable tie ${w}x${l} mm ${colour} (pack of 100)`,
        price: 100 + w * l * 0.25,
      })),
  },
  {
    category: "pipe",
    count: 10,
    consumable: false,
    candidates: () => [
      ...[12, 15, 18, 22, 28, 35, 42].map((d) => ({
        name: `Copper pipe ${d}x1.0 mm (5 m bar)`,
        price: 800 + d * d * 5,
      })),
      ...[16, 20, 26, 32].map((d) => ({
        name: `Multilayer composite pipe ${d}x2 mm (50 m coil)`,
        price: 4000 + d * d * 12,
      })),
    ],
  },
  {
    category: "fitting",
    count: 24,
    consumable: true,
    candidates: () =>
      cross(
        [12, 15, 18, 22, 28, 35],
        /** @type {const} */ ([
          ["elbow 90°", 1],
          ["tee", 1.4],
          ["coupling", 0.8],
          ["reducer", 1.1],
          ["male adapter", 1.3],
        ]),
      ).map(([d, [shape, factor]]) => ({
        name: `Press fitting ${shape} ${d} mm copper`,
        price: (150 + d * d * 1.5) * factor,
      })),
  },
  {
    category: "glove",
    count: 15,
    consumable: true,
    candidates: () =>
      cross(
        /** @type {const} */ ([
          ["Nitrile-coated assembly gloves", 1800],
          ["Cut-resistant gloves level C", 5400],
          ["Leather rigger gloves", 4200],
          ["Winter work gloves lined", 4800],
        ]),
        [7, 8, 9, 10, 11],
      ).map(([[kind, price], size]) => ({ name: `${kind} size ${size} (12 pairs)`, price })),
  },
  {
    category: "tool",
    count: 22,
    consumable: false,
    candidates: () =>
      /** @type {[string, number][]} */ ([
        ["Cordless drill driver 18 V, 2 x 4.0 Ah, case", 28900],
        ["Cordless drill driver 18 V, body only", 13900],
        ["Cordless impact driver 18 V, body only", 15900],
        ["Cordless combi hammer drill 18 V, 2 x 5.0 Ah", 36900],
        ["SDS-plus rotary hammer 800 W", 21900],
        ["SDS-max demolition hammer 1500 W", 64900],
        ["Angle grinder 125 mm 1200 W", 8900],
        ["Angle grinder 230 mm 2400 W", 15900],
        ["Cordless angle grinder 18 V 125 mm, body only", 17900],
        ["Jigsaw 650 W with pendulum action", 12900],
        ["Circular saw 190 mm 1400 W", 17900],
        ["Cordless multi-tool 12 V, body only", 11900],
        ["Battery pack 18 V 5.0 Ah", 9900],
        ["Battery pack 18 V 8.0 Ah", 15900],
        ["Fast charger 18 V", 5900],
        ["Laser distance meter 50 m", 8900],
        ["Cross-line laser green with tripod", 24900],
        ["Wet and dry vacuum cleaner class M 30 l", 42900],
        ["Press tool 18 V for copper fittings 12-35 mm", 189000],
        ["Cable stripping pliers 0.2-6 mm²", 3490],
        ["Insulated screwdriver set VDE 7 pcs", 4690],
        ["Pipe cutter 3-35 mm", 2990],
        ["Digital multimeter CAT III 600 V", 7990],
        ["Voltage tester two-pole 12-690 V", 4490],
      ]).map(([name, price]) => ({ name, price })),
  },
  {
    category: "chemical",
    count: 14,
    consumable: true,
    candidates: () =>
      /** @type {[string, number][]} */ ([
        ["Sanitary silicone sealant white 310 ml", 690],
        ["Sanitary silicone sealant transparent 310 ml", 690],
        ["Sanitary silicone sealant grey 310 ml", 720],
        ["Acrylic sealant paintable white 310 ml", 390],
        ["Construction adhesive high tack 290 ml", 990],
        ["PU expanding foam gun grade 750 ml", 890],
        ["PU expanding foam fire-rated B1 750 ml", 1490],
        ["Multi-purpose maintenance spray 400 ml", 590],
        ["Zinc spray bright 400 ml", 1090],
        ["Brake and parts cleaner 500 ml", 490],
        ["Cutting oil spray 400 ml", 790],
        ["Thread sealing paste for gas and water 250 g", 1190],
        ["Injection mortar vinyl ester 300 ml", 1890],
        ["Leak detection spray 400 ml", 690],
        ["Contact cleaner spray 200 ml", 790],
      ]).map(([name, price]) => ({ name, price })),
  },
];

/** Rounds to a shelf price: whole 5 cents, at least 0.50. */
const shelfPrice = (/** @type {number} */ cents) => Math.max(50, Math.round(cents / 5) * 5);

/**
 * @param {Random} random
 * @returns {Product[]} codes P-00001… in range order
 */
export function buildCatalogue(random) {
  /** @type {Omit<Product, "code">[]} */
  const items = [];
  for (const range of RANGES) {
    const candidates = range.candidates();
    if (candidates.length < range.count) {
      throw new Error(`${range.category}: ${candidates.length} candidates < ${range.count}`);
    }
    for (const candidate of random.sample(candidates, range.count)) {
      // ±6 % so neighbouring sizes do not look computed.
      const jitter = 0.94 + random.next() * 0.12;
      items.push({
        name: candidate.name,
        category: range.category,
        listPrice: shelfPrice(candidate.price * jitter),
        consumable: range.consumable,
      });
    }
  }
  const names = new Set(items.map((item) => item.name));
  if (names.size !== items.length) throw new Error("duplicate product names in the catalogue");
  return items.map((item, i) => ({ code: `P-${String(i + 1).padStart(5, "0")}`, ...item }));
}
