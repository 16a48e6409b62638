import { z } from "@hono/zod-openapi";
import { Currency } from "../../core/schemas";
import { listOf } from "../../list";

const currencyExample = { code: "EUR", exponent: 2 };

export const CurrencySchema = z
  .object({
    code: Currency.openapi({ example: "EUR", description: "The ISO 4217 code" }),
    exponent: z
      .number()
      .int()
      .openapi({
        example: 2,
        description:
          "The decimals of its minor unit (ISO 4217): amounts in this currency are integers of " +
          "10^-exponent units (EUR 2: 1234 is 12.34; JPY 0: 1500 is 1500; KWD 3: 1234 is 1.234)",
      }),
  })
  .openapi("CurrencyMinorUnit", {
    description: "A currency the API accepts, with the exponent of its minor unit",
    example: currencyExample,
  });

export const CurrencyListSchema = listOf(CurrencySchema, "CurrencyList", {
  path: "/v1/api/currencies",
  data: [currencyExample, { code: "JPY", exponent: 0 }, { code: "KWD", exponent: 3 }],
});
