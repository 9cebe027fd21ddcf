// /board — models head to head: levels solved alone and after help, cost per level, spread across repeats.
import { BoardView } from '../../components/board/board-view.tsx';

export default function BoardPage() {
  return (
    <main className="board-page">
      <header>
        <p>
          <a href="/">← runs</a> · <a href="/batch">batches</a>
        </p>
        <h1>Board</h1>
        <p className="lede">
          Which model solves which level on its own, which only after a person helped, and what each level costs.
        </p>
      </header>
      <BoardView />
    </main>
  );
}
