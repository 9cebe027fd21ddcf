ALTER TABLE `run_levels` ADD `limit_reason` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `limit_reason` text;--> statement-breakpoint
CREATE INDEX `runs_limit_idx` ON `runs` (`limit_reason`,`model`) WHERE limit_reason IS NOT NULL;