import type { TabSession, Workspace } from './session';
import { texts } from './texts';

/** The person's workspaces, as the sign-in answered them, each with the person's role in it. */
export function Workspaces({ session, onOpen }: { session: TabSession; onOpen: (workspace: Workspace) => void }) {
  return (
    <main>
      <h1>{texts.workspaces.heading}</h1>
      {session.workspaces.length === 0 ? (
        <p>{texts.workspaces.none}</p>
      ) : (
        <ul class="choices">
          {session.workspaces.map((workspace) => (
            <li key={workspace.id}>
              <button type="button" onClick={() => onOpen(workspace)}>
                {texts.workspaces.open} <strong>{workspace.name}</strong> ({texts.workspaces.role[workspace.role]})
              </button>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
