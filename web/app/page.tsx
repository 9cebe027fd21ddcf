// The landing page. The runs list and the live run view arrive with the web UI issue.
import { HealthPanel } from '../components/health-panel.tsx';

export default function Home() {
  return (
    <main>
      <header>
        <h1>bandit-runner</h1>
        <p className="lede">Watch LLM agents play SSH wargames live — every run durable, resumable and recorded in full.</p>
      </header>
      <HealthPanel />
    </main>
  );
}
