/**
 * The dashboard's pure logic, without a browser: record bodies from type-aware form values, bulk
 * actions as one batch (and batch errors traced to their record), API errors placed on fields,
 * the import preview, token policies, the zone settings form and a pending zone's activation.
 */
import { describe, expect, it } from 'vitest'
// prettier-ignore
// @ts-expect-error plain ESM modules of the dashboard (bundled by workers/dashboard/build.mjs)
import { bodyFromValues, describeRecord, emptyValues, valuesFromRecord } from '../../workers/dashboard/src/record-types.js'
// @ts-expect-error plain ESM
import { describeBatchErrors, planBulk } from '../../workers/dashboard/src/bulk-plan.js'
// @ts-expect-error plain ESM
import { fieldErrors } from '../../workers/dashboard/src/field-errors.js'
// @ts-expect-error plain ESM
import { previewImport } from '../../workers/dashboard/src/import-preview.js'
// @ts-expect-error plain ESM
import { settingsErrors, toBody, toValues } from '../../workers/dashboard/src/settings-form.js'
// @ts-expect-error plain ESM
import { buildPolicies } from '../../workers/dashboard/src/token-policies.js'
// @ts-expect-error plain ESM
import { activationOutcome, pendingInstructions } from '../../workers/dashboard/src/activation-logic.js' // prettier-ignore

const ZONE = 'example.com'
const rec = (over: object) => ({
  id: 'r1',
  type: 'A',
  name: `a.${ZONE}`,
  content: '192.0.2.1',
  ttl: 1,
  proxied: false,
  proxiable: true,
  ...over,
})

describe('record bodies from form values', () => {
  it('an SRV record gets its name from service, protocol and host, and numeric data fields', () => {
    const v = {
      ...emptyValues('SRV'),
      name: '@',
      'srv.service': '_sip',
      'srv.protocol': '_udp',
      'data.priority': '10',
      'data.weight': '5',
      'data.port': '5060',
      'data.target': 'sip.example.com',
    }
    expect(bodyFromValues(v)).toEqual({
      type: 'SRV',
      name: '_sip._udp',
      ttl: 1,
      data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
    })
    expect(bodyFromValues({ ...v, name: 'voice' }).name).toBe('_sip._udp.voice')
  })

  it('an SRV record read back splits its name into service, protocol and host', () => {
    const values = valuesFromRecord(
      rec({
        type: 'SRV',
        name: `_sip._tcp.voice.${ZONE}`,
        content: '5 5060 sip.example.com',
        data: { priority: 10, weight: 5, port: 5060, target: 'sip.example.com' },
      }),
      ZONE
    )
    expect(values).toMatchObject({
      name: 'voice',
      'srv.service': '_sip',
      'srv.protocol': '_tcp',
      'data.port': '5060',
    })
  })

  it('MX sends a numeric priority, A sends proxied, and an empty number is left for the API to name', () => {
    expect(
      bodyFromValues({
        ...emptyValues('MX'),
        name: '@',
        priority: '10',
        content: 'mail.example.com',
      })
    ).toEqual({ type: 'MX', name: '@', ttl: 1, priority: 10, content: 'mail.example.com' })
    expect(
      bodyFromValues({ ...emptyValues('A'), name: 'www', content: '192.0.2.1', proxied: true })
    ).toMatchObject({ proxied: true })
    expect(
      bodyFromValues({ ...emptyValues('CAA'), 'data.flags': '', 'data.value': 'ca.example' }).data
    ).toEqual({ tag: 'issue', value: 'ca.example' })
  })
})

