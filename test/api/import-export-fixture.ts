/**
 * A zone file that uses every record type the API accepts and every directive the importer
 * supports. Shared by the workerd tests (test/api) and the named-checkzone e2e test.
 */
const HEX64 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
const B64 =
  'mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ=='

/** Line numbers below are part of the test: keep the header lines stable. */
export function everyTypeZone(zone: string): string {
  return `; every supported type and directive for ${zone}
$TTL 3600
@   IN  SOA ns1.edgedns.dev. hostmaster.edgedns.dev. ( 2024010101 ; serial
            7200   ; refresh
            3600 1209600 300 )  ; retry, expire, minimum
@           IN  NS   ns1.edgedns.dev.
@           IN  NS   ns3.example.net.
@           300 IN A 192.0.2.1 ; apex web cf_tags=env:prod,team:"dns, infra" cf-proxied:true
www         IN  600 A 192.0.2.2
www         AAAA 2001:DB8:0:0::1 ; cf_tags=cf-proxied:false
alias       CNAME www ; relative target
flat        CNAME www.example.net. ; flattened cf_tags=cf-flatten-cname
@           MX  10 mail
@           MX  20 mail.example.net.
mail        A   192.0.2.25
@           TXT "v=spf1 ip4:192.0.2.0/24 -all"
txt         TXT ( "first part; not a comment"
                  "second \\"quoted\\" part"
                  "tab\\009and\\\\backslash" ) ; multi-line TXT cf_tags=kind:text
bare        7200 TXT hello world
@           CAA 0 issue "letsencrypt.org"
@           CAA 128 iodef "mailto:security@example.net"
@           CERT 1 12345 8 ${B64}
@           DNSKEY 257 3 13 ${B64}
sub         NS  ns.example.net.
sub         DS  2371 13 2 ${HEX64.toUpperCase()}
@           HTTPS 1 . alpn="h2,h3" port=443
svc         SVCB 2 svc.example.net. alpn="h3,h2" port=8443
loc         LOC 37 46 46.000 N 122 23 35.000 W 0.00m 100.00m 0.00m 0.00m
@           NAPTR 100 10 "S" "SIP+D2U" "" _sip._udp
c0ffee._openpgpkey OPENPGPKEY ${B64}
ptr         PTR host.example.net.
beef._smimecert SMIMEA 3 1 1 ${HEX64}
_sip._udp   SRV 10 5 5060 sip.example.net.
_sip._tcp   SRV ( 20 0 5061
                  sip.example.net. )
@           SSHFP 4 2 ${HEX64}
_443._tcp.www TLSA 3 1 1 ${HEX64}
_http._tcp  URI 10 1 "https://www.example.net/"
*.wild      A   192.0.2.99
$ORIGIN gen
$GENERATE 1-5 host$ 120 A 198.51.100.$
$GENERATE 1-3 alias\${10,2,d} CNAME host$
$ORIGIN ${zone}.
abs.${zone}. 120 IN A 203.0.113.7 ; absolute owner
$TTL 900
late        A   203.0.113.8
`
}

/**
 * Records the file creates: everything but the SOA (its apex NS set, one of the zone's own name
 * servers and another provider's, is not the zone's default set, so it is stored whole).
 */
export const EVERY_TYPE_RECORDS = 42
/** Every resource record in the file, $GENERATE expanded (SOA included). */
export const EVERY_TYPE_PARSED = 43
export const EVERY_TYPE_TYPES = [
  'A',
  'AAAA',
  'CAA',
  'CERT',
  'CNAME',
  'DNSKEY',
  'DS',
  'HTTPS',
  'LOC',
  'MX',
  'NAPTR',
  'NS',
  'OPENPGPKEY',
  'PTR',
  'SMIMEA',
  'SRV',
  'SSHFP',
  'SVCB',
  'TLSA',
  'TXT',
  'URI',
]

/** The comparable part of a record (what a round trip must keep). TTL 1 and 300 are the same. */
export function comparable(r: any): string {
  const ttl = r.ttl === 1 && !r.proxied ? 300 : r.ttl
  return JSON.stringify([
    r.name,
    r.type,
    r.content,
    r.priority ?? null,
    r.data ?? null,
    ttl,
    r.proxied,
    r.comment,
    r.tags,
    r.settings,
  ])
}
