import type { Instant, Validity } from "../types";
import { LINT_SEVERITY_OF, type LintCode, type Status } from "../vocabulary";
import type { TargetedProduct } from "../targeting";
import type { Finding, LintProduct, LintProductGroup, LintRecord } from "./types";

/**
 * The records in force (docs/pricing-lint.md §1): ACTIVE, and their window has not ended.
 * Every rule but EXPIRED_BUT_ACTIVE looks at these alone.
 */
export const inForce = (r: Validity & { status: Status }, now: Instant): boolean =>
  r.status === "ACTIVE" && (r.validTo === null || r.validTo > now);

export const finding = (code: LintCode, message: string, records: LintRecord[]): Finding => ({
  code,
  severity: LINT_SEVERITY_OF[code],
  message,
  records,
});

export const ref = {
  pricelist: (id: number): LintRecord => ({ kind: "pricelist", id }),
  tradeCondition: (id: number): LintRecord => ({ kind: "tradeCondition", id }),
  promotion: (id: number): LintRecord => ({ kind: "promotion", id }),
  quote: (id: number): LintRecord => ({ kind: "quote", id }),
  product: (code: string): LintRecord => ({ kind: "product", code }),
  productGroup: (code: string): LintRecord => ({ kind: "productGroup", code }),
  channel: (code: string): LintRecord => ({ kind: "channel", code }),
  customer: (code: string): LintRecord => ({ kind: "customer", code }),
  customerGroup: (code: string): LintRecord => ({ kind: "customerGroup", code }),
};

/** "12", "12 and 15", "12, 15 and 18". */
export function enumerate(items: readonly (string | number)[]): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Basis points as a percentage with two decimals at most, integers only: 1250 → "12.5 %". */
export function percent(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const cents = Math.abs(bp % 100);
  if (cents === 0) return `${whole} %`;
  return `${whole}.${String(cents).padStart(2, "0").replace(/0$/, "")} %`;
}

/** The part of a window from `now` on, as [start, end) with null for open. */
export function fromNow(v: Validity, now: Instant): { start: Instant; end: Instant | null } {
  return { start: v.validFrom === null ? now : Math.max(v.validFrom, now), end: v.validTo };
}

/** Whether `outer` is valid at every instant from now on at which `inner` is. */
export function covers(outer: Validity, inner: Validity, now: Instant): boolean {
  const { start, end } = fromNow(inner, now);
  const startsInTime = outer.validFrom === null || outer.validFrom <= start;
  const lastsLongEnough = outer.validTo === null || (end !== null && end <= outer.validTo);
  return startsInTime && lastsLongEnough;
}

/** Whether two windows share an instant from now on. */
export function overlap(a: Validity, b: Validity, now: Instant): boolean {
  const x = fromNow(a, now);
  const y = fromNow(b, now);
  const start = Math.max(x.start, y.start);
  return (x.end === null || start < x.end) && (y.end === null || start < y.end);
}

/**
 * The product-group forest: each group's path (itself, then each parent up to the root, as the
 * engine's `groupPath`) and whether it holds a product, itself or through a descendant.
 */
export class GroupTree {
  private readonly parent = new Map<string, string | null>();
  private readonly holding = new Set<string>();

  constructor(groups: readonly LintProductGroup[]) {
    for (const g of groups) this.parent.set(g.code, g.parentCode);
    for (const g of groups) {
      if (!g.hasOwnProducts) continue;
      for (const code of this.path(g.code)) this.holding.add(code);
    }
  }

  /** Itself first, then its ancestors; [] for no group. Stops at a cycle or after 8 steps. */
  path(code: string | null): string[] {
    const path: string[] = [];
    for (let at = code; at !== null && at !== undefined && path.length <= 8;) {
      if (path.includes(at)) break;
      path.push(at);
      at = this.parent.get(at) ?? null;
    }
    return path;
  }

  /** A product as the engine's targeting sees it (its codes in every dimension). */
  targeted(product: LintProduct): TargetedProduct {
    return {
      productCode: product.code,
      groupPath: this.path(product.groupCode),
      codes: product,
    };
  }

  holdsProducts(code: string): boolean {
    return this.holding.has(code);
  }
}

/** A deterministic order of findings: severity, code (vocabulary order), then the records. */
export function recordKey(r: LintRecord): string {
  return "id" in r ? `${r.kind}:${String(r.id).padStart(16, "0")}` : `${r.kind}:${r.code}`;
}
