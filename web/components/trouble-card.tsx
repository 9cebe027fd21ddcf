// The troubleshooting card: why the run paused or ended badly, the evidence from its log (each piece
// links to its item in the chat), and the fix. Built from the one taxonomy in schema/failures.ts.
import type { TroubleCard as Card } from '../../schema/failures.ts';
import { Shown } from './shown-text.tsx';

export function TroubleCard({ card, compact = false }: { card: Card; compact?: boolean }) {
  return (
    <section
      className={`trouble-card trouble-${card.category}`}
      aria-label="What happened and what to do"
      data-failure={card.failure}
    >
      <h3>{card.title}</h3>
      {/* Compact (in the pause dialog, which already shows the last error): title and fix only. */}
      {!compact && (
        <p>
          <Shown text={card.what} />
        </p>
      )}
      {!compact && card.evidence.length > 0 && (
        <ul className="trouble-evidence">
          {card.evidence.map((piece) => (
            <li key={`${piece.seq}-${piece.label}`}>
              <a href={`#seq-${piece.seq}`}>{piece.label}</a>:{' '}
              <code>
                <Shown text={piece.text} />
              </code>
            </li>
          ))}
        </ul>
      )}
      <p className="trouble-fix">
        <strong>Fix:</strong> {card.fix}
      </p>
    </section>
  );
}
