/**
 * The currencies a price may be in, each with its ISO 4217 **exponent**: the number of decimals of
 * its minor unit, in which every amount of the API is an integer (docs/api/prices.md §16.1). EUR
 * 12.34 is 1234, JPY 1500 is 1500, KWD 1.234 is 1234.
 *
 * Source: ISO 4217 List One as published on 2024-06-25 (column "CcyMnrUnts"), plus the amendment
 * that added XCG (Caribbean guilder, 2 decimals, in use from 2025-03-31) in place of ANG.
 *
 * The codes are those of currencies in circulation: ZWG replaced ZWL, SLE replaced SLL, VED beside
 * VES. Left out on purpose: codes that list still carried but that are withdrawn (ANG for XCG,
 * BGN for the euro, CUC since Cuba's 2021 currency unification), fund and accounting units (BOV,
 * CHE, CHW, CLF, COU, MXV, USN, UYI, UYW, XDR, XSU, XUA, XBA-XBD), precious metals (XAU, XAG, XPD,
 * XPT), and the "testing" and "no currency" codes XTS and XXX: nothing is sold in them.
 *
 * The one list: src/core/currencies.ts accepts exactly these codes, GET /v1/api/currencies
 * answers this table, the back-office page formats amounts with it. A new ISO amendment is one
 * code in one of the strings below (and its test in test/resources/currencies.test.ts).
 */

/** Currencies without a minor unit: amounts are whole units. */
const EXPONENT_0 = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF";

/** Currencies whose minor unit is a thousandth. */
const EXPONENT_3 = "BHD IQD JOD KWD LYD OMR TND";

/** Every other currency in circulation: cents (hundredths). */
const EXPONENT_2 =
  "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF " +
  "CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD " +
  "HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA " +
  "MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN " +
  "QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP " +
  "TRY TTD TWD TZS UAH USD UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG";

/** A minor unit's decimals: 0, 2 or 3 for every currency in circulation. */
export type Exponent = 0 | 2 | 3;

const entries = (codes: string, exponent: Exponent) =>
  codes.split(" ").map((code) => [code, exponent] as const);

/** Every accepted currency by code, in code order. */
export const CURRENCY_EXPONENTS: ReadonlyMap<string, Exponent> = new Map(
  [...entries(EXPONENT_0, 0), ...entries(EXPONENT_2, 2), ...entries(EXPONENT_3, 3)].sort(
    ([a], [b]) => (a < b ? -1 : 1),
  ),
);

/** The exponent of an accepted currency; undefined for any other code. */
export const exponentOf = (code: string): Exponent | undefined => CURRENCY_EXPONENTS.get(code);
