CREATE TABLE `commands` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`level` integer NOT NULL,
	`command` text NOT NULL,
	`exit_code` integer,
	`duration_ms` integer NOT NULL,
	`output_bytes` integer DEFAULT 0 NOT NULL,
	`truncated` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `commands_run_idx` ON `commands` (`run_id`,`seq`);--> statement-breakpoint
CREATE INDEX `commands_level_idx` ON `commands` (`level`);--> statement-breakpoint
CREATE TABLE `executions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`node` text NOT NULL,
	`level` integer NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`status` text NOT NULL,
	`error` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `executions_run_idx` ON `executions` (`run_id`,`seq`);--> statement-breakpoint
CREATE INDEX `executions_node_idx` ON `executions` (`node`,`status`);--> statement-breakpoint
CREATE TABLE `llm_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`seq` integer NOT NULL,
	`level` integer NOT NULL,
	`model` text NOT NULL,
	`stage` text NOT NULL,
	`prompt_tokens` integer NOT NULL,
	`completion_tokens` integer NOT NULL,
	`latency_ms` integer NOT NULL,
	`cost_usd` real,
	`error_class` text,
	`request` text,
	`response` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `llm_calls_run_idx` ON `llm_calls` (`run_id`,`seq`);--> statement-breakpoint
CREATE INDEX `llm_calls_model_idx` ON `llm_calls` (`model`,`created_at`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`target` text NOT NULL,
	`model` text NOT NULL,
	`start_level` integer NOT NULL,
	`end_level` integer NOT NULL,
	`max_retries` integer NOT NULL,
	`budget` integer NOT NULL,
	`current_level` integer NOT NULL,
	`levels_solved` integer DEFAULT 0 NOT NULL,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cost_usd` real DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`started_at` integer,
	`ended_at` integer
);
--> statement-breakpoint
CREATE INDEX `runs_created_idx` ON `runs` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `runs_status_created_idx` ON `runs` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `runs_model_idx` ON `runs` (`model`);