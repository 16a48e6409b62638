import { deriveAmount } from "../derivation";
import { AmountOutOfRange } from "../money";
import { perPiece } from "../units";
import { finding, ref } from "./common";
import type { Finding, LintFacts, QuoteFloorRow } from "./types";

/** The floor amount a row gives (its own, or derived from its base's); null when not exact. */
function floorAmount(row: QuoteFloorRow): number | null {
  if (row.own || row.derivation === null) return row.amount;
  try {
    return deriveAmount(row.amount, row.derivation);
  } catch (error) {
    if (!(error instanceof AmountOutOfRange)) throw error;
    return null;
  }
}

const per = (amount: number, unit: number) => (unit === 1 ? `${amount}` : `${amount} per ${unit}`);

/**
 * §17: a SENT or ACCEPTED quote whose quoted price is now below the floor of its line (a cost or
 * a floor rose since it was priced): honouring it sells below the floor, since no floor changes
 * a quoted amount (docs/pricing-rules.md §28.3). The floor of a line is that of the first FLOOR
 * list by priority desc, id asc with a row for its product and quantity, compared per piece,
 * exactly; one finding per quote and product.
 */
export function quotesBelowFloor(facts: LintFacts): Finding[] {
  const first = new Map<string, QuoteFloorRow>();
  const ranked = [...facts.quoteFloors].sort(
    (a, b) =>
      b.priority - a.priority ||
      a.floorPricelistId - b.floorPricelistId ||
      Number(b.own) - Number(a.own),
  );
  for (const row of ranked) {
    const key = `${row.quoteId}\u0000${row.productCode}`;
    if (!first.has(key)) first.set(key, row);
  }
  const findings: Finding[] = [];
  for (const row of first.values()) {
    const floor = floorAmount(row);
    const quoted = { amount: row.quotedUnitAmount, priceUnit: row.quotedPriceUnit };
    if (floor === null || perPiece(quoted, { amount: floor, priceUnit: row.priceUnit }) >= 0) {
      continue;
    }
    findings.push(
      finding(
        "QUOTE_BELOW_FLOOR",
        `${row.status} quote ${row.quoteId} of customer ${row.customerCode} quotes ` +
          `${per(row.quotedUnitAmount, row.quotedPriceUnit)} for product ${row.productCode} × ` +
          `${row.quantity}, below its floor ${per(floor, row.priceUnit)} in channel ` +
          `${row.channelCode} (FLOOR pricelist ${row.floorPricelistId}): honouring it sells ` +
          "below the floor, which no floor prevents",
        [
          ref.quote(row.quoteId),
          ref.product(row.productCode),
          ref.pricelist(row.floorPricelistId),
          ref.channel(row.channelCode),
        ],
      ),
    );
  }
  return findings;
}
