DROP INDEX `run_levels_board_idx`;--> statement-breakpoint
DROP INDEX `run_levels_solves_idx`;--> statement-breakpoint
ALTER TABLE `run_levels` ADD `world` text;--> statement-breakpoint
CREATE INDEX `run_levels_board_idx` ON `run_levels` (`model`,`level_set`,`world`,`level`,`solved`,`outcome`,`commands`,`target`);--> statement-breakpoint
CREATE INDEX `run_levels_solves_idx` ON `run_levels` (`model`,`level_set`,`world`,`level`,("ended_at" - "started_at"),`cost_usd`) WHERE solved AND ended_at IS NOT NULL;--> statement-breakpoint
ALTER TABLE `runs` ADD `world` text;--> statement-breakpoint
-- Runs made before worlds were chosen (schema/worlds.ts recordedWorld): the real server's were shared, the range's unrecorded.
UPDATE `runs` SET `world` = CASE WHEN `target` = 'bandit' THEN 'shared' ELSE 'unrecorded' END WHERE `world` IS NULL;--> statement-breakpoint
UPDATE `run_levels` SET `world` = CASE WHEN `target` = 'bandit' THEN 'shared' ELSE 'unrecorded' END WHERE `world` IS NULL;
