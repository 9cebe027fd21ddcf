DROP INDEX `commands_run_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `commands_run_seq_idx` ON `commands` (`run_id`,`seq`);--> statement-breakpoint
DROP INDEX `executions_run_idx`;--> statement-breakpoint
CREATE UNIQUE INDEX `executions_run_seq_idx` ON `executions` (`run_id`,`seq`);