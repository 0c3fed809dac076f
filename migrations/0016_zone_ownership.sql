DROP INDEX `directory_zones_name`;--> statement-breakpoint
ALTER TABLE `directory_zones` ADD `status` text DEFAULT 'active' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `directory_zones_account_name` ON `directory_zones` (`account_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `directory_zones_name` ON `directory_zones` (`name`) WHERE status = 'active';--> statement-breakpoint
DROP INDEX `zones_name`;--> statement-breakpoint
ALTER TABLE `zones` ADD `verification_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `zones_active_name` ON `zones` (`name`) WHERE status = 'active';--> statement-breakpoint
CREATE UNIQUE INDEX `zones_account_live_name` ON `zones` (`account_id`,`name`) WHERE status != 'deleted';--> statement-breakpoint
CREATE INDEX `zones_name` ON `zones` (`name`) WHERE status != 'deleted';--> statement-breakpoint
-- A pending zone is never built (nothing of it is served), so it stays off the sweep's work list
-- until it becomes active; its activation then notes it behind, in the same transaction.
DROP TRIGGER `zones_behind_on_create`;--> statement-breakpoint
CREATE TRIGGER `zones_behind_on_create` AFTER INSERT ON `zones`
  WHEN NEW.`status` != 'pending'
BEGIN
  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)
    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;
END;
--> statement-breakpoint
DROP TRIGGER `zones_behind_on_commit`;--> statement-breakpoint
CREATE TRIGGER `zones_behind_on_commit` AFTER UPDATE OF `change_seq` ON `zones`
  WHEN NEW.`change_seq` > OLD.`change_seq` AND NEW.`status` != 'pending'
BEGIN
  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)
    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;
END;
--> statement-breakpoint
CREATE TRIGGER `zones_behind_on_activate` AFTER UPDATE OF `status` ON `zones`
  WHEN OLD.`status` = 'pending' AND NEW.`status` = 'active'
BEGIN
  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)
    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;
END;
--> statement-breakpoint
-- An account move restores each zone's status from activated_on: every zone live so far is active.
UPDATE `zones` SET `activated_on` = `created_on` WHERE `activated_on` IS NULL AND `status` != 'deleted';
