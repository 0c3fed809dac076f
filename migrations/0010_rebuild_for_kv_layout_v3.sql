-- KV layout v3 (text buckets, head slots): every existing zone gets a durable full-build request,
-- so the propagation sweep (every minute, and at `pnpm dev` start) rebuilds it into the new layout.
INSERT INTO `change_log` (`zone_id`, `seq`, `op`, `created_on`)
  SELECT `id`, `change_seq` + 1, 'full', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM `zones` WHERE `status` != 'deleted';
--> statement-breakpoint
UPDATE `zones` SET `change_seq` = `change_seq` + 1, `version` = `version` + 1 WHERE `status` != 'deleted';
