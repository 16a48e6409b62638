/**
 * Where webhooks may point (docs/api/feed-and-webhooks.md §14.5): https URLs whose host is, or
 * resolves only to, public addresses: none in a special-purpose block of the IANA IPv4 and IPv6
 * registries (private, loopback, link-local, shared, documentation, translation and tunnelling
 * prefixes, …), no IPv4 multicast, and for IPv6 only global unicast (2000::/3), so a webhook cannot
 * be aimed at the service's own network, directly or through an address that embeds one. Hosts
 * listed in WEBHOOK_ALLOWED_HOSTS (comma-separated; local development lists 127.0.0.1) skip the
 * checks and may use http. Checked when a webhook is saved and again before every delivery (a name
 * may resolve elsewhere by then).
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

/**
 * The IPv4 Special-Purpose Address Registry (IANA, as of 2025), every block refused whether or not
 * the registry calls it globally reachable (no webhook receiver lives on an AS112 or anycast
 * relay address), plus multicast, which the registry leaves to its own.
 */
const V4_BLOCKS: [string, string][] = [
  ["0.0.0.0/8", "“this network”"],
  ["0.0.0.0/32", "“this host on this network”"],
  ["10.0.0.0/8", "private use"],
  ["100.64.0.0/10", "shared address space (carrier-grade NAT)"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private use"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.0.0/29", "IPv4 service continuity prefix"],
  ["192.0.0.8/32", "IPv4 dummy address"],
  ["192.0.0.9/32", "PCP anycast"],
  ["192.0.0.10/32", "TURN anycast"],
  ["192.0.0.170/32", "NAT64/DNS64 discovery"],
  ["192.0.0.171/32", "NAT64/DNS64 discovery"],
  ["192.0.2.0/24", "documentation (TEST-NET-1)"],
  ["192.31.196.0/24", "AS112-v4"],
  ["192.52.193.0/24", "AMT"],
  ["192.88.99.0/24", "6to4 relay anycast (deprecated)"],
  ["192.88.99.2/32", "6a44 relay anycast"],
  ["192.168.0.0/16", "private use"],
  ["192.175.48.0/24", "direct delegation AS112 service"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation (TEST-NET-2)"],
  ["203.0.113.0/24", "documentation (TEST-NET-3)"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
  ["255.255.255.255/32", "limited broadcast"],
];

/**
 * The IPv6 Special-Purpose Address Registry (IANA, as of 2025), every block refused, plus the
 * deprecated IPv4-compatible and site-local prefixes and multicast. Outside 2000::/3 nothing is
 * public anyway (GLOBAL_UNICAST); the blocks there are listed for the message's sake.
 */
const V6_BLOCKS: [string, string][] = [
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::/96", "IPv4-compatible (deprecated)"],
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["64:ff9b::/96", "IPv4/IPv6 translation (NAT64)"],
  ["64:ff9b:1::/48", "local-use IPv4/IPv6 translation"],
  ["100::/64", "discard-only"],
  ["100:0:0:1::/64", "dummy IPv6 prefix"],
  ["2001::/23", "IETF protocol assignments"],
  ["2001::/32", "Teredo"],
  ["2001:1::1/128", "PCP anycast"],
  ["2001:1::2/128", "TURN anycast"],
  ["2001:1::3/128", "DNS-SD service registration anycast"],
  ["2001:2::/48", "benchmarking"],
  ["2001:3::/32", "AMT"],
  ["2001:4:112::/48", "AS112-v6"],
  ["2001:10::/28", "deprecated (formerly ORCHID)"],
  ["2001:20::/28", "ORCHIDv2"],
  ["2001:30::/28", "drone remote ID entity tags"],
  ["2001:db8::/32", "documentation"],
  ["2002::/16", "6to4"],
  ["2620:4f:8000::/48", "direct delegation AS112 service"],
  ["3fff::/20", "documentation"],
  ["5f00::/16", "segment routing (SRv6) SIDs"],
  ["fc00::/7", "unique local"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local (deprecated)"],
  ["ff00::/8", "multicast"],
];

const DOTTED = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/;

/** A dotted-quad IPv4 address as a number; undefined for anything else (no octal, no hex, no short forms). */
function v4Value(text: string): bigint | undefined {
  if (!DOTTED.test(text)) return undefined;
  return text.split(".").reduce((n, part) => (n << 8n) | BigInt(part), 0n);
}

/** The 16-bit groups of one side of `::`; a dotted IPv4 tail (`::ffff:10.0.0.1`) counts as two. */
function groupsOf(part: string, last: boolean): bigint[] | undefined {
  if (part === "") return [];
  const items = part.split(":");
  const groups: bigint[] = [];
  for (const [i, item] of items.entries()) {
    const v4 = last && i === items.length - 1 ? v4Value(item) : undefined;
    if (v4 !== undefined) groups.push(v4 >> 16n, v4 & 0xffffn);
    else if (HEX_GROUP.test(item)) groups.push(BigInt(`0x${item}`));
    else return undefined;
  }
  return groups;
}

/** An IPv6 address as a number: full, `::`-shortened or mixed notation; undefined otherwise (zones too). */
function v6Value(text: string): bigint | undefined {
  const halves = text.split("::");
  if (halves.length > 2) return undefined;
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (!head || !tail) return undefined;
  const count = head.length + tail.length;
  // Without `::` exactly eight groups; `::` stands for at least one group of zeros.
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const groups = [...head, ...Array<bigint>(8 - count).fill(0n), ...tail];
  return groups.reduce((n, group) => (n << 16n) | group, 0n);
}

interface Block {
  cidr: string;
  name: string;
  first: bigint;
  last: bigint;
  bits: number;
}

/** The blocks of a table, most specific first: an address is named by the narrowest it is in. */
function blocks(
  table: [string, string][],
  width: number,
  parse: (t: string) => bigint | undefined,
) {
  return table
    .map(([cidr, name]): Block => {
      const [network, length] = cidr.split("/");
      const bits = Number(length);
      const size = 1n << BigInt(width - bits);
      const first = (parse(network!)! / size) * size;
      return { cidr, name, first, last: first + size - 1n, bits };
    })
    .sort((a, b) => b.bits - a.bits);
}

const V4 = blocks(V4_BLOCKS, 32, v4Value);
const V6 = blocks(V6_BLOCKS, 128, v6Value);
/** 2000::/3: the only IPv6 space IANA hands out as global unicast. */
const GLOBAL_UNICAST = { first: 0x2n << 124n, last: (0x4n << 124n) - 1n };

const within = (value: bigint, block: Block) => value >= block.first && value <= block.last;

/**
 * Why an IP address (dotted IPv4, or IPv6 in any notation) is not a public one, as the end of a
 * sentence (`in 10.0.0.0/8, private use`); undefined when it is public. What does not parse is
 * not public.
 */
export function notPublic(address: string): string | undefined {
  const text = address.toLowerCase();
  const v4 = v4Value(text);
  const value = v4 ?? v6Value(text);
  if (value === undefined) return "not an IP address";
  const block = (v4 !== undefined ? V4 : V6).find((b) => within(value, b));
  if (block) return `in ${block.cidr}, ${block.name}`;
  if (v4 === undefined && (value < GLOBAL_UNICAST.first || value > GLOBAL_UNICAST.last)) {
    return "outside 2000::/3, the global unicast space";
  }
  return undefined;
}

const isIpLiteral = (host: string) => v4Value(host) !== undefined || host.includes(":");

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
  const forbidden = "a private or special-purpose address";
  if (isIpLiteral(host)) {
    const why = notPublic(host);
    return why ? `must not point to ${forbidden} (${host} is ${why})` : undefined;
  }
  // A trailing dot names the same host (`localhost.`).
  if (LOCAL_NAME.test(host.replace(/\.$/, "")))
    return `must not point to a local host name (${host})`;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `host ${host} could not be resolved (the DNS lookup failed); try again`;
  }
  if (!addresses.length) return `host ${host} does not resolve to an address`;
  for (const address of addresses) {
    const why = notPublic(address);
    if (why) return `must not resolve to ${forbidden} (${host} → ${address} is ${why})`;
  }
  return undefined;
}
