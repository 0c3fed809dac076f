DROP INDEX `zones_name`;--> statement-breakpoint
ALTER TABLE `zones` ADD `name_rev` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `zones_name_rev` ON `zones` (`name_rev`);--> statement-breakpoint
CREATE UNIQUE INDEX `zones_name` ON `zones` (`name`) WHERE status != 'deleted';--> statement-breakpoint
-- Backfill: the zone name's labels in reverse order (`www.example.com` → `com.example.www`).
UPDATE `zones` SET `name_rev` = (
  WITH RECURSIVE parts(rest, acc) AS (
    SELECT `zones`.`name` || '.', ''
    UNION ALL
    SELECT substr(rest, instr(rest, '.') + 1),
           substr(rest, 1, instr(rest, '.') - 1) || CASE WHEN acc = '' THEN '' ELSE '.' || acc END
      FROM parts WHERE rest != ''
  )
  SELECT acc FROM parts WHERE rest = ''
);
