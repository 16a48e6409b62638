/**
 * The product-group tree over the demo catalogue (docs/pricing-rules.md §12) and the catalogue's
 * quantity rules (§13): which group each product sits in and in what quantities it is sold. Both
 * follow from a product's range and name, so they draw nothing from the demo's PRNG.
 */

/** @typedef {import("./demo-catalog.mjs").Product} Product */
/** @typedef {import("./demo-model.mjs").ProductGroup} ProductGroup */
/** @typedef {import("./demo-model.mjs").ProductRecord} ProductRecord */

/**
 * Seven roots, up to four levels (FIXINGS › FASTENERS › METRIC-FASTENERS › HEX-BOLTS); every
 * group is listed after its parent. Products sit in the leaves.
 * @type {ProductGroup[]}
 */
export const CATALOGUE_GROUPS = [
  ["FIXINGS", "Fixings and fasteners", null],
  ["FASTENERS", "Fasteners", "FIXINGS"],
  ["METRIC-FASTENERS", "Metric bolts, nuts and washers", "FASTENERS"],
  ["HEX-BOLTS", "Hex bolts", "METRIC-FASTENERS"],
  ["HEX-NUTS", "Hex nuts", "METRIC-FASTENERS"],
  ["WASHERS", "Washers", "METRIC-FASTENERS"],
  ["WOOD-SCREWS", "Wood screws", "FASTENERS"],
  ["ANCHORS", "Anchors and wall plugs", "FIXINGS"],
  ["DRILLING-CUTTING", "Drilling and cutting", null],
  ["DRILL-BITS", "Drill bits", "DRILLING-CUTTING"],
  ["CUTTING-DISCS", "Cutting discs", "DRILLING-CUTTING"],
  ["ELECTRICAL", "Electrical installation", null],
  ["CABLES", "Cables and wires", "ELECTRICAL"],
  ["CONDUITS", "Conduits and trunking", "ELECTRICAL"],
  ["CABLE-TIES", "Cable ties", "ELECTRICAL"],
  ["PLUMBING", "Plumbing", null],
  ["PIPES", "Pipes", "PLUMBING"],
  ["PRESS-FITTINGS", "Press fittings", "PLUMBING"],
  ["SAFETY", "Workwear and safety", null],
  ["GLOVES", "Work gloves", "SAFETY"],
  ["TOOLING", "Tools and equipment", null],
  ["POWER-TOOLS", "Power tools", "TOOLING"],
  ["BATTERIES", "Batteries and chargers", "TOOLING"],
  ["MEASURING", "Measuring and testing", "TOOLING"],
  ["HAND-TOOLS", "Hand tools", "TOOLING"],
  ["CHEMICALS", "Chemicals", null],
  ["SEALANTS", "Sealants, adhesives and foams", "CHEMICALS"],
  ["SPRAYS", "Technical sprays", "CHEMICALS"],
].map(([code, name, parentCode]) => ({
  code: /** @type {string} */ (code),
  name: /** @type {string} */ (name),
  parentCode: parentCode ?? null,
}));

/** Products not classified yet: they sit in no group, so only "all products" terms reach them. */
const UNCLASSIFIED = [
  "Wet and dry vacuum cleaner",
  "Injection mortar",
  "Thread sealing paste",
  "Leak detection spray",
];

/** The first matching name prefix decides; `""` matches every name of the range. */
const LEAVES = /** @type {Record<import("./demo-catalog.mjs").Category, [string, string][]>} */ ({
  fastener: [
    ["Hex bolt", "HEX-BOLTS"],
    ["Hex nut", "HEX-NUTS"],
    ["Flat washer", "WASHERS"],
    ["Wood screw", "WOOD-SCREWS"],
  ],
  anchor: [["", "ANCHORS"]],
  "drill-bit": [["", "DRILL-BITS"]],
  abrasive: [["", "CUTTING-DISCS"]],
  cable: [["", "CABLES"]],
  conduit: [["", "CONDUITS"]],
  "cable-tie": [["", "CABLE-TIES"]],
  pipe: [["", "PIPES"]],
  fitting: [["", "PRESS-FITTINGS"]],
  glove: [["", "GLOVES"]],
  tool: [
    ["Battery pack", "BATTERIES"],
    ["Fast charger", "BATTERIES"],
    ["Laser", "MEASURING"],
    ["Cross-line laser", "MEASURING"],
    ["Digital multimeter", "MEASURING"],
    ["Voltage tester", "MEASURING"],
    ["Cable stripping pliers", "HAND-TOOLS"],
    ["Insulated screwdriver set", "HAND-TOOLS"],
    ["Pipe cutter", "HAND-TOOLS"],
    ["", "POWER-TOOLS"],
  ],
  chemical: [
    ["Sanitary silicone", "SEALANTS"],
    ["Acrylic sealant", "SEALANTS"],
    ["Construction adhesive", "SEALANTS"],
    ["PU expanding foam", "SEALANTS"],
    ["", "SPRAYS"],
  ],
});

/**
 * The group a catalogue product sits in, or null while it is unclassified.
 * @param {Product} product
 * @returns {string | null}
 */
export function groupOf(product) {
  if (UNCLASSIFIED.some((prefix) => product.name.startsWith(prefix))) return null;
  const leaf = LEAVES[product.category].find(([prefix]) => product.name.startsWith(prefix));
  if (!leaf) throw new Error(`no product group for ${product.code} ${product.name}`);
  return leaf[1];
}

/**
 * How a product is sold: press fittings in bags of 10, cable ties in cartons of 10 packs, copper
 * pipes from 5 bars on, power tools at most 20 per order; everything else in any quantity.
 * @param {Product} product
 * @param {string | null} group
 * @returns {Pick<ProductRecord, "minOrderQuantity" | "orderIncrement" | "maxOrderQuantity">}
 */
export function quantityRuleOf(product, group) {
  const rule = {
    minOrderQuantity: 1,
    orderIncrement: 1,
    maxOrderQuantity: /** @type {number | null} */ (null),
  };
  if (group === "PRESS-FITTINGS" || group === "CABLE-TIES") {
    return { ...rule, minOrderQuantity: 10, orderIncrement: 10 };
  }
  if (group === "PIPES" && product.name.startsWith("Copper pipe")) {
    return { ...rule, minOrderQuantity: 5 };
  }
  if (group === "POWER-TOOLS") return { ...rule, maxOrderQuantity: 20 };
  return rule;
}
