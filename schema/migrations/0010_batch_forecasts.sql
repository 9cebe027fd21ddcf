CREATE TABLE `batch_forecasts` (
	`batch_id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`forecast` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `run_levels_forecast_idx` ON `run_levels` (`model`,`target`,`level`,`solved`,`cost_usd`,`started_at`,`ended_at`,`run_id`);