CREATE TABLE `llm_hourly` (
	`hour` integer NOT NULL,
	`model` text NOT NULL,
	`level` integer NOT NULL,
	`target` text NOT NULL,
	`calls` integer NOT NULL,
	`errors` integer NOT NULL,
	`prompt_tokens` integer NOT NULL,
	`completion_tokens` integer NOT NULL,
	`cost_usd` real NOT NULL,
	`latency_ms_sum` integer NOT NULL,
	PRIMARY KEY(`hour`, `model`, `level`, `target`)
);
--> statement-breakpoint
CREATE INDEX `llm_hourly_model_idx` ON `llm_hourly` (`model`,`hour`);--> statement-breakpoint
CREATE INDEX `executions_duration_idx` ON `executions` (`duration_ms`);--> statement-breakpoint
CREATE INDEX `executions_errors_idx` ON `executions` (`started_at`) WHERE status = 'error';--> statement-breakpoint
CREATE INDEX `llm_calls_created_idx` ON `llm_calls` (`created_at`);--> statement-breakpoint
CREATE INDEX `llm_calls_latency_idx` ON `llm_calls` (`latency_ms`,`created_at`,`level`);--> statement-breakpoint
CREATE INDEX `llm_calls_model_latency_idx` ON `llm_calls` (`model`,`latency_ms`,`created_at`,`level`);--> statement-breakpoint
CREATE INDEX `llm_calls_errors_idx` ON `llm_calls` (`created_at`) WHERE error_class IS NOT NULL;--> statement-breakpoint
CREATE INDEX `run_levels_commands_idx` ON `run_levels` (`model`,`level`,`solved`,`commands`);--> statement-breakpoint
CREATE INDEX `run_levels_solve_ms_idx` ON `run_levels` (`model`,`level`,`solved`,("ended_at" - "started_at"));