import type { PriceAnswer } from "../../pricing";
import { LINE_FIELDS } from "./prices.schemas";
import type { CartRequest } from "./prices.service";

/**
 * The answer with each line cut to the cart's `select` (docs/api/prices.md §9): productCode,
 * quantity and status (the first three fields), the selected fields, and explain and ladder when
 * the cart asks for them, in the answer's order. A field the line does not carry (cost and margin
 * for a read key, docs/api/access.md §18) stays absent. HTTP shaping only: the engine is as ever.
 */
export function selectLines(answer: PriceAnswer, cart: CartRequest) {
  if (!cart.select) return answer;
  const chosen = [...cart.select, cart.explain && "explain", cart.ladder && "ladder"];
  const keys = LINE_FIELDS.filter((key, i) => i < 3 || chosen.includes(key));
  const lines = answer.lines.map((line) => {
    const picked: Record<string, unknown> = {};
    for (const key of keys) if (key in line) picked[key] = line[key as keyof typeof line];
    return picked as Pick<typeof line, "productCode" | "quantity" | "status">;
  });
  return { ...answer, lines };
}
