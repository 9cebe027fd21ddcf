// Levels solved per run against cost per run, one point per model with its ± (standard error) as
// whiskers: the Pareto picture of which model buys the most levels for the money. Plain SVG.
import type { BoardModel } from '../../../schema/board.ts';
import { boardRowKey } from '../../../schema/board.ts';
import { formatCost } from '../../lib/format.ts';

const W = 560;
const H = 280;
const PAD = { left: 56, right: 16, top: 16, bottom: 40 };

export function CostChart({ models }: { models: readonly BoardModel[] }) {
  if (models.length === 0) return null;
  const maxCost = Math.max(...models.map((m) => m.costPerRun.mean + m.costPerRun.stderr), 0.0001);
  const maxSolved = Math.max(...models.map((m) => m.levelsSolvedPerRun.mean + m.levelsSolvedPerRun.stderr), 1);
  const x = (cost: number) => PAD.left + (cost / maxCost) * (W - PAD.left - PAD.right);
  const y = (solved: number) => H - PAD.bottom - (solved / maxSolved) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 0.5, 1].map((f) => f * maxCost);
  // A model with rows in two kinds of world has two points: each label names its world.
  const worlds = new Set(models.map((m) => m.world)).size;
  return (
    <figure className="cost-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label="Levels solved per run against cost per run, one point per model"
      >
        <line x1={PAD.left} y1={H - PAD.bottom} x2={W - PAD.right} y2={H - PAD.bottom} className="axis" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={H - PAD.bottom} className="axis" />
        {ticks.map((t) => (
          <text key={t} x={x(t)} y={H - PAD.bottom + 16} textAnchor="middle" className="tick">
            {formatCost(t)}
          </text>
        ))}
        {[0, Math.ceil(maxSolved / 2), Math.ceil(maxSolved)].map((t) => (
          <text key={t} x={PAD.left - 8} y={y(t) + 4} textAnchor="end" className="tick">
            {t}
          </text>
        ))}
        <text x={(W + PAD.left) / 2} y={H - 4} textAnchor="middle" className="tick">
          cost per run
        </text>
        <text x={12} y={H / 2} textAnchor="middle" className="tick" transform={`rotate(-90 12 ${H / 2})`}>
          levels solved per run
        </text>
        {models.map((m) => {
          const cx = x(m.costPerRun.mean);
          const cy = y(m.levelsSolvedPerRun.mean);
          return (
            <g key={boardRowKey(m)} data-model={m.model} data-level-set={m.levelSet} data-world={m.world}>
              <line
                x1={cx}
                x2={cx}
                y1={y(m.levelsSolvedPerRun.mean - m.levelsSolvedPerRun.stderr)}
                y2={y(m.levelsSolvedPerRun.mean + m.levelsSolvedPerRun.stderr)}
                className="whisker"
              />
              <line
                y1={cy}
                y2={cy}
                x1={x(Math.max(0, m.costPerRun.mean - m.costPerRun.stderr))}
                x2={x(m.costPerRun.mean + m.costPerRun.stderr)}
                className="whisker"
              />
              <circle cx={cx} cy={cy} r={5} className="point" />
              {/* Labels near the right edge go on the point's left, so none is cut off. */}
              <text
                x={cx > W * 0.7 ? cx - 8 : cx + 8}
                y={cy - 8}
                textAnchor={cx > W * 0.7 ? 'end' : 'start'}
                className="point-label"
              >
                {worlds > 1 ? `${m.model} (${m.world})` : m.model}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">
        Each point is a model: mean over its runs, whiskers ± one standard error. Up and to the left is better.
      </figcaption>
    </figure>
  );
}
