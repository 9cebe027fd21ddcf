// The practice range's world for a new run or batch (schema/worlds.ts): the shared one every login sees, as on the
// real server, or a private one of the run's own. The forms pass the default their kind of run gets.
import type { World } from '../../schema/worlds.ts';

/** What each choice means, in a person's words. */
const HELP =
  'Shared: what other logins leave in /tmp is there, as on the real server. Private: the run plays in a copy of ' +
  'the range of its own, kept for its whole life, so no other run can hand it a password (a benchmark wants this).';

export function WorldField({
  id,
  value,
  onChange,
}: {
  /** The form's useId() prefix. */
  id: string;
  value: World;
  onChange: (world: World) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={`${id}-world`}>World</label>
      <select
        id={`${id}-world`}
        name="world"
        value={value}
        onChange={(e) => onChange(e.target.value === 'private' ? 'private' : 'shared')}
        aria-describedby={`${id}-world-help`}
      >
        <option value="shared">shared (every login's, as on the real server)</option>
        <option value="private">private (a world of the run's own)</option>
      </select>
      <p id={`${id}-world-help`} className="field-help">
        {HELP}
      </p>
    </div>
  );
}
