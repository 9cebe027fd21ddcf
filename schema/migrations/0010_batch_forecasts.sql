CREATE TABLE `batch_forecasts` (
	`batch_id` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`forecast` text NOT NULL
);
