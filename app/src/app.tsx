import { useEffect, useState } from 'preact/hooks';
import { api, currentSession, messageOf, setTabSession } from './api';
import { goTo, hrefOf, useRoute, type Route } from './routes';
import type { Workspace } from './session';
import { SignIn } from './sign-in';
import { screensOf } from './screens';
import { texts } from './texts';
import { Workspaces } from './workspaces';

/**
 * The page: sign-in, then the screen the address names (`./routes.ts`): the person's workspaces, or a screen of one.
 * The address is kept through the sign-in, so a link shared by a colleague opens where it points once signed in.
 */
export function App() {
  const [session, setSession] = useState(currentSession());
  const route = useRoute();

  if (session === undefined) return <SignIn onSignedIn={setSession} />;
  const signOut = async () => {
    // Every token of the person stops working (docs/api.md#sign-in), whatever this tab does next.
    await api.DELETE('/session');
    setTabSession(undefined);
    goTo({});
    setSession(undefined);
  };
  return (
    <>
      <header class="site-header">
        <a class="brand" href={hrefOf({})}>
          {texts.title}
        </a>
        <span class="who">{session.email}</span>
        <button type="button" class="button secondary" onClick={() => void signOut()}>
          {texts.signOut}
        </button>
      </header>
      {route.workspaceId === undefined ? (
        <Workspaces session={session} />
      ) : (
        <OpenedWorkspace known={session.workspaces} route={{ ...route, workspaceId: route.workspaceId }} />
      )}
    </>
  );
}

/**
 * The workspace the address names: one of the sign-in's, or else as the API answers it (joined since the sign-in), or
 * the API's refusal (not a member: 404), with the way back to the person's workspaces.
 */
function OpenedWorkspace({ known, route }: { known: Workspace[]; route: Route & { workspaceId: string } }) {
  const signedInto = known.find((workspace) => workspace.id === route.workspaceId);
  const [read, setRead] = useState<{ workspace?: Workspace; failure?: string }>();
  useEffect(() => {
    if (signedInto) return;
    setRead(undefined);
    void Promise.all([
      api.GET('/workspaces/{workspace_id}', { params: { path: { workspace_id: route.workspaceId } } }),
      api.GET('/workspaces'),
    ]).then(([{ data, error }, mine]) => {
      // The member id only `GET /workspaces` carries; the refusal (not a member: 404) is the workspace's own route's.
      const memberId = mine.data?.workspaces.find((each) => each.id === route.workspaceId)?.member_id;
      if (!data) return setRead({ failure: messageOf(error) });
      if (memberId === undefined) return setRead({ failure: messageOf(mine.error) });
      setRead({ workspace: { id: data.id, name: data.name, role: data.role, member_id: memberId } });
    });
  }, [route.workspaceId, signedInto]);

  const workspace = signedInto ?? read?.workspace;
  if (workspace) return <WorkspaceScreens workspace={workspace} route={route} />;
  return (
    <main>
      {read?.failure === undefined ? (
        <p>{texts.loading}</p>
      ) : (
        <>
          <h1>{texts.workspaces.unreachable}</h1>
          <p role="alert" class="notice error">
            {read.failure}
          </p>
          <p>
            <a href={hrefOf({})}>{texts.workspaces.backToList}</a>
          </p>
        </>
      )}
    </main>
  );
}

/**
 * A workspace: its menu of the screens the person's role allows, and the screen the address names; the first one for
 * an address that names none, or one the role does not allow.
 */
function WorkspaceScreens({ workspace, route }: { workspace: Workspace; route: Route }) {
  const allowed = screensOf(workspace);
  const named = allowed.find((screen) => screen.slug === route.screen);
  const shown = named ?? allowed[0];
  useEffect(() => {
    document.title = texts.pageTitle(shown?.title ?? '', workspace.name);
  }, [shown, workspace.name]);
  return (
    <>
      <nav aria-label={texts.screens.menu} class="screens">
        <a class="switch" href={hrefOf({})}>
          {texts.back}
        </a>
        <ul>
          {allowed.map((screen) => (
            <li key={screen.slug}>
              <a
                href={hrefOf({ workspaceId: workspace.id, screen: screen.slug })}
                aria-current={screen === shown ? 'page' : undefined}
              >
                {screen.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        <h1>{workspace.name}</h1>
        {shown?.show(workspace, named ? route.item : undefined)}
      </main>
    </>
  );
}
