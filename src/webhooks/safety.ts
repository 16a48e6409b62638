/**
 * Where webhooks may point (docs/api.md §14.5): https URLs whose host does not resolve to a
 * private, loopback, link-local or otherwise reserved address, so a webhook cannot be aimed at
 * the service's own network. Hosts listed in WEBHOOK_ALLOWED_HOSTS (comma-separated; local
 * development lists 127.0.0.1) skip the checks and may use http. Checked when a webhook is
 * saved and again before every delivery (a name may resolve elsewhere by then).
 */

/** Hosts from the variable, lower-cased, IPv6 without brackets. */
export function allowedHosts(value: string | undefined): Set<string> {
  const hosts = (value ?? "").split(",").map((h) =>
    h
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, ""),
  );
  return new Set(hosts.filter(Boolean));
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** [network, prefix length] of the IPv4 ranges that are not the public internet. */
const PRIVATE_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

const v4Number = (address: string) => {
  const parts = IPV4.exec(address)!.slice(1).map(Number);
  return parts.reduce((n, part) => n * 256 + part, 0);
};

function privateV4(address: string): boolean {
  const n = v4Number(address);
  return PRIVATE_V4.some(([network, bits]) => {
    const size = 2 ** (32 - bits);
    return Math.floor(n / size) === Math.floor(v4Number(network) / size);
  });
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (hex, maybe `::`). */
function v6Groups(address: string): number[] | undefined {
  const [head, tail, more] = address.split("::");
  if (more !== undefined) return undefined;
  const parse = (part: string | undefined) =>
    part ? part.split(":").map((g) => parseInt(g, 16)) : [];
  const left = parse(head);
  const right = parse(tail);
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : undefined;
}

function privateV6(address: string): boolean {
  const g = v6Groups(address);
  if (!g) return true;
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  const embedded = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  if (zeroPrefix(5) && g[5] === 0xffff) return privateV4(embedded); // IPv4-mapped
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (nat64) return privateV4(embedded);
  return (
    zeroPrefix(7) || // :: and ::1
    (g[0]! & 0xfe00) === 0xfc00 || // unique local
    (g[0]! & 0xffc0) === 0xfe80 || // link-local
    (g[0]! & 0xffc0) === 0xfec0 || // site-local (deprecated)
    (g[0]! & 0xff00) === 0xff00 || // multicast
    (g[0] === 0x2001 && g[1] === 0x0db8) // documentation
  );
}

/** Whether an IP address (v4 dotted or v6) is not on the public internet. */
export const isPrivateAddress = (address: string) =>
  IPV4.test(address) ? privateV4(address) : privateV6(address.toLowerCase());

const isIpLiteral = (host: string) => IPV4.test(host) || host.includes(":");

/** Names that never leave the machine or the site, refused without asking DNS. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|localdomain)$/;

/** A resolver: the A and AAAA addresses of a name; throws when the lookup itself fails. */
export type Resolve = (host: string) => Promise<string[]>;

const DOH = "https://cloudflare-dns.com/dns-query";

/** Answers kept for a minute per isolate: a delivery re-checks its host without a lookup each time. */
const RESOLVED_TTL_MS = 60_000;
const resolved = new Map<string, { at: number; addresses: string[] }>();

/** DNS over HTTPS (Cloudflare's resolver, JSON API): Workers have no other DNS. */
export const resolveOverHttps: Resolve = async (host) => {
  const cached = resolved.get(host);
  if (cached && Date.now() - cached.at < RESOLVED_TTL_MS) return cached.addresses;
  const lookups = ["A", "AAAA"].map(async (type) => {
    const res = await fetch(`${DOH}?name=${encodeURIComponent(host)}&type=${type}`, {
      headers: { accept: "application/dns-json" },
    });
    if (!res.ok) throw new Error(`DNS lookup answered ${res.status}`);
    const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
    return (body.Answer ?? []).filter((a) => a.type === 1 || a.type === 28).map((a) => a.data);
  });
  const addresses = (await Promise.all(lookups)).flat();
  resolved.set(host, { at: Date.now(), addresses });
  return addresses;
};

/**
 * No lookup at all, for local development without a network (`npm run dev` sets WEBHOOK_DNS to
 * "offline" when it finds none): a failed outbound fetch makes the runtime log a stack trace per
 * lookup, so names are refused as unresolvable with one sentence in the log instead.
 */
export const offlineResolve: Resolve = async (host) => {
  console.warn(
    JSON.stringify({
      warning:
        `webhook host ${host} was not looked up: WEBHOOK_DNS is "offline" (npm run dev found ` +
        "no network); point webhooks at a host of WEBHOOK_ALLOWED_HOSTS",
    }),
  );
  throw new Error("offline");
};

/** Where a deployment's webhooks may point: hosts that skip the checks, and how names resolve. */
export interface TargetRules {
  allowed: Set<string>;
  resolve: Resolve;
}

export const targetRules = (env: {
  WEBHOOK_ALLOWED_HOSTS?: string;
  WEBHOOK_DNS?: string;
}): TargetRules => ({
  allowed: allowedHosts(env.WEBHOOK_ALLOWED_HOSTS),
  resolve: env.WEBHOOK_DNS?.trim() === "offline" ? offlineResolve : resolveOverHttps,
});

/**
 * Why `url` may not receive webhooks, as a sentence about the URL; undefined when it may.
 * `resolve` asks DNS for names (tests pass their own).
 */
export async function refusal(
  url: string,
  allowed: Set<string>,
  resolve: Resolve = resolveOverHttps,
): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "must be an absolute https URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return "must be an absolute https URL";
  }
  if (parsed.username || parsed.password) return "must not carry a user name or password";
  const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (allowed.has(host)) return undefined;
  if (parsed.protocol !== "https:") {
    return `must use https (http only for hosts in WEBHOOK_ALLOWED_HOSTS)`;
  }
  // Deployed Workers send https requests to port 443 whatever the URL says.
  if (parsed.port) return "must use the https port 443 (no other port is reachable from Workers)";
  return addressRefusal(host, resolve);
}

async function addressRefusal(host: string, resolve: Resolve): Promise<string | undefined> {
  const forbidden = "a private, loopback or link-local address";
  if (isIpLiteral(host)) {
    return isPrivateAddress(host) ? `must not point to ${forbidden} (${host})` : undefined;
  }
  if (LOCAL_NAME.test(host)) return `must not point to a local host name (${host})`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `host ${host} could not be resolved (the DNS lookup failed); try again`;
  }
  if (!addresses.length) return `host ${host} does not resolve to an address`;
  const bad = addresses.find(isPrivateAddress);
  return bad ? `must not resolve to ${forbidden} (${host} → ${bad})` : undefined;
}