describe('bulk actions', () => {
  const records = [
    rec({ id: 'a', name: `a.${ZONE}` }),
    rec({ id: 'b', name: `b.${ZONE}`, proxied: true }),
    rec({ id: 't', type: 'TXT', name: `t.${ZONE}`, content: 'x', proxiable: false }),
    rec({ id: 'c', name: `c.${ZONE}` }),
  ]

  it('proxy on patches only records that can be proxied and are not yet, and says why the others stay', () => {
    const plan = planBulk({ kind: 'proxy', on: true }, records)
    expect(plan.body).toEqual({
      patches: [
        { id: 'a', proxied: true },
        { id: 'c', proxied: true },
      ],
    })
    expect(plan.title).toBe('Turn proxy on for 2 records')
    expect(plan.unchanged).toEqual([
      expect.stringContaining('already proxied'),
      expect.stringContaining('cannot be proxied'),
    ])
  })

  it('delete and TTL are one batch each', () => {
    expect(planBulk({ kind: 'delete' }, records).body).toEqual({
      deletes: ['a', 'b', 't', 'c'].map((id) => ({ id })),
    })
    const ttl = planBulk({ kind: 'ttl', ttl: 300 }, [...records, rec({ id: 'd', ttl: 300 })])
    expect(ttl.body.patches).toHaveLength(4)
    expect(ttl.lines[0]).toBe(`TTL Auto → 300 s: A a.${ZONE} 192.0.2.1`)
  })

  it('a batch error names the record its source.pointer points at', () => {
    const plan = planBulk({ kind: 'proxy', on: true }, records)
    const failure = {
      errors: [
        { code: 81044, message: 'Record does not exist', source: { pointer: '/patches/1' } },
      ],
    }
    expect(describeBatchErrors(failure, plan)).toEqual([
      `/patches/1 (A c.${ZONE} 192.0.2.1): Record does not exist (code 81044)`,
    ])
  })
})

describe('API errors next to their field', () => {
  const keys = ['name', 'ttl', 'proxied', 'comment', 'content', 'priority', 'data.port']
  const place = (code: number, message: string) =>
    fieldErrors({ errors: [{ code, message }] }, keys)
  it('maps codes and data paths to fields, the rest to the form', () => {
    expect(place(9005, 'Content for A record is invalid')).toEqual({
      content: 'Content for A record is invalid',
    })
    expect(place(9036, 'data.port must be an integer between 0 and 65535')).toHaveProperty([
      'data.port',
    ])
    expect(place(81053, 'A CNAME record cannot coexist')).toHaveProperty('name')
    expect(
      place(9021, 'TTL must be between 60 and 86400 seconds, or 1 for Automatic')
    ).toHaveProperty('ttl')
    expect(place(9041, 'not proxiable')).toHaveProperty('proxied')
    expect(place(10000, 'Authentication error')).toEqual({ _form: 'Authentication error' })
  })
})

describe('import preview', () => {
  it('lists what will be created and skips the SOA and apex NS the zone keeps', () => {
    const text = `$TTL 300\n@ IN SOA ns1.x. h.x. 1 2 3 4 5\n@ IN NS ns1.other.\nwww IN A 192.0.2.1\nsub IN NS ns.sub\n`
    const { create, skipped } = previewImport(text, ZONE)
    expect(create.map((e: any) => `${e.name} ${e.type}`)).toEqual([
      `www.${ZONE} A`,
      `sub.${ZONE} NS`,
    ])
    expect(skipped.map((e: any) => e.type)).toEqual(['SOA', 'NS'])
  })

  it('a syntax error throws with its line', () => {
    expect(() => previewImport('www IN A\n', ZONE)).toThrow(/line 1/)
  })
})

