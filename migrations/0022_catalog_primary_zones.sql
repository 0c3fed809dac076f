-- A catalog's members are primary zones only (type full or partial, the types outgoing transfers
-- are configured on): a type change that makes a live zone with enabled outgoing transfers primary,
-- or no longer primary, moves its account's catalog serial in the same transaction, as the other
-- membership changes do (migration 0020).
CREATE TRIGGER `catalog_serial_on_zone_type` AFTER UPDATE OF `type` ON `zones`
  WHEN (NEW.`type` IN ('full', 'partial')) != (OLD.`type` IN ('full', 'partial'))
    AND NEW.`status` IN ('active', 'moving')
    AND EXISTS (SELECT 1 FROM `zone_transfers_outgoing` WHERE `zone_id` = NEW.`id` AND `enabled` = 1)
BEGIN
  UPDATE `transfer_catalogs`
    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))
    WHERE `account_id` = NEW.`account_id`;
END;
