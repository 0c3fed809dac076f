-- The serial of the copy a secondary zone holds and its last good check live on the zone row only
-- (`zones.secondary_serial`, `secondary_checked_on`, filled from these columns by 0021): the
-- incoming settings answer `soa_serial` and `checked_time` from there. Until the new API worker is
-- deployed after this migration, the old one's transfer commits and SOA checks fail on the missing
-- columns (nothing is half-applied; the next check, at the zone's retry, succeeds).
ALTER TABLE `zone_transfers_incoming` DROP COLUMN `soa_serial`;--> statement-breakpoint
ALTER TABLE `zone_transfers_incoming` DROP COLUMN `checked_on`;