describe('token policies', () => {
  const groups = [
    { id: 'dr', name: 'DNS Read', scopes: ['com.cloudflare.api.account.zone'] },
    { id: 'tw', name: 'API Tokens Write', scopes: ['com.cloudflare.api.account'] },
  ]
  const zone = { id: 'z1', account: { id: 'acc' } }
  it('zone permissions on one zone or every zone of the account; token permissions on the account', () => {
    expect(buildPolicies(groups, ['dr'], 'zone', zone)).toEqual([
      {
        effect: 'allow',
        permission_groups: [{ id: 'dr' }],
        resources: { 'com.cloudflare.api.account.zone.z1': '*' },
      },
    ])
    expect(buildPolicies(groups, ['dr', 'tw'], 'account', zone)).toEqual([
      {
        effect: 'allow',
        permission_groups: [{ id: 'dr' }],
        resources: {
          'com.cloudflare.api.account.acc': { 'com.cloudflare.api.account.zone.*': '*' },
        },
      },
      {
        effect: 'allow',
        permission_groups: [{ id: 'tw' }],
        resources: { 'com.cloudflare.api.account.acc': '*' },
      },
    ])
  })
})

describe('zone settings form', () => {
  const settings = {
    ns_ttl: 86400,
    soa: { mname: 'ns1.x', rname: 'h.x', refresh: 1, retry: 2, expire: 3, min_ttl: 4, ttl: 5 },
    proxy_addresses: { ipv4: ['192.0.2.1', '192.0.2.2'], ipv6: [] },
  }
  it('round-trips the API settings through the form values', () => {
    expect(toBody(toValues(settings))).toEqual(settings)
  })
  it('puts an error on the field whose path starts the message, not on one that merely ends the same', () => {
    expect(
      settingsErrors({ errors: [{ code: 9021, message: 'ns_ttl: TTL must be 1 or 60–86400' }] })
    ).toEqual({ ns_ttl: 'ns_ttl: TTL must be 1 or 60–86400' })
    expect(
      settingsErrors({
        errors: [{ code: 9000, message: 'proxy_addresses.ipv4.1: not an IPv4 address' }],
      })
    ).toHaveProperty(['proxy_addresses.ipv4'])
    expect(settingsErrors({ errors: [{ code: 9000, message: 'something else' }] })).toEqual({
      _form: 'something else',
    })
  })
})

describe('record descriptions', () => {
  it('show the priority that MX, URI and SRV keep outside their content', () => {
    expect(
      describeRecord(
        rec({
          type: 'SRV',
          name: `_sip._tcp.${ZONE}`,
          content: '5 5060 sip.example.com',
          priority: 10,
        })
      )
    ).toBe(`SRV _sip._tcp.${ZONE} 10 5 5060 sip.example.com`)
    expect(describeRecord(rec({ type: 'HTTPS', content: '1 . alpn="h2"', priority: 1 }))).toBe(
      `HTTPS a.${ZONE} 1 . alpn="h2"`
    )
  })
})

describe('a pending zone', () => {
  const pending = {
    id: 'z1',
    name: ZONE,
    status: 'pending',
    verification_key: '0123456789abcdef0123456789abcdef',
    name_servers: ['ns1.edgedns.dev', 'ns2.edgedns.dev'],
    vanity_name_servers: [],
  }

  it('is shown the TXT record that proves it (name and value) and the name servers to delegate to', () => {
    expect(pendingInstructions(pending)).toEqual({
      txtName: `_edgedns-verify.${ZONE}`,
      txtValue: '0123456789abcdef0123456789abcdef',
      nameServers: ['ns1.edgedns.dev', 'ns2.edgedns.dev'],
    })
    expect(
      pendingInstructions({ ...pending, vanity_name_servers: ['ns.mine.example'] }).nameServers
    ).toEqual(['ns.mine.example'])
    expect(pendingInstructions({ ...pending, status: 'active' })).toBeNull()
  })

  it("reads the activation check's answer: still pending with the API's reason, or activated", () => {
    const reason = `${ZONE} is still pending: no TXT record at _edgedns-verify.${ZONE} holds the zone's verification_key.`
    expect(
      activationOutcome({ result: { id: 'z1' }, messages: [{ code: 10005, message: reason }] })
    ).toEqual({ activated: false, message: reason })
    expect(activationOutcome({ result: { id: 'z1' }, messages: [] })).toEqual({
      activated: true,
      message: null,
    })
  })
})
