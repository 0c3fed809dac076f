ALTER TABLE `zones` ADD `secondary_serial` integer;--> statement-breakpoint
ALTER TABLE `zones` ADD `secondary_checked_on` text;--> statement-breakpoint
ALTER TABLE `zones` ADD `secondary_source` text;--> statement-breakpoint
-- The copy each secondary zone holds, from its incoming settings: the serial of its last transfer
-- and its last good check. The primary it came from was not recorded: the first one named stands
-- for it (settings that no longer name that primary pull the zone by AXFR).
UPDATE `zones` SET
  `secondary_serial` = (SELECT `soa_serial` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),
  `secondary_checked_on` = (SELECT `checked_on` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),
  `secondary_source` = (
    SELECT p.`ip` || '#' || p.`port` FROM `zone_transfers_incoming` AS i
      JOIN `transfer_peers` AS p ON p.`id` = json_extract(i.`peers`, '$[0]')
    WHERE i.`zone_id` = `zones`.`id`)
  WHERE `id` IN (SELECT `zone_id` FROM `zone_transfers_incoming` WHERE `soa_serial` IS NOT NULL);
