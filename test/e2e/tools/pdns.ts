/**
 * PowerDNS Authoritative in the e2e tests: its binaries, and an empty database for its SQLite
 * backend (the schema the Debian package `pdns-backend-sqlite3` ships, written with python3).
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'

export const PDNS_SERVER = ['/usr/sbin/pdns_server', '/usr/bin/pdns_server'].find(existsSync)
export const PDNSUTIL = ['/usr/bin/pdnsutil', '/usr/sbin/pdnsutil'].find(existsSync)

/** The SQLite schema (its link under /usr/share/doc is missing where docs are not installed). */
const SCHEMA = [
  '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql',
  '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql',
].find(existsSync)

/** Whether PowerDNS and its SQLite backend are installed. */
export const hasPdns = Boolean(PDNS_SERVER && PDNSUTIL && SCHEMA)

/** Creates the SQLite database `file` with PowerDNS's schema. */
export function createPdnsDatabase(file: string): void {
  execFileSync('python3', [
    '-c',
    'import sqlite3, sys; sqlite3.connect(sys.argv[1]).executescript(open(sys.argv[2]).read())',
    file,
    SCHEMA!,
  ])
}
