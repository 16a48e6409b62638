import type { Db } from "../../db/client";
import { SEES_ALL } from "../../db/visibility";
import { ApiError, invalid, type FieldIssue } from "../../core/errors";
import { resolvePrices, type Adjustment, type LinePrice } from "../../pricing";
import { AmountOutOfRange, scale } from "../../pricing/money";
import { cutBpOf, quoteMarginBpOf } from "../../pricing/quotes";
import { prepareCart } from "../prices/prices.service";
import type { NewQuoteLine } from "./quotes.repo";
import type { QuoteLineInput } from "./quotes.schemas";

/*
 * Pricing a quote (docs/quotes.md §2): all its lines as ONE resolve of its customer in its
 * channel would price them now (order-level scales and thresholds count the whole quote), with
 * the service's own resolve (prices.service.ts) and the pure engine, and each line judged: its
 * cut into the regular price and the margin the quoted price leaves (src/pricing/quotes.ts).
 */

/** A stored adjustment: as priced for an admin key, marked when a read key's answer omits its id. */
export type StoredAdjustment = Adjustment & { hidden?: true };

export interface PricedQuote {
  currency: string;
  lines: NewQuoteLine[];
  totalAmount: number;
}

export interface QuoteParties {
  customerCode: string;
  channelCode: string;
}

/** 422 `code`, naming each field in `errors`. */
export const unprocessable = (code: string, detail: string, errors: FieldIssue[]) =>
  new ApiError(422, code, detail, errors);

/** The line's effective floor: the FLOOR list explain names USED, per the line's price unit. */
const floorOf = (line: LinePrice) =>
  line.explain?.floors.find((floor) => floor.outcome === "USED")?.effectiveAmount ?? null;

/** Unknown products and a product named twice: 400 naming each line's productCode. */
export function lineIssues(
  lines: readonly QuoteLineInput[],
  productIds: ReadonlyMap<string, number>,
): FieldIssue[] {
  const first = new Map<string, number>();
  return lines.flatMap((line, i) => {
    const path = `body.lines.${i}.productCode`;
    if (!productIds.has(line.productCode)) {
      return [{ path, message: `unknown product ${line.productCode}` }];
    }
    const earlier = first.get(line.productCode);
    if (earlier !== undefined) {
      return [{ path, message: `names product ${line.productCode} again (also lines.${earlier})` }];
    }
    first.set(line.productCode, i);
    return [];
  });
}

/**
 * Prices and judges `lines` for the parties now: 404/409 as a resolve answers them (unknown or
 * inactive channel, customer not in the channel), 422 LINE_NOT_PRICED naming each line that is
 * not OK, 422 BELOW_FLOOR naming each quoted price under its line's floor.
 */
export async function priceQuote(
  db: Db,
  parties: QuoteParties,
  lines: readonly QuoteLineInput[],
  productIds: ReadonlyMap<string, number>,
): Promise<PricedQuote> {
  const { request } = await prepareCart(
    db,
    {
      channelCode: parties.channelCode,
      customerCode: parties.customerCode,
      explain: true,
      // Judged with everything (cost, the floors derived from it); what a key sees of the
      // result is the quote view's (docs/quotes.md §2).
      scope: SEES_ALL,
      lines: lines.map(({ productCode, quantity }) => ({ productCode, quantity })),
      location: "body",
    },
    { cache: false },
  );
  // The regular price is the customer's without any quote: an accepted agreement does not lower
  // the price a new quote's cut is judged against (docs/quotes.md §2).
  const answer = resolvePrices({ ...request, quotes: [] });
  const hiddenFloors = new Set(request.floors.filter((f) => f.derivation).map((f) => f.id));
  const notPriced = answer.lines.flatMap((line, i) =>
    line.status === "OK"
      ? []
      : [
          {
            path: `body.lines.${i}`,
            message: `is ${line.status} for ${parties.customerCode} in ${parties.channelCode}`,
          },
        ],
  );
  if (notPriced.length) {
    throw unprocessable(
      "LINE_NOT_PRICED",
      `${notPriced.length} line(s) of the quote have no price for this customer now; see errors`,
      notPriced,
    );
  }
  const priced = answer.lines.map((line, i) => {
    try {
      return judgeLine(line, lines[i]!, i, productIds, request.roundingMode, hiddenFloors);
    } catch (error) {
      if (!(error instanceof AmountOutOfRange)) throw error;
      throw invalid([
        {
          path: `body.lines.${i}.unitAmount`,
          message: "makes a line amount over 2^53 − 1 minor units",
        },
      ]);
    }
  });
  const below = priced.flatMap((line, i) =>
    line.floorUnitAmount != null && line.floorUnitAmount > line.quotedUnitAmount
      ? [
          {
            path: `body.lines.${i}.unitAmount`,
            message: `is below the floor of ${line.floorUnitAmount}`,
          },
        ]
      : [],
  );
  if (below.length) {
    const detail = below.map((issue) => `${issue.path.slice(5)} ${issue.message}`).join("; ");
    throw unprocessable(
      "BELOW_FLOOR",
      `a quoted price is below its line's floor: ${detail}`,
      below,
    );
  }
  const totalAmount = priced.reduce((sum, line) => sum + line.lineAmount, 0);
  if (!Number.isSafeInteger(totalAmount)) {
    throw invalid([
      { path: "body.lines", message: "the quote's total exceeds 2^53 − 1 minor units" },
    ]);
  }
  return { currency: answer.currency, lines: priced, totalAmount };
}

function judgeLine(
  line: LinePrice,
  input: QuoteLineInput,
  position: number,
  productIds: ReadonlyMap<string, number>,
  rounding: Parameters<typeof scale>[3],
  hiddenFloors: ReadonlySet<number>,
): NewQuoteLine {
  const regular = line.finalUnitAmount!;
  const priceUnit = line.priceUnit ?? 1;
  const quoted = input.unitAmount ?? regular;
  const cost = line.costUnitAmount ?? null;
  const adjustments: StoredAdjustment[] = line.adjustments.map((a) =>
    a.kind === "FLOOR" && a.id !== null && hiddenFloors.has(a.id) ? { ...a, hidden: true } : a,
  );
  return {
    position,
    productId: productIds.get(input.productCode)!,
    quantity: input.quantity,
    regularUnitAmount: regular,
    priceUnit,
    floorUnitAmount: floorOf(line),
    quotedUnitAmount: quoted,
    lineAmount: scale(quoted, input.quantity, priceUnit, rounding),
    cutBp: cutBpOf(regular, quoted),
    marginBp: quoteMarginBpOf(quoted, cost),
    costUnitAmount: cost,
    adjustments: JSON.stringify(adjustments),
  };
}
