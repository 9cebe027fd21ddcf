CREATE INDEX `run_levels_board_idx` ON `run_levels` (`model`,`level_set`,`level`,`solved`,`outcome`,`commands`,`target`);--> statement-breakpoint
CREATE INDEX `run_levels_solves_idx` ON `run_levels` (`model`,`level_set`,`level`,("ended_at" - "started_at"),`cost_usd`) WHERE solved AND ended_at IS NOT NULL;--> statement-breakpoint
-- Runs and levels made before level sets were recorded form their own set per target (schema/level-sets.ts).
UPDATE `runs` SET `level_set` = `target` || '@unrecorded' WHERE `level_set` IS NULL;--> statement-breakpoint
UPDATE `run_levels` SET `level_set` = `target` || '@unrecorded' WHERE `level_set` IS NULL;
