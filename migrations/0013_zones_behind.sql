CREATE TABLE `zones_behind` (
	`zone_id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`notified_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `zones_behind_notified` ON `zones_behind` (`notified_at`);--> statement-breakpoint
CREATE INDEX `zones_status` ON `zones` (`status`,`name`);--> statement-breakpoint
-- Every commit moves zones.change_seq (the version guard, a full-build request, or the insert of a
-- new zone): these triggers note the zone as behind in the same transaction, whichever path wrote.
CREATE TRIGGER `zones_behind_on_create` AFTER INSERT ON `zones`
BEGIN
  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)
    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;
END;
--> statement-breakpoint
CREATE TRIGGER `zones_behind_on_commit` AFTER UPDATE OF `change_seq` ON `zones`
  WHEN NEW.`change_seq` > OLD.`change_seq`
BEGIN
  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`id`, NEW.`change_seq`)
    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;
END;
--> statement-breakpoint
-- A zone's deletion is logged with its own sequence: noted even if a writer logged it without the guard.
CREATE TRIGGER `zones_behind_on_zone_delete` AFTER INSERT ON `change_log`
  WHEN NEW.`op` = 'zone_delete'
BEGIN
  INSERT INTO `zones_behind` (`zone_id`, `seq`) VALUES (NEW.`zone_id`, NEW.`seq`)
    ON CONFLICT (`zone_id`) DO UPDATE SET `seq` = excluded.`seq` WHERE excluded.`seq` > `zones_behind`.`seq`;
END;
--> statement-breakpoint
-- Backfill: the zones behind now (live zones ahead of their build, deleted ones whose purge is not built).
INSERT OR IGNORE INTO `zones_behind` (`zone_id`, `seq`)
  SELECT z.`id`, z.`change_seq` FROM `zones` z LEFT JOIN `build_state` b ON b.`zone_id` = z.`id`
   WHERE z.`change_seq` > coalesce(b.`built_seq`, 0);
--> statement-breakpoint
INSERT OR IGNORE INTO `zones_behind` (`zone_id`, `seq`)
  SELECT c.`zone_id`, max(c.`seq`) FROM `change_log` c LEFT JOIN `build_state` b ON b.`zone_id` = c.`zone_id`
   WHERE c.`op` = 'zone_delete' AND c.`seq` > coalesce(b.`built_seq`, 0) GROUP BY c.`zone_id`;
