import { describe, expect, it } from "vitest";
import { refusal, type Resolve } from "../../src/webhooks/safety";

/**
 * Where webhooks may point (docs/api/feed-and-webhooks.md §14.5), held against the IANA
 * special-purpose address registries themselves: the tables below are copied from the IPv4 and IPv6
 * Special-Purpose Address Registries (as of 2025-10), not from the code. For every block, its
 * first, middle and last address are refused, as an IP literal in the URL and as a DNS answer for a
 * name; the address just before and just after it is accepted where it is public (in no block, and
 * for IPv6 inside 2000::/3, the global unicast space), refused otherwise.
 */

type Row = [block: string, name: string];

/** IANA IPv4 Special-Purpose Address Registry, every row. */
const IPV4_REGISTRY: Row[] = [
  ["0.0.0.0/8", '"This network"'],
  ["0.0.0.0/32", '"This host on this network"'],
  ["10.0.0.0/8", "Private-Use"],
  ["100.64.0.0/10", "Shared Address Space"],
  ["127.0.0.0/8", "Loopback"],
  ["169.254.0.0/16", "Link Local"],
  ["172.16.0.0/12", "Private-Use"],
  ["192.0.0.0/24", "IETF Protocol Assignments"],
  ["192.0.0.0/29", "IPv4 Service Continuity Prefix"],
  ["192.0.0.8/32", "IPv4 dummy address"],
  ["192.0.0.9/32", "Port Control Protocol Anycast"],
  ["192.0.0.10/32", "Traversal Using Relays around NAT Anycast"],
  ["192.0.0.170/32", "NAT64/DNS64 Discovery"],
  ["192.0.0.171/32", "NAT64/DNS64 Discovery"],
  ["192.0.2.0/24", "Documentation (TEST-NET-1)"],
  ["192.31.196.0/24", "AS112-v4"],
  ["192.52.193.0/24", "AMT"],
  ["192.88.99.0/24", "Deprecated (6to4 Relay Anycast)"],
  ["192.88.99.2/32", "6a44-relay anycast address"],
  ["192.168.0.0/16", "Private-Use"],
  ["192.175.48.0/24", "Direct Delegation AS112 Service"],
  ["198.18.0.0/15", "Benchmarking"],
  ["198.51.100.0/24", "Documentation (TEST-NET-2)"],
  ["203.0.113.0/24", "Documentation (TEST-NET-3)"],
  ["240.0.0.0/4", "Reserved"],
  ["255.255.255.255/32", "Limited Broadcast"],
];

/** IANA IPv6 Special-Purpose Address Registry, every row. */
const IPV6_REGISTRY: Row[] = [
  ["::1/128", "Loopback Address"],
  ["::/128", "Unspecified Address"],
  ["::ffff:0:0/96", "IPv4-mapped Address"],
  ["64:ff9b::/96", "IPv4-IPv6 Translat."],
  ["64:ff9b:1::/48", "IPv4-IPv6 Translat."],
  ["100::/64", "Discard-Only Address Block"],
  ["100:0:0:1::/64", "Dummy IPv6 Prefix"],
  ["2001::/23", "IETF Protocol Assignments"],
  ["2001::/32", "TEREDO"],
  ["2001:1::1/128", "Port Control Protocol Anycast"],
  ["2001:1::2/128", "Traversal Using Relays around NAT Anycast"],
  ["2001:1::3/128", "DNS-SD Service Registration Protocol Anycast"],
  ["2001:2::/48", "Benchmarking"],
  ["2001:3::/32", "AMT"],
  ["2001:4:112::/48", "AS112-v6"],
  ["2001:10::/28", "Deprecated (previously ORCHID)"],
  ["2001:20::/28", "ORCHIDv2"],
  ["2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix"],
  ["2001:db8::/32", "Documentation"],
  ["2002::/16", "6to4"],
  ["2620:4f:8000::/48", "Direct Delegation AS112 Service"],
  ["3fff::/20", "Documentation"],
  ["5f00::/16", "Segment Routing (SRv6) SIDs"],
  ["fc00::/7", "Unique-Local"],
  ["fe80::/10", "Link-Local Unicast"],
];

