CREATE TABLE `transfer_catalogs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`peers` text DEFAULT '[]' NOT NULL,
	`enabled` integer DEFAULT 1 NOT NULL,
	`serial` integer NOT NULL,
	`created_on` text NOT NULL,
	`modified_on` text NOT NULL,
	`deleted_on` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `transfer_catalogs_account` ON `transfer_catalogs` (`account_id`);--> statement-breakpoint
CREATE INDEX `transfer_catalogs_name` ON `transfer_catalogs` (`name`);--> statement-breakpoint
-- A catalog's members are the account's active (or moving) zones whose outgoing transfers are
-- enabled. Every write that changes that set moves the account's catalog serial, in the same
-- transaction: max(serial + 1, now in epoch seconds), so a serial is never reused.
CREATE TRIGGER `catalog_serial_on_outgoing_insert` AFTER INSERT ON `zone_transfers_outgoing`
  WHEN NEW.`enabled` = 1
BEGIN
  UPDATE `transfer_catalogs`
    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))
    WHERE `account_id` = (SELECT `account_id` FROM `zones` WHERE `id` = NEW.`zone_id`
      AND `status` IN ('active', 'moving'));
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_serial_on_outgoing_enable` AFTER UPDATE OF `enabled` ON `zone_transfers_outgoing`
  WHEN NEW.`enabled` != OLD.`enabled`
BEGIN
  UPDATE `transfer_catalogs`
    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))
    WHERE `account_id` = (SELECT `account_id` FROM `zones` WHERE `id` = NEW.`zone_id`
      AND `status` IN ('active', 'moving'));
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_serial_on_outgoing_delete` AFTER DELETE ON `zone_transfers_outgoing`
  WHEN OLD.`enabled` = 1
BEGIN
  UPDATE `transfer_catalogs`
    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))
    WHERE `account_id` = (SELECT `account_id` FROM `zones` WHERE `id` = OLD.`zone_id`
      AND `status` IN ('active', 'moving'));
END;
--> statement-breakpoint
CREATE TRIGGER `catalog_serial_on_zone_status` AFTER UPDATE OF `status` ON `zones`
  WHEN (NEW.`status` IN ('active', 'moving')) != (OLD.`status` IN ('active', 'moving'))
    AND EXISTS (SELECT 1 FROM `zone_transfers_outgoing` WHERE `zone_id` = NEW.`id` AND `enabled` = 1)
BEGIN
  UPDATE `transfer_catalogs`
    SET `serial` = max(`serial` + 1, CAST(strftime('%s', 'now') AS INTEGER))
    WHERE `account_id` = NEW.`account_id`;
END;
