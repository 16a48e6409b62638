/**
 * The B2B terms of the scale data set (issue 12): the product-group tree over the catalogue and
 * each product's place in it, quantity rules, and the group picks of trade conditions and
 * promotions. Shaped like a building-supplies wholesaler's catalogue:
 *
 * - groups: 8 departments › 18 sub-departments › 25 families › family × brand (600 leaves), 651
 *   groups on 4 levels at every size; 98 % of the products sit in their family × brand leaf, 2 %
 *   are not classified yet;
 * - quantity rules: press fittings and cable ties are sold in tens (minimum 10, increment 10),
 *   copper pipes from 5 bars, power tools at most 20 per order, and 4 % of the other products in
 *   cartons of 2, 5 or 12 (minimum and increment): about 16 % of the catalogue comes boxed or from
 *   a minimum, 6 % has a maximum.
 *
 * Everything is drawn from streams of its own, so the rest of the data set is the same as without
 * these terms.
 */
import { BRANDS, FAMILY_PREFIXES } from "./catalogue.mjs";

/** @typedef {import("../../scripts/lib/random.mjs").Random} Random */
/** @typedef {import("../../scripts/lib/sql.mjs").SqlValue} SqlValue */

/** Departments › sub-departments › the families in them (prefix, name). */
const TREE = /** @type {const} */ ([
  [
    "FIXINGS",
    "Fixings and fasteners",
    [
      [
        "BOLTS",
        "Bolts",
        [
          ["BOLT-HEX", "Hex bolts"],
          ["BOLT-CAR", "Carriage bolts"],
          ["BOLT-ANC", "Anchor bolts"],
        ],
      ],
      [
        "NUTS-WASHERS",
        "Nuts and washers",
        [
          ["NUT-HEX", "Hex nuts"],
          ["WSH", "Flat washers"],
        ],
      ],
      [
        "SCREWS",
        "Screws",
        [
          ["SCR-WOOD", "Wood screws"],
          ["SCR-DRY", "Drywall screws"],
        ],
      ],
      ["RODS", "Threaded rods", [["ROD", "Threaded rods"]]],
      ["WALL-PLUGS", "Wall plugs", [["PLUG", "Nylon wall plugs"]]],
    ],
  ],
  [
    "DRILLING-CUTTING",
    "Drilling and cutting",
    [
      ["DRILL-BITS", "Drill bits", [["DRL", "Drill bits"]]],
      ["DISCS", "Cutting and grinding discs", [["DISC", "Discs"]]],
    ],
  ],
  [
    "ELECTRICAL",
    "Electrical installation",
    [
      [
        "CABLE-MANAGEMENT",
        "Cable management",
        [
          ["TIE", "Cable ties"],
          ["CND", "Corrugated conduits"],
        ],
      ],
      ["CABLES", "Cables", [["CBL", "Installation cables"]]],
      ["LIGHTING", "Lighting", [["LED", "LED panels"]]],
    ],
  ],
  [
    "PLUMBING",
    "Plumbing",
    [
      ["PIPES", "Pipes", [["PIPE", "Copper pipes"]]],
      [
        "FITTINGS-VALVES",
        "Fittings and valves",
        [
          ["FIT", "Press fittings"],
          ["VLV", "Ball valves"],
        ],
      ],
    ],
  ],
  [
    "SAFETY",
    "Workwear and safety",
    [
      ["GLOVES", "Gloves", [["GLV", "Work gloves"]]],
      ["PPE", "Personal protection", [["PPE", "Protective equipment"]]],
    ],
  ],
  [
    "TOOLS",
    "Tools",
    [
      ["POWER-TOOLS", "Power tools", [["TOOL", "Cordless power tools"]]],
      [
        "HAND-TOOLS",
        "Hand tools",
        [
          ["HND", "Hand tools"],
          ["TQW-TITANIUM", "Torque wrenches"],
        ],
      ],
    ],
  ],
  [
    "CHEMICALS",
    "Chemicals",
    [["SEALANTS", "Sealants and adhesives", [["CHEM", "Sealants and adhesives"]]]],
  ],
  ["HARDWARE", "Building hardware", [["HINGES", "Hinges", [["HNG", "Door hinges"]]]]],
]);

