CREATE TABLE `run_levels` (
	`run_id` text NOT NULL,
	`level` integer NOT NULL,
	`model` text NOT NULL,
	`target` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	`attempts` integer NOT NULL,
	`retries` integer NOT NULL,
	`pauses` integer NOT NULL,
	`solved` integer NOT NULL,
	`helped` integer NOT NULL,
	`commands` integer NOT NULL,
	`prompt_tokens` integer NOT NULL,
	`completion_tokens` integer NOT NULL,
	`cost_usd` real NOT NULL,
	PRIMARY KEY(`run_id`, `level`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `run_levels_model_level_idx` ON `run_levels` (`model`,`level`,`solved`);--> statement-breakpoint
CREATE INDEX `run_levels_started_idx` ON `run_levels` (`started_at`);