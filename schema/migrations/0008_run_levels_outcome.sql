DROP INDEX `run_levels_cells_idx`;--> statement-breakpoint
ALTER TABLE `run_levels` ADD `outcome` text;--> statement-breakpoint
CREATE INDEX `run_levels_unfolded_idx` ON `run_levels` (`run_id`) WHERE outcome IS NULL;--> statement-breakpoint
CREATE INDEX `run_levels_cells_idx` ON `run_levels` (`model`,`level`,`solved`,`outcome`,`attempts`,`retries`,`pauses`,`prompt_tokens`,`completion_tokens`,`cost_usd`,`started_at`,`target`);