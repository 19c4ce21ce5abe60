/**
 * What kind of network a URL's host is on, read from the host as written:
 * an IP literal by its range, a name by the names reserved for the local
 * machine, the local network and cloud metadata services. Names are not
 * resolved (the core has no DNS, and an extension cannot resolve a name
 * before it asks for it): `intranet.example.com` pointing at 10.0.0.1 reads
 * as public. Odd IPv4 spellings (`2130706433`, `0x7f000001`, `0177.0.0.1`,
 * `127.1`) are canonicalised by the WHATWG URL parser before they get here,
 * as the browser does before it connects. Pure.
 * @see https://wicg.github.io/private-network-access/#ip-address-space (the ranges a browser treats as private)
 * @see RFC 6761 §6.3 (`localhost`), RFC 6762 appendix G (`local`, `lan`, `internal`…), RFC 8375 (`home.arpa`)
 */

/**
 * `public`: anywhere on the Internet. `loopback`: this machine. `private`: the local network (RFC 1918,
 * CGNAT, unique local IPv6, names only a local resolver knows). `link-local`: the local link.
 * `metadata`: a cloud instance's metadata service (credentials live there). `unspecified`: 0.0.0.0 or
 * `::`, which reach this machine on Linux and macOS.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified';

/** Host names of cloud metadata services (AWS, GCP, Azure, Alibaba, OpenStack), lower case, no trailing dot. */
const METADATA_NAMES: ReadonlySet<string> = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.azure.internal',
]);

/** Top-level names used only on local networks (a public resolver has none of them). */
const LOCAL_SUFFIXES = [
  'local',
  'localdomain',
  'lan',
  'home',
  'internal',
  'intranet',
  'private',
  'corp',
  'home.arpa',
] as const;

/**
 * The class of a host: a URL's `hostname` (IPv6 in brackets or not), in any case, a trailing dot allowed.
 * A text that is not a valid host is `public` (it names no address this rule knows).
 */
export function addressClassOf(hostname: string): AddressClass {
  const canonical = canonicalHost(hostname);
  if (canonical === null) return 'public';
  if (canonical.startsWith('[')) return ipv6Class(canonical.slice(1, -1));
  const v4 = parseIpv4(canonical);
  if (v4 !== null) return ipv4Class(v4);
  const name = canonical.endsWith('.') ? canonical.slice(0, -1) : canonical;
  if (name === 'localhost' || name.endsWith('.localhost')) return 'loopback';
  if (METADATA_NAMES.has(name)) return 'metadata';
  // A name of one label (`router`, `nas`) is looked up on the local network's own names.
  if (!name.includes('.')) return 'private';
  if (LOCAL_SUFFIXES.some((suffix) => name.endsWith(`.${suffix}`))) return 'private';
  return 'public';
}

/** Whether the host is anything but {@link AddressClass} `public`. */
export function isPrivateHost(hostname: string): boolean {
  return addressClassOf(hostname) !== 'public';
}

/** The class of an http(s) URL's or origin's host; `public` when it is not a URL. */
export function addressClassOfUrl(url: string): AddressClass {
  try {
    return addressClassOf(new URL(url).hostname);
  } catch {
    return 'public';
  }
}

/** The host as the URL parser writes it (lower case, IPv4 in dotted decimal, IPv6 compressed in brackets), or null. */
function canonicalHost(hostname: string): string | null {
  const bracketed = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    return null;
  }
}

/** A dotted-decimal IPv4 address as a 32-bit number, or null. */
function parseIpv4(host: string): number | null {
  const parts = host.split('.');
  if (parts.length !== 4 || parts.some((part) => !/^\d{1,3}$/.test(part) || Number(part) > 255)) return null;
  return parts.reduce((value, part) => value * 256 + Number(part), 0);
}

/** Whether `address` is in `base`/`bits`. */
function inV4(address: number, base: string, bits: number): boolean {
  const start = parseIpv4(base) ?? 0;
  const size = 2 ** (32 - bits);
  return address >= start && address < start + size;
}

function ipv4Class(address: number): AddressClass {
  if (inV4(address, '0.0.0.0', 8)) return 'unspecified';
  if (inV4(address, '127.0.0.0', 8)) return 'loopback';
  if (address === parseIpv4('169.254.169.254') || address === parseIpv4('100.100.100.200')) return 'metadata';
  if (inV4(address, '169.254.0.0', 16)) return 'link-local';
  const isPrivate =
    inV4(address, '10.0.0.0', 8) ||
    inV4(address, '172.16.0.0', 12) ||
    inV4(address, '192.168.0.0', 16) ||
    inV4(address, '100.64.0.0', 10) ||
    inV4(address, '198.18.0.0', 15);
  return isPrivate ? 'private' : 'public';
}

/** The eight 16-bit groups of a compressed IPv6 address as the URL parser writes it (hex only), or null. */
function ipv6Groups(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const read = (half: string | undefined): number[] =>
    half === undefined || half === '' ? [] : half.split(':').map((group) => parseInt(group, 16));
  const head = read(halves[0]);
  const tail = read(halves[1]);
  const groups =
    halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

function ipv6Class(text: string): AddressClass {
  const groups = ipv6Groups(text);
  if (groups === null) return 'public';
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = (high: number, low: number): number => high * 65_536 + low;
  const leadingZeros = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (leadingZeros && g5 === 0 && g6 === 0 && g7 === 0) return 'unspecified';
  if (leadingZeros && g5 === 0 && g6 === 0 && g7 === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d): the IPv4 address inside.
  if (leadingZeros && (g5 === 0xffff || g5 === 0)) return ipv4Class(embedded(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Class(embedded(g6, g7));
  // 6to4 (2002:AABB:CCDD::): the IPv4 address in its second and third groups.
  if (g0 === 0x2002) {
    const inner = ipv4Class(embedded(g1, g2));
    if (inner !== 'public') return inner;
  }
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254)
    return 'metadata';
  if ((g0 & 0xfe00) === 0xfc00) return 'private';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  // Site-local (fec0::/10): deprecated, still routed on old networks.
  if ((g0 & 0xffc0) === 0xfec0) return 'private';
  return 'public';
}
