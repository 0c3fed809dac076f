/**
 * @module The zones both servers load: a parent zone using every record type the API accepts,
 * wildcards, empty non-terminals, CNAME chains, delegations with glue and DS, and a nested child
 * zone hosted beside it. Names are lowercase (BIND keeps rdata case, the API lowercases names).
 */

const HEX64 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
const B64 =
  'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ=='

/** CNAMEs in the `long0` chain: more than the project follows, fewer than BIND's limit of 11. */
export const LONG_CHAIN = 10

/** In-domain name servers of the `wide` delegation: more than the 13 a UDP referral used to keep. */
export const WIDE_NS = 15

/** Names both files share: the parent zone and the child zone nested in it. */
export interface ZoneNames {
  parent: string
  child: string
  /** A zone neither server hosts, used as an out-of-zone CNAME target. */
  outside: string
}

export function zoneNames(suffix: string): ZoneNames {
  const parent = `bd${suffix}.example`
  return { parent, child: `child.${parent}`, outside: 'www.example.net' }
}

/**
 * The parent zone's records, without SOA and apex NS (those come from the project's zone
 * settings, so BIND serves exactly what the project assigns). `; cf_tags=cf-proxied:true` is read by
 * the API's importer and ignored by BIND. The two copies differ only in how they spell one string.
 */
export function parentBody(z: ZoneNames, options: { forBind: boolean }): string {
  const long = Array.from(
    { length: LONG_CHAIN },
    (_, i) => `long${i} 300 CNAME ${i + 1 < LONG_CHAIN ? `long${i + 1}` : 'www'}`
  )
  const wide = Array.from(
    { length: WIDE_NS },
    (_, i) => `wide 3600 NS ns${i + 1}.wide\nns${i + 1}.wide 3600 A 198.51.100.${i + 1}`
  )
  return `$ORIGIN ${z.parent}.
$TTL 3600
@            300  TXT   "v=spf1 -all"
@            300  TXT   "emoji 😀 and é"
@            3600 MX    10 mail
@            3600 MX    20 mail.example.net.
@            300  CAA   0 issue "letsencrypt.org"
@            300  CAA   128 iodef "mailto:sec😀@example.net"
@            300  HTTPS 1 . alpn="h2,h3" port=443
@            3600 DNSKEY 257 3 13 ${B64}
@            3600 CERT  1 12345 8 ${B64}
@            300  NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp
@            300  NAPTR 200 10 "U" "E2U+sip" "!^.*$!sip:😀@example.net!" .
@            300  SSHFP 4 2 ${HEX64}
@            300  A     192.0.2.10
@            300  AAAA  2001:db8::10
www          300  A     192.0.2.11
www          300  A     192.0.2.12
www          600  AAAA  2001:db8::11
mail         300  A     192.0.2.25
proxied      300  A     203.0.113.50 ; cf_tags=cf-proxied:true
proxied6     300  AAAA  2001:db8::50 ; cf_tags=cf-proxied:true
txt          300  TXT   "first" "second \\"quoted\\"" "tab\\009end"
txt          300  TXT   ${longText(options.forBind)}
loc          300  LOC   37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m
ptr          300  PTR   host.example.net.
svc          300  SVCB  2 svc.example.net. alpn="h3" port=8443 key667="😀"
_sip._udp    300  SRV   10 5 5060 sip.example.net.
_sip._tcp    300  SRV   20 0 5061 mail
_http._tcp   300  URI   10 1 "https://www.example.net/😀"
_443._tcp.www 300 TLSA  3 1 1 ${HEX64}
c0ffee._openpgpkey 300 OPENPGPKEY ${B64}
beef._smimecert 300 SMIMEA 3 1 1 ${HEX64}
a.b.ent      300  A     192.0.2.30
*.wild       300  A     192.0.2.40
*.wild       300  TXT   "wildcard"
host.wild    300  A     192.0.2.41
x.y.ent2     300  A     192.0.2.42
*.ent2       300  A     192.0.2.43
*.cnwild     300  CNAME www
c1           300  CNAME c2
c2           600  CNAME c3
c3           120  CNAME www
dangling     300  CNAME nothing
toout        300  CNAME ${z.outside}.
towild       300  CNAME foo.wild
tochild      300  CNAME www.${z.child}.
todeleg      300  CNAME host.deleg
${long.join('\n')}
loop1        300  CNAME loop2
loop2        300  CNAME loop1
deleg        3600 NS    ns1.deleg
deleg        3600 NS    ns2.deleg
deleg        3600 NS    mail
deleg        3600 NS    ns.example.net.
deleg        3600 DS    2371 13 2 ${HEX64}
ns1.deleg    3600 A     192.0.2.53
ns1.deleg    3600 AAAA  2001:db8::53
ns2.deleg    3600 A     192.0.2.54
nodsdeleg    3600 NS    ns.example.net.
${wide.join('\n')}
child        3600 NS    ns1.edgedns.dev.
child        3600 NS    ns2.edgedns.dev.
child        3600 DS    12345 13 2 ${HEX64}
`
}

/**
 * A 300-octet TXT string. The API takes it whole and serves it split into 255 + 45 octets;
 * BIND's zone-file reader refuses a string over 255 octets, so its copy is written split.
 */
function longText(forBind: boolean): string {
  const text = 'x'.repeat(300)
  return forBind ? `"${text.slice(0, 255)}" "${text.slice(255)}"` : `"${text}"`
}

/** The child zone's records (it is also delegated from the parent, with a DS there). */
export function childBody(z: ZoneNames): string {
  return `$ORIGIN ${z.child}.
$TTL 3600
@            300  A     192.0.2.70
@            300  TXT   "child apex"
www          300  A     192.0.2.71
back         300  CNAME www.${z.parent}.
deep.ent     300  AAAA  2001:db8::72
*            300  TXT   "child wildcard"
`
}

/**
 * A zone whose apex is a CNAME (Cloudflare-style flattening). BIND cannot load a CNAME beside
 * the apex SOA and NS, so its copy of this zone leaves that one line out (`bindOnly`).
 */
export function flatBody(z: ZoneNames, flat: string, options: { forBind: boolean }): string {
  return `$ORIGIN ${flat}.
$TTL 3600
${options.forBind ? '' : `@ 600 CNAME www.${z.parent}.`}
info         300  TXT   "flattened apex"
`
}

export function flatName(suffix: string): string {
  return `flat-bd${suffix}.example`
}
