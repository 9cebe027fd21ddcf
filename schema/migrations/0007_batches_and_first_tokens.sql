ALTER TABLE `llm_calls` ADD `ttft_ms` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `batch_id` text;--> statement-breakpoint
CREATE INDEX `runs_batch_idx` ON `runs` (`batch_id`,`created_at`) WHERE batch_id IS NOT NULL;