/**
 * Which addresses a sandboxed command may reach through the proxy by name: public unicast only.
 * IPv4: everything but this-network, private, shared (CGNAT), loopback, link-local, IETF, benchmark,
 * multicast and reserved ranges. IPv6: only global unicast (2000::/3), less 6to4 and Teredo (they
 * carry an IPv4 address inside) and the documentation range; so `::1`, `::`, `fe80::`, `fc00::`,
 * IPv4-mapped (`::ffff:127.0.0.1`), IPv4-compatible and NAT64 (`64:ff9b::`) forms are all refused
 * without a list of their own to keep up to date.
 */
import { isIP } from "node:net";

const privateV4: readonly [number, number][] = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16
  [0xac100000, 12], // 172.16/12
  [0xc0000000, 24], // 192.0.0/24
  [0xc0000200, 24], // 192.0.2/24
  [0xc0a80000, 16], // 192.168/16
  [0xc6120000, 15], // 198.18/15
  [0xc6336400, 24], // 198.51.100/24
  [0xcb007100, 24], // 203.0.113/24
  [0xe0000000, 4], // 224/4 multicast
  [0xf0000000, 4], // 240/4 reserved, broadcast
];

function v4Number(address: string): number {
  return address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

/** The eight 16-bit groups of an IPv6 address (with any dotted IPv4 tail). */
function v6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

export function isPublicAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) {
    const n = v4Number(address);
    return !privateV4.some(([base, bits]) => n >>> (32 - bits) === base >>> (32 - bits));
  }
  if (kind !== 6) return false;
  const g = v6Groups(address);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return false;
  if ((g[0] & 0xe000) !== 0x2000) return false; // not 2000::/3
  if (g[0] === 0x2002) return false; // 6to4
  if (g[0] === 0x2001 && (g[1] === 0 || g[1] === 0x0db8)) return false; // Teredo, documentation
  return true;
}
