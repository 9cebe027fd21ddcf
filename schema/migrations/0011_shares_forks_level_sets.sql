CREATE TABLE `access_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`run_id` text,
	`label` text,
	`hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_hash_idx` ON `access_tokens` (`hash`);--> statement-breakpoint
CREATE INDEX `access_tokens_run_idx` ON `access_tokens` (`run_id`,`created_at`) WHERE run_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `run_levels` ADD `level_set` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `parent_id` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `fork_seq` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `level_set` text;--> statement-breakpoint
CREATE INDEX `runs_parent_idx` ON `runs` (`parent_id`,`created_at`) WHERE parent_id IS NOT NULL;