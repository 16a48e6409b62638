/**
 * Product names and codes of the scale data set: a building-supplies range built from real
 * families and attributes, so a term can be rare or common on purpose:
 *
 * - "bolt" is in the names and codes of the three bolt families (10 % of the products by weight);
 * - "titanium" is in exactly 5 products (torque wrenches spread over the catalogue), whatever the size;
 * - no other family, attribute or brand contains either term (data.mjs counts both while generating).
 *
 * Codes are `<family prefix>-<id, 7 digits>`, unique by construction; names repeat across brands and
 * sizes the way a real catalogue does.
 */
/** @typedef {import("../../scripts/lib/random.mjs").Random} Random */
/** @typedef {(r: Random) => [name: string, cents: number]} Builder */

const FINISHES = /** @type {const} */ ([
  ["zinc plated", 1],
  ["hot-dip galvanised", 1.4],
  ["stainless A2", 2.2],
  ["stainless A4", 3.2],
  ["black oxide", 1.2],
]);
export const BRANDS = [
  "Fixtec",
  "Brandtner",
  "Kessler",
  "Nordfix",
  "Hauser",
  "Alpina Pro",
  "Steelco",
  "Werkmann",
  "Rheinwerk",
  "Bauprofi",
  "Toolmaster",
  "Voltwerk",
  "Aquaflow",
  "Safeguard",
  "Lumatec",
  "Promat",
  "Ostbau",
  "Grafton",
  "Meridian",
  "Baltic Supply",
  "Keystone",
  "Hartmann",
  "Vector",
  "Sielmann",
];
const COLOURS = ["black", "white", "grey", "natural", "red", "blue", "transparent"];

/**
 * @template T
 * @param {Random} r
 * @param {readonly T[]} items
 */
const pick = (r, items) => r.pick(items);

