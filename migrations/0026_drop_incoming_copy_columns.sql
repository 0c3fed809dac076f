-- The incoming settings' copy of a secondary zone's serial and last good check, neither read nor
-- written since 0023: the zone row (secondary_serial, secondary_checked_on) is their one home.
ALTER TABLE `zone_transfers_incoming` DROP COLUMN `soa_serial`;--> statement-breakpoint
ALTER TABLE `zone_transfers_incoming` DROP COLUMN `checked_on`;