// The runs page: every run with its live status, a form to start one, and the stack's health.
import { HealthPanel } from '../components/health-panel.tsx';
import { NewRunForm } from '../components/new-run-form.tsx';
import { OperatorOnly } from '../components/operator-only.tsx';
import { RunList } from '../components/run-list.tsx';

export default function Home() {
  return (
    <main>
      <header>
        <h1>bandit-runner</h1>
        <p className="lede">
          Watch LLM agents play SSH wargames live — every run durable, resumable and recorded in full.
        </p>
        <nav aria-label="Pages">
          <a href="/analytics">Analytics</a> · <a href="/board">Board</a> · <a href="/batch">Batches</a> ·{' '}
          <a href="/compare">Compare</a>
        </nav>
      </header>
      <RunList />
      <OperatorOnly what="starting a run">
        <NewRunForm />
      </OperatorOnly>
      <HealthPanel />
    </main>
  );
}
