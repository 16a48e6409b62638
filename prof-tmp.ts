import { planChanges, isChangeOverlap, type SelectedItem } from "./src/pricing/change-plan";
const n = Number(process.argv[2] ?? 31800), k = Number(process.argv[3] ?? 10);
const rows = Array.from({ length: n }, (_, i) => ({ productCode: `P${String(i).padStart(7, "0")}`, minQuantity: 1, amount: 1000 + (i % 997), priceUnit: 1, validFrom: null, validTo: null }));
const per = Math.ceil(n / k);
const items: SelectedItem[] = Array.from({ length: k }, (_, j) => ({ item: { kind: "ADJUST_PRICES", pricelistId: 1, adjustmentBp: 250, rounding: { mode: "NEAREST", step: 10, ending: 9 } }, rows: rows }));
const t = performance.now();
const plan = planChanges(items, Date.parse("2027-01-01T00:00:00Z"));
console.log(n, k, performance.now() - t, isChangeOverlap(plan) ? "overlap" : plan.tiers.length);