/** Refused too, though in no special-purpose registry: multicast, and deprecated IPv6 prefixes. */
const IPV4_ALSO: Row[] = [["224.0.0.0/4", "Multicast (RFC 5771)"]];
const IPV6_ALSO: Row[] = [
  ["::/96", "IPv4-compatible, deprecated (RFC 4291)"],
  ["fec0::/10", "Site-local, deprecated (RFC 3879)"],
  ["ff00::/8", "Multicast (RFC 4291)"],
];

// The test's own address arithmetic, apart from the code's.

const v4 = (text: string) => text.split(".").reduce((n, p) => n * 256n + BigInt(p), 0n);
const v4Text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join(".");

function v6(text: string) {
  const [head = "", tail] = text.split("::");
  const groups = (part: string) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return all.reduce((n, g) => n * 65536n + BigInt(`0x${g}`), 0n);
}
/** All eight groups, no `::`: the code must read the long form as well as the short. */
const v6Text = (n: bigint) =>
  Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(
    ":",
  );

interface Family {
  name: string;
  width: number;
  parse: (text: string) => bigint;
  text: (n: bigint) => string;
  rows: Row[];
  /** Public apart from the rows: IPv6 only inside 2000::/3. */
  space: (n: bigint) => boolean;
}

const IPV4: Family = {
  name: "IPv4",
  width: 32,
  parse: v4,
  text: v4Text,
  rows: [...IPV4_REGISTRY, ...IPV4_ALSO],
  space: () => true,
};
const IPV6: Family = {
  name: "IPv6",
  width: 128,
  parse: v6,
  text: v6Text,
  rows: [...IPV6_REGISTRY, ...IPV6_ALSO],
  space: (n) => n >> 125n === 1n,
};

function range(family: Family, block: string) {
  const [network, bits] = block.split("/");
  const size = 1n << BigInt(family.width - Number(bits));
  const first = family.parse(network!);
  return { first, last: first + size - 1n };
}

const isPublic = (family: Family, n: bigint) =>
  family.space(n) &&
  family.rows.every(([block]) => {
    const { first, last } = range(family, block);
    return n < first || n > last;
  });

/** A resolver that answers `addresses` for every name. */
const answering =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses;

const literalUrl = (family: Family, address: string) =>
  family === IPV4 ? `https://${address}/hook` : `https://[${address}]/hook`;

/** Whether the address is refused, as a URL's host and as the DNS answer for a name. */
async function refusedBoth(family: Family, address: string) {
  const literal = await refusal(literalUrl(family, address), new Set(), answering());
  const named = await refusal("https://hooks.example.com/x", new Set(), answering(address));
  return { literal, named };
}

const REFUSED_LITERAL = /^must not point to a private or special-purpose address \(.+ is .+\)$/;
const REFUSED_NAMED =
  /^must not resolve to a private or special-purpose address \(hooks\.example\.com → .+ is .+\)$/;

describe.each([IPV4, IPV6])("every special-purpose block of $name", (family) => {
  it.each(family.rows)("%s (%s): inside refused, public neighbours accepted", async (block) => {
    const { first, last } = range(family, block);
    const max = (1n << BigInt(family.width)) - 1n;
    for (const n of new Set([first, first + (last - first) / 2n, last])) {
      const { literal, named } = await refusedBoth(family, family.text(n));
      expect(literal, `${family.text(n)} in the URL`).toMatch(REFUSED_LITERAL);
      expect(named, `${family.text(n)} from DNS`).toMatch(REFUSED_NAMED);
    }
    for (const n of [first - 1n, last + 1n].filter((x) => x >= 0n && x <= max)) {
      const { literal, named } = await refusedBoth(family, family.text(n));
      if (isPublic(family, n)) {
        expect(literal, `${family.text(n)} in the URL`).toBeUndefined();
        expect(named, `${family.text(n)} from DNS`).toBeUndefined();
      } else {
        expect(literal, `${family.text(n)} in the URL`).toMatch(REFUSED_LITERAL);
        expect(named, `${family.text(n)} from DNS`).toMatch(REFUSED_NAMED);
      }
    }
  });
});

