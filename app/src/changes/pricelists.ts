import { api, type Schemas, unwrap } from "../lib/api";
import { useLoad } from "../lib/hooks";
import { formatMoney } from "../lib/money";
import type { ChangeRequest } from "./lifecycle";

export type Pricelist = Schemas["Pricelist"];

/**
 * The pricelists whose rows a change request may change: the first 100 by id that are not
 * ARCHIVED (an ARCHIVED list can no longer be edited), for the forms' pricelist choice.
 */
export const useEditablePricelists = () =>
  useLoad(async (signal) => {
    const page = await unwrap(
      api.GET("/v1/api/pricelist", {
        params: { query: { limit: 100, sortBy: ["id:ASC"] } },
        signal,
      }),
    );
    return page.data.filter((p) => p.status !== "ARCHIVED");
  }, []);

/** "100 · Retail DE (EUR, ACTIVE)" */
export const pricelistLabel = (p: Pricelist) => `${p.id} · ${p.name} (${p.currency}, ${p.status})`;

/** The pricelists a request's items name, by id (its price items' lists and its list targets). */
export function pricelistIdsOf(request: ChangeRequest): number[] {
  const ids = request.items.flatMap((item) =>
    item.kind === "SET_PRICES" || item.kind === "ADJUST_PRICES"
      ? [item.pricelistId]
      : item.target.kind === "pricelist"
        ? [item.target.id]
        : [],
  );
  return [...new Set(ids)];
}

/** The named pricelists, read one by one (a request names few), by id; one gone is left out. */
export const useNamedPricelists = (ids: readonly number[]) =>
  useLoad(
    async (signal) => {
      const found = await Promise.all(
        ids.map((id) =>
          unwrap(api.GET("/v1/api/pricelist/{id}", { params: { path: { id } }, signal })).catch(
            (error: unknown) => {
              if (signal.aborted) throw error;
              return null;
            },
          ),
        ),
      );
      return new Map(found.flatMap((p) => (p ? [[p.id, p] as const] : [])));
    },
    [ids.join(",")],
  );

/**
 * How the request's amounts are shown: in the currency of its pricelists when they have one and
 * nothing else moves (a trade condition or promotion may price in any channel's currency), else
 * as integers of minor units, said so.
 */
export function amountFormat(
  request: ChangeRequest,
  lists: ReadonlyMap<number, Pricelist>,
): { currency: string | null; format: (amount: number, signed?: boolean) => string } {
  const currencies = new Set([...lists.values()].map((p) => p.currency));
  const others = request.items.some(
    (i) => (i.kind === "ACTIVATE" || i.kind === "DEACTIVATE") && i.target.kind !== "pricelist",
  );
  const currency = currencies.size === 1 && !others ? [...currencies][0]! : null;
  if (currency) return { currency, format: (n, signed) => formatMoney(n, currency, signed) };
  return {
    currency: null,
    format: (n, signed) => `${signed && n > 0 ? "+" : ""}${n} (minor units)`,
  };
}
