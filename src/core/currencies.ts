import { CURRENCY_EXPONENTS } from "../pricing/currencies";

/**
 * The currencies a price may be in: the ISO 4217 codes of currencies in circulation, exactly the
 * codes of the exponent table in src/pricing/currencies.ts (the one list, with its source and
 * what it leaves out on purpose).
 */
export const CURRENCIES: ReadonlySet<string> = new Set(CURRENCY_EXPONENTS.keys());

export const isCurrency = (code: string) => CURRENCIES.has(code);
