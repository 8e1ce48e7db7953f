import { useState } from 'preact/hooks';
import { api, currentSession, setTabSession } from './api';
import type { Workspace } from './session';
import { SignIn } from './sign-in';
import { screensOf } from './screens';
import { texts } from './texts';
import { Workspaces } from './workspaces';

/** The page: sign-in, then the choice of a workspace, then its screens. */
export function App() {
  const [session, setSession] = useState(currentSession());
  const [workspace, setWorkspace] = useState<Workspace>();
  const [screenId, setScreenId] = useState<string>();

  if (session === undefined) return <SignIn onSignedIn={setSession} />;
  const signOut = async () => {
    // Every token of the person stops working (docs/api.md#sign-in), whatever this tab does next.
    await api.DELETE('/session');
    setTabSession(undefined);
    setWorkspace(undefined);
    setScreenId(undefined);
    setSession(undefined);
  };
  return (
    <>
      <header>
        <span>{session.email}</span>
        {workspace && (
          <button type="button" onClick={() => setWorkspace(undefined)}>
            {texts.back}
          </button>
        )}
        <button type="button" onClick={() => void signOut()}>
          {texts.signOut}
        </button>
      </header>
      {workspace === undefined ? (
        <Workspaces session={session} onOpen={setWorkspace} />
      ) : (
        <WorkspaceScreens workspace={workspace} screenId={screenId} onScreen={setScreenId} />
      )}
    </>
  );
}

/** A workspace: its menu of the screens the person's role allows, and the screen chosen (the first by default). */
function WorkspaceScreens(props: {
  workspace: Workspace;
  screenId: string | undefined;
  onScreen: (id: string) => void;
}) {
  const allowed = screensOf(props.workspace);
  const shown = allowed.find((screen) => screen.id === props.screenId) ?? allowed[0];
  return (
    <>
      <nav aria-label={texts.screens.menu}>
        <ul>
          {allowed.map((screen) => (
            <li key={screen.id}>
              <button
                type="button"
                aria-current={screen === shown ? 'page' : undefined}
                onClick={() => props.onScreen(screen.id)}
              >
                {screen.title}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        <h1>{props.workspace.name}</h1>
        {shown?.show(props.workspace)}
      </main>
    </>
  );
}
