/**
 * The currencies a price may be in: the ISO 4217 codes of currencies in circulation (the
 * standard's list as amended up to 2025: XCG replaced ANG, ZWG replaced ZWL, SLE replaced SLL,
 * VED beside VES). Left out on purpose: fund and accounting units (BOV, CHE, CHW, CLF, COU, MXV,
 * USN, UYI, UYW, XDR, XSU, XUA, XBA-XBD), precious metals (XAU, XAG, XPD, XPT), and the
 * "testing" and "no currency" codes XTS and XXX: nothing is sold in them. A new ISO amendment is
 * one line here (and its test).
 */
export const CURRENCIES: ReadonlySet<string> = new Set(
  (
    "AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD " +
    "CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS " +
    "GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW " +
    "KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR " +
    "MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR " +
    "SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX " +
    "USD UYU UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG"
  ).split(" "),
);

export const isCurrency = (code: string) => CURRENCIES.has(code);