/** @type {{ prefix: string, weight: number, build: Builder }[]} */
const FAMILIES = [
  {
    prefix: "BOLT-HEX",
    weight: 6,
    build: (r) => {
      const d = pick(r, [6, 8, 10, 12, 16, 20]);
      const l = pick(r, [20, 30, 40, 50, 60, 80, 100, 120]);
      const [finish, f] = pick(r, FINISHES);
      const box = d >= 16 ? 25 : d >= 12 ? 50 : 100;
      return [`Hex bolt M${d}x${l} ${finish}, ${box} pcs`, 150 + 0.3 * d * d * l * (box / 100) * f];
    },
  },
  {
    prefix: "BOLT-CAR",
    weight: 2,
    build: (r) => {
      const d = pick(r, [6, 8, 10, 12]);
      const l = pick(r, [40, 60, 80, 100, 120, 160]);
      const [finish, f] = pick(r, FINISHES);
      return [`Carriage bolt M${d}x${l} ${finish}, 50 pcs`, 200 + 0.2 * d * d * l * f];
    },
  },
  {
    prefix: "BOLT-ANC",
    weight: 2,
    build: (r) => {
      const d = pick(r, [8, 10, 12, 16]);
      const l = pick(r, [75, 100, 120, 150, 200]);
      const [finish, f] = pick(r, FINISHES);
      return [`Anchor bolt M${d}x${l} ${finish}, 20 pcs`, 400 + 0.25 * d * d * l * f];
    },
  },
  {
    prefix: "NUT-HEX",
    weight: 5,
    build: (r) => {
      const d = pick(r, [5, 6, 8, 10, 12, 16, 20, 24]);
      const [finish, f] = pick(r, FINISHES);
      return [`Hex nut M${d} ${finish}, 200 pcs`, 100 + 4 * d * d * f];
    },
  },
  {
    prefix: "WSH",
    weight: 4,
    build: (r) => {
      const d = pick(r, [5, 6, 8, 10, 12, 16, 20]);
      const [finish, f] = pick(r, FINISHES);
      return [`Flat washer ${d} mm ${finish}, 500 pcs`, 100 + 2.5 * d * d * f];
    },
  },
  {
    prefix: "SCR-WOOD",
    weight: 7,
    build: (r) => {
      const d = pick(r, [3, 3.5, 4, 4.5, 5, 6]);
      const l = pick(r, [16, 20, 25, 30, 40, 50, 60, 70, 80]);
      const head = pick(r, ["countersunk", "pan head", "washer head"]);
      const [finish, f] = pick(r, FINISHES);
      return [`Wood screw ${d}x${l} ${head} ${finish}, 200 pcs`, 180 + 2 * d * l * f];
    },
  },
  {
    prefix: "SCR-DRY",
    weight: 4,
    build: (r) => {
      const l = pick(r, [25, 35, 45, 55]);
      const box = pick(r, [500, 1000]);
      return [`Drywall screw 3.5x${l} phosphated, ${box} pcs`, 300 + (l * box) / 20];
    },
  },
  {
    prefix: "ROD",
    weight: 2,
    build: (r) => {
      const d = pick(r, [6, 8, 10, 12, 16, 20]);
      const [finish, f] = pick(r, FINISHES);
      return [`Threaded rod M${d} x 1000 mm ${finish}`, 80 + 6 * d * d * f];
    },
  },
  {
    prefix: "PLUG",
    weight: 4,
    build: (r) => {
      const d = pick(r, [5, 6, 8, 10, 12, 14]);
      const l = d * 5;
      return [`Nylon wall plug ${d}x${l}, 100 pcs`, 150 + d * d * 6];
    },
  },
  {
    prefix: "DRL",
    weight: 6,
    build: (r) => {
      const kind = pick(r, ["HSS", "HSS-Co", "masonry", "SDS-plus", "wood spiral", "tile"]);
      const d = pick(r, [3, 4, 5, 6, 8, 10, 12, 14, 16]);
      const l = pick(r, ["short", "long", "extra long"]);
      return [`${kind} drill bit ${d} mm ${l}`, 150 + d * d * 12];
    },
  },
  {
    prefix: "DISC",
    weight: 5,
    build: (r) => {
      const kind = pick(r, ["Cutting", "Grinding", "Flap", "Sanding", "Diamond"]);
      const dia = pick(r, [115, 125, 150, 180, 230]);
      const spec = pick(r, ["1.0 mm", "1.6 mm", "6.0 mm", "grit 40", "grit 60", "grit 80"]);
      return [
        `${kind} disc ${dia} mm ${spec}`,
        kind === "Diamond" ? 2500 + dia * 20 : 90 + dia * 2,
      ];
    },
  },
  {
    prefix: "TIE",
    weight: 3,
    build: (r) => {
      const w = pick(r, [2.5, 3.6, 4.8, 7.6, 9]);
      const l = pick(r, [100, 140, 200, 290, 370, 450]);
      return [`Cable tie ${w}x${l} mm ${pick(r, COLOURS)}, 100 pcs`, 120 + w * l * 0.8];
    },
  },
  {
    prefix: "CBL",
    weight: 5,
    build: (r) => {
      const cores = pick(r, [3, 5, 7]);
      const sq = pick(r, [1.5, 2.5, 4, 6, 10]);
      const len = pick(r, [25, 50, 100]);
      return [`Installation cable NYM-J ${cores}x${sq} mm2, ${len} m ring`, cores * sq * len * 9];
    },
  },
  {
    prefix: "CND",
    weight: 3,
    build: (r) => {
      const d = pick(r, [16, 20, 25, 32, 40]);
      return [`Corrugated conduit M${d} ${pick(r, COLOURS)}, 50 m`, 900 + d * 60];
    },
  },
  {
    prefix: "PIPE",
    weight: 4,
    build: (r) => {
      const d = pick(r, [12, 15, 18, 22, 28, 35, 42]);
      const t = pick(r, [0.8, 1, 1.2, 1.5]);
      return [`Copper pipe ${d}x${t} mm, 5 m`, 800 + d * t * 260];
    },
  },
  {
    prefix: "FIT",
    weight: 6,
    build: (r) => {
      const kind = pick(r, ["elbow 90", "elbow 45", "tee", "coupling", "reducer", "end cap"]);
      const d = pick(r, [12, 15, 18, 22, 28, 35, 42, 54]);
      const m = pick(
        r,
        /** @type {const} */ ([
          ["copper", 1],
          ["gunmetal", 2.4],
          ["stainless", 3],
        ]),
      );
      return [`Press fitting ${kind} ${d} mm ${m[0]}`, 150 + d * d * m[1]];
    },
  },
  {
    prefix: "VLV",
    weight: 3,
    build: (r) => {
      const s = pick(r, ["1/2", "3/4", "1", "1 1/4", "1 1/2", "2"]);
      const v = pick(r, ["female/female", "female/male", "with drain", "with lever handle"]);
      return [`Ball valve ${s} inch brass ${v}`, 600 + s.length * 700];
    },
  },
  {
    prefix: "GLV",
    weight: 4,
    build: (r) => {
      const kind = pick(r, ["Nitrile-coated", "Leather", "Cut-resistant", "Thermal", "Disposable"]);
      const size = pick(r, [7, 8, 9, 10, 11]);
      return [`${kind} gloves size ${size}, 12 pairs`, kind === "Disposable" ? 650 : 1800];
    },
  },
  {
    prefix: "PPE",
    weight: 3,
    build: (r) => {
      const [kind, cents] = pick(r, [
        ["Safety goggles clear", 690],
        ["Safety goggles tinted", 790],
        ["Ear defenders SNR 30", 1990],
        ["FFP2 masks, 20 pcs", 1490],
        ["Hard hat", 1290],
        ["High-visibility vest", 590],
      ]);
      return [`${kind} ${pick(r, ["EN 166", "EN 352", "EN 149", "EN 397", "EN 471"])}`, cents];
    },
  },
  {
    prefix: "TOOL",
    weight: 6,
    build: (r) => {
      const tool = pick(r, [
        "combi drill",
        "impact driver",
        "angle grinder",
        "jigsaw",
        "circular saw",
        "rotary hammer",
        "multi-tool",
      ]);
      const volt = pick(r, [12, 18, 36]);
      const kit = pick(r, ["body only", "2x 2.0 Ah kit", "2x 4.0 Ah kit", "2x 5.0 Ah kit in case"]);
      return [
        `Cordless ${tool} ${volt} V ${kit}`,
        8000 + volt * 300 + (kit === "body only" ? 0 : 9000),
      ];
    },
  },
  {
    prefix: "HND",
    weight: 4,
    build: (r) =>
      pick(r, [
        [`Claw hammer ${pick(r, [300, 450, 600])} g`, 1900],
        [`Spirit level ${pick(r, [400, 600, 800, 1000, 1200])} mm`, 2400],
        [`Combination pliers ${pick(r, [160, 180, 200])} mm`, 1700],
        [`Screwdriver set ${pick(r, [6, 8, 12])} pcs`, 2900],
        [`Tape measure ${pick(r, [3, 5, 8])} m`, 1100],
        [`Utility knife ${pick(r, [18, 25])} mm`, 900],
      ]),
  },
  {
    prefix: "CHEM",
    weight: 4,
    build: (r) => {
      const [kind, cents] = pick(r, [
        ["Silicone sealant", 590],
        ["Acrylic sealant", 390],
        ["PU expanding foam", 890],
        ["Construction adhesive", 790],
        ["Mounting adhesive", 990],
      ]);
      const volume = pick(r, [290, 310, 500, 750]);
      return [`${kind} ${volume} ml ${pick(r, COLOURS)}`, (cents * volume) / 300];
    },
  },
  {
    prefix: "HNG",
    weight: 2,
    build: (r) => {
      const d = pick(r, [60, 80, 100, 120]);
      const [finish, f] = pick(r, FINISHES);
      return [`Door hinge ${d} mm ${finish}, 2 pcs`, 300 + d * 5 * f];
    },
  },
  {
    prefix: "LED",
    weight: 6,
    build: (r) => {
      const [w, h] = pick(r, [
        [300, 300],
        [600, 600],
        [1200, 300],
        [625, 625],
      ]);
      const watt = pick(r, [18, 24, 36, 40]);
      const cct = pick(r, [3000, 4000, 6500]);
      return [`LED panel ${w}x${h} mm ${watt} W ${cct} K`, 2500 + watt * 90];
    },
  },
];

