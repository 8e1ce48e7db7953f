import { useState } from 'preact/hooks';
import { api, currentSession, setTabSession } from './api';
import type { Workspace } from './session';
import { SignIn } from './sign-in';
import { Tags } from './tags';
import { texts } from './texts';
import { Workspaces } from './workspaces';

/** The page: sign-in, then the choice of a workspace, then its screens. */
export function App() {
  const [session, setSession] = useState(currentSession());
  const [workspace, setWorkspace] = useState<Workspace>();

  if (session === undefined) return <SignIn onSignedIn={setSession} />;
  const signOut = async () => {
    // Every token of the person stops working (decisions 7.1), whatever this tab does next.
    await api.DELETE('/session');
    setTabSession(undefined);
    setWorkspace(undefined);
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
        <main>
          <h1>{workspace.name}</h1>
          <Tags workspace={workspace} />
        </main>
      )}
    </>
  );
}