describe("IPv4 inside IPv6, and addresses written unusually", () => {
  it("refuses every IPv4 block wrapped in IPv6, in mixed notation as DNS answers give it", async () => {
    for (const [block] of IPV4.rows) {
      const inside = v4Text(range(IPV4, block).first);
      for (const wrapped of [`::ffff:${inside}`, `::${inside}`, `64:ff9b::${inside}`]) {
        const { named } = await refusedBoth(IPV6, wrapped);
        expect(named, wrapped).toMatch(REFUSED_NAMED);
      }
    }
  });

  it("refuses a public IPv4 address wrapped in IPv6 too: the wrapper is not global unicast", async () => {
    for (const wrapped of ["::ffff:93.184.216.34", "::93.184.216.34", "64:ff9b::93.184.216.34"]) {
      expect(await refusal("https://hooks.example.com/x", new Set(), answering(wrapped))).toMatch(
        REFUSED_NAMED,
      );
    }
  });

  it.each([
    // The address, how the URL parser writes it, and the block the message names.
    ["[::127.0.0.1]", "::7f00:1", "::/96, IPv4-compatible (deprecated)"],
    ["[::ffff:10.0.0.1]", "::ffff:a00:1", "::ffff:0:0/96, IPv4-mapped"],
    ["[64:ff9b::10.0.0.1]", "64:ff9b::a00:1", "64:ff9b::/96, IPv4/IPv6 translation (NAT64)"],
    ["[64:ff9b:1::1]", "64:ff9b:1::1", "64:ff9b:1::/48, local-use IPv4/IPv6 translation"],
    ["[2002:c0a8:101::1]", "2002:c0a8:101::1", "2002::/16, 6to4"],
    ["[2001:0:4136:e378::1]", "2001:0:4136:e378::1", "2001::/32, Teredo"],
    ["192.88.99.1", "192.88.99.1", "192.88.99.0/24, 6to4 relay anycast (deprecated)"],
    ["[::2]", "::2", "::/96, IPv4-compatible (deprecated)"],
    ["[4000::1]", "4000::1", undefined],
  ])("names the block of %s", async (host, written, block) => {
    const reason = await refusal(`https://${host}/x`, new Set(), answering());
    const why = block ? `in ${block}` : "outside 2000::/3, the global unicast space";
    expect(reason).toBe(
      `must not point to a private or special-purpose address (${written} is ${why})`,
    );
  });

  it("reads a mixed-notation DNS answer as the address it is", async () => {
    expect(
      await refusal("https://hooks.example.com/x", new Set(), answering("::ffff:10.0.0.1")),
    ).toBe(
      "must not resolve to a private or special-purpose address (hooks.example.com → ::ffff:10.0.0.1 is in ::ffff:0:0/96, IPv4-mapped)",
    );
    expect(
      await refusal(
        "https://hooks.example.com/x",
        new Set(),
        answering("2606:2800:220:1::1", "93.184.216.34"),
      ),
    ).toBeUndefined();
  });

  it.each([
    "010.0.0.1",
    "1.2.3",
    "fe80::1%eth0",
    "1::2::3",
    "12345::1",
    "::ffff:10.0.0.256",
    "1.2.3.4::",
  ])("refuses a DNS answer that is not an address (%s)", async (answer) => {
    expect(await refusal("https://hooks.example.com/x", new Set(), answering(answer))).toBe(
      `must not resolve to a private or special-purpose address (hooks.example.com → ${answer} is not an IP address)`,
    );
  });

  it("refuses local names with a trailing dot", async () => {
    expect(await refusal("https://localhost./x", new Set(), answering("93.184.216.34"))).toBe(
      "must not point to a local host name (localhost.)",
    );
  });
});
