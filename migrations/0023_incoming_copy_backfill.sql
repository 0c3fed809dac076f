-- Secondary zones' record of their copy (0021), taken again from the incoming settings where a
-- worker of before 0021 committed a transfer after it (the zone's serial is the settings' serial
-- and the record is not, or the record has no source), with a primary's port of NULL read as 53. From here on the zone row is
-- the one home of these facts: the settings' `soa_serial` and `checked_on` are no longer read or
-- written (dropped in a later release, once no worker of before 0021 can run).
UPDATE `zones` SET
  `secondary_serial` = (SELECT `soa_serial` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),
  `secondary_checked_on` = (SELECT `checked_on` FROM `zone_transfers_incoming` WHERE `zone_id` = `zones`.`id`),
  `secondary_source` = (
    SELECT p.`ip` || '#' || ifnull(p.`port`, 53) FROM `zone_transfers_incoming` AS i
      JOIN `transfer_peers` AS p ON p.`id` = json_extract(i.`peers`, '$[0]')
    WHERE i.`zone_id` = `zones`.`id`)
  WHERE `type` = 'secondary' AND `id` IN (
    SELECT i.`zone_id` FROM `zone_transfers_incoming` AS i
    WHERE i.`soa_serial` IS NOT NULL AND i.`soa_serial` = `zones`.`serial`
      AND (`zones`.`secondary_serial` IS NOT i.`soa_serial` OR `zones`.`secondary_source` IS NULL));--> statement-breakpoint
-- Catalog members are primary zones only (0022): a catalog that listed a zone of another type (one
-- changed from primary while its outgoing transfers stayed enabled) has lost it, so its serial moves
-- and its secondaries transfer it again; nothing else would tell them.
UPDATE `transfer_catalogs`
  SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))
  WHERE `deleted_on` IS NULL AND `account_id` IN (
    SELECT z.`account_id` FROM `zones` AS z
      JOIN `zone_transfers_outgoing` AS o ON o.`zone_id` = z.`id`
    WHERE o.`enabled` = 1 AND z.`status` IN ('active', 'moving')
      AND z.`type` NOT IN ('full', 'partial'));
