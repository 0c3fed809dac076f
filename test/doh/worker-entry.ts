/**
 * @module The worker the doh test project runs: the DoH worker's handler, plus the zone-change
 * feed's Durable Object classes. Deployed, those live in the API worker and the DoH worker binds
 * them by `script_name`; the test runtime has no API worker, so it serves them itself.
 */
export { default } from '../../workers/doh/src/index.ts'
export { ZoneFeed } from '../../workers/api/src/feed/zone-feed.ts'
export { ZoneFeedReplica } from '../../workers/api/src/feed/zone-feed-replica.ts'
