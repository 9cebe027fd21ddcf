// /analytics — what the runs cost, solved and failed, and where their time went.
import { AnalyticsView } from '../../components/analytics/analytics-view.tsx';

export default function AnalyticsPage() {
  return (
    <main className="analytics-page">
      <header>
        <p>
          <a href="/">← runs</a>
        </p>
        <h1>Analytics</h1>
        <p className="lede">
          Which model solves which levels, at what cost and speed; what failed, why, and what to do about it.
        </p>
      </header>
      <AnalyticsView />
    </main>
  );
}
