-- Keeps llm_hourly (schema/db.ts) as the mirror inserts model calls: one upsert per inserted row.
-- A row the mirror sends again is ignored by the insert, so the trigger does not fire for it.
CREATE TRIGGER `llm_calls_hourly_rollup` AFTER INSERT ON `llm_calls`
BEGIN
  INSERT INTO `llm_hourly` (`hour`, `model`, `level`, `target`, `calls`, `errors`, `prompt_tokens`, `completion_tokens`, `cost_usd`, `latency_ms_sum`)
  VALUES (
    (CAST(NEW.created_at AS INTEGER) / 3600000) * 3600000, NEW.model, NEW.level, coalesce((SELECT `target` FROM `runs` WHERE `id` = NEW.run_id), ''),
    1, NEW.error_class IS NOT NULL, NEW.prompt_tokens, NEW.completion_tokens, coalesce(NEW.cost_usd, 0), NEW.latency_ms)
  ON CONFLICT (`hour`, `model`, `level`, `target`) DO UPDATE SET
    `calls` = `calls` + 1, `errors` = `errors` + excluded.`errors`, `prompt_tokens` = `prompt_tokens` + excluded.`prompt_tokens`,
    `completion_tokens` = `completion_tokens` + excluded.`completion_tokens`, `cost_usd` = `cost_usd` + excluded.`cost_usd`,
    `latency_ms_sum` = `latency_ms_sum` + excluded.`latency_ms_sum`;
END;
--> statement-breakpoint
-- The calls mirrored before this migration.
INSERT INTO `llm_hourly` (`hour`, `model`, `level`, `target`, `calls`, `errors`, `prompt_tokens`, `completion_tokens`, `cost_usd`, `latency_ms_sum`)
SELECT (CAST(c.`created_at` AS INTEGER) / 3600000) * 3600000 AS h, c.`model`, c.`level`, coalesce(r.`target`, '') AS tg, count(*), sum(c.`error_class` IS NOT NULL),
  sum(c.`prompt_tokens`), sum(c.`completion_tokens`), coalesce(sum(c.`cost_usd`), 0), sum(c.`latency_ms`)
FROM `llm_calls` c LEFT JOIN `runs` r ON r.`id` = c.`run_id`
GROUP BY h, c.`model`, c.`level`, tg;
