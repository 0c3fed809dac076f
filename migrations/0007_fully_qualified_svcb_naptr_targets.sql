-- SVCB/HTTPS targets and NAPTR replacements are stored fully qualified (with the trailing dot), the
-- way Cloudflare answers them. Rows written before keep their wire form; only the text gains the dot.
UPDATE `dns_records` SET
  `data` = json_set(`data`, '$.target', json_extract(`data`, '$.target') || '.'),
  `content` = CAST(json_extract(`data`, '$.priority') AS TEXT) || ' ' || json_extract(`data`, '$.target') || '.'
    || CASE WHEN ifnull(json_extract(`data`, '$.value'), '') = '' THEN '' ELSE ' ' || json_extract(`data`, '$.value') END
WHERE `type` IN ('SVCB', 'HTTPS') AND `data` IS NOT NULL AND json_extract(`data`, '$.target') NOT LIKE '%.';--> statement-breakpoint
UPDATE `dns_records` SET
  `data` = json_set(`data`, '$.replacement', json_extract(`data`, '$.replacement') || '.'),
  `content` = `content` || '.'
WHERE `type` = 'NAPTR' AND `data` IS NOT NULL AND json_extract(`data`, '$.replacement') NOT LIKE '%.';