const T0 = Date.UTC(2025, 0, 1);
const stamp = (/** @type {number} */ id) => T0 + id * 60_000;
const brandCode = (/** @type {string} */ brand) => brand.toUpperCase().replaceAll(" ", "-");

/**
 * @typedef {object} GroupTree
 * @property {SqlValue[][]} rows product_groups rows, parents first
 * @property {(family: string, brand: string) => number} leafOf
 * @property {number[][]} levels the group ids of each level, departments first
 */

/** @returns {GroupTree} */
export function groupTree() {
  /** @type {SqlValue[][]} */
  const rows = [];
  /** @type {number[][]} */
  const levels = [[], [], [], []];
  /** @type {Map<string, number>} */
  const leaves = new Map();
  const add = (
    /** @type {number} */ level,
    /** @type {string} */ code,
    /** @type {string} */ name,
    /** @type {number | null} */ parent,
  ) => {
    const id = rows.length + 1;
    rows.push([id, code, name, parent, stamp(id), stamp(id)]);
    levels[level]?.push(id);
    return id;
  };
  const families = new Set(FAMILY_PREFIXES);
  for (const [code, name, subs] of TREE) {
    const department = add(0, code, name, null);
    for (const [subCode, subName, prefixes] of subs) {
      const sub = add(1, subCode, subName, department);
      for (const [prefix, familyName] of prefixes) {
        if (!families.delete(prefix)) throw new Error(`group tree: unknown family ${prefix}`);
        const family = add(2, `FAM-${prefix}`, familyName, sub);
        for (const brand of BRANDS) {
          const leaf = add(3, `${prefix}-${brandCode(brand)}`, `${familyName} ${brand}`, family);
          leaves.set(`${prefix}/${brand}`, leaf);
        }
      }
    }
  }
  if (families.size > 0) throw new Error(`group tree: families without a group: ${[...families]}`);
  return {
    rows,
    levels,
    leafOf: (family, brand) => {
      const id = leaves.get(`${family}/${brand}`);
      if (id === undefined) throw new Error(`no leaf group for ${family} ${brand}`);
      return id;
    },
  };
}

/**
 * `[min_order_quantity, order_increment, max_order_quantity]` of a product.
 * @param {Random} r the quantity-rule stream, one draw per product
 * @param {string} family
 * @param {string} name
 * @returns {[number, number, number | null]}
 */
export function quantityRule(r, family, name) {
  const u = r.next();
  if (family === "FIT" || family === "TIE") return [10, 10, null];
  if (family === "PIPE" && name.startsWith("Copper pipe")) return [5, 1, null];
  if (family === "TOOL") return [1, 1, 20];
  if (u < 0.04) {
    const carton = /** @type {number} */ ([2, 5, 12][Math.floor((u / 0.04) * 3)]);
    return [carton, carton, null];
  }
  return [1, 1, null];
}

/**
 * 1–`most` groups for a condition or promotion, from the levels a buyer writes terms against:
 * departments 10 %, sub-departments 20 %, families 40 %, family × brand 30 %.
 * @param {Random} r
 * @param {GroupTree} tree
 * @param {number} most
 * @returns {number[]} ascending, distinct
 */
export function pickGroups(r, tree, most) {
  const chosen = new Set();
  const count = r.int(1, most);
  while (chosen.size < count) {
    const u = r.next();
    const level = u < 0.1 ? 0 : u < 0.3 ? 1 : u < 0.7 ? 2 : 3;
    chosen.add(r.pick(/** @type {number[]} */ (tree.levels[level])));
  }
  return [...chosen].sort((a, b) => a - b);
}