const RARE = {
  prefix: "TQW-TITANIUM",
  /** @type {Builder} */
  build: (r) => [
    `Titanium torque wrench ${pick(r, ["5-25", "20-100", "40-200"])} Nm`,
    pick(r, [18900, 24900, 32900]),
  ],
};

/** How many products carry the rare term, at every size. */
export const RARE_COUNT = 5;

const TOTAL_WEIGHT = FAMILIES.reduce((sum, f) => sum + f.weight, 0);
/** Cumulative weights for a family pick by one uniform draw. */
const CUMULATIVE = FAMILIES.reduce(
  /** @param {number[]} acc */ (acc, f) => [...acc, (acc.at(-1) ?? 0) + f.weight / TOTAL_WEIGHT],
  [],
);

/**
 * The ids (1-based) of the products carrying the rare term: spread evenly, never the first one.
 * @param {number} products
 */
export const rareIds = (products) =>
  Array.from({ length: RARE_COUNT }, (_, k) => Math.floor(((k + 0.5) * products) / RARE_COUNT));

/** Every family's code prefix, the rare one last: product groups are built from them. */
export const FAMILY_PREFIXES = [...FAMILIES.map((f) => f.prefix), RARE.prefix];

/**
 * Product `id` (1-based): its code, name, list price in EUR cents (the primary list's 1+ price),
 * family prefix and brand.
 * @param {Random} r the catalogue's random stream, advanced in id order
 * @param {number} id
 * @param {boolean} rare
 * @returns {{ code: string, name: string, cents: number, family: string, brand: string }}
 */
export function product(r, id, rare) {
  const u = r.next();
  let index = CUMULATIVE.findIndex((c) => u < c);
  if (index < 0) index = FAMILIES.length - 1;
  const family = rare ? RARE : /** @type {(typeof FAMILIES)[number]} */ (FAMILIES[index]);
  const [base, cents] = family.build(r);
  const brand = pick(r, BRANDS);
  const jitter = 0.9 + 0.2 * r.next();
  return {
    code: `${family.prefix}-${String(id).padStart(7, "0")}`,
    name: `${base} - ${brand}`,
    cents: Math.max(50, Math.round(cents * jitter)),
    family: family.prefix,
    brand,
  };
}
