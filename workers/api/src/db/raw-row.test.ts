import { describe, expect, it } from 'vitest'
import { columnNames, type RawRow } from './raw-row.ts'
import { dnsRecords, zones } from './schema.ts'

describe('raw rows from the drizzle schema', () => {
  it('names the SQL columns in the order the schema declares them', () => {
    expect(columnNames(dnsRecords)).toEqual([
      'id',
      'zone_id',
      'name',
      'name_rev',
      'type',
      'content',
      'data',
      'priority',
      'ttl',
      'proxied',
      'comment',
      'tags',
      'settings',
      'created_on',
      'modified_on',
      'comment_modified_on',
      'tags_modified_on',
    ])
    expect(columnNames(zones)).toContain('change_seq')
  })

  it('types a row by SQL names with driver values: booleans as numbers, nullable columns as null', () => {
    const row: RawRow<typeof dnsRecords> = {
      id: 'r',
      zone_id: 'z',
      name: 'a.example.com',
      name_rev: 'com.example.a',
      type: 'A',
      content: '192.0.2.1',
      data: null,
      priority: null,
      ttl: 1,
      proxied: 0,
      comment: null,
      tags: '[]',
      settings: '{}',
      created_on: 't',
      modified_on: 't',
      comment_modified_on: null,
      tags_modified_on: null,
    }
    // @ts-expect-error a NOT NULL column is never null
    const notNull: RawRow<typeof dnsRecords> = { ...row, name: null }
    expect(Object.keys(row)).toEqual(columnNames(dnsRecords))
    expect(notNull.name).toBeNull()
  })
})
