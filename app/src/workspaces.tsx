import { useEffect } from 'preact/hooks';
import { hrefOf } from './routes';
import type { TabSession } from './session';
import { Table } from './table';
import { texts } from './texts';

/** The person's workspaces, as the sign-in answered them, each with the person's role in it and its link. */
export function Workspaces({ session }: { session: TabSession }) {
  useEffect(() => {
    document.title = texts.pageTitle(texts.workspaces.heading);
  }, []);
  return (
    <main>
      <h1>{texts.workspaces.heading}</h1>
      {session.workspaces.length === 0 ? (
        <p>{texts.workspaces.none}</p>
      ) : (
        <Table
          caption={texts.workspaces.heading}
          columns={[texts.workspaces.name, texts.workspaces.yourRole]}
          rows={session.workspaces.map((workspace) => ({
            key: workspace.id,
            cells: [<strong>{workspace.name}</strong>, texts.workspaces.role[workspace.role]],
            actions: (
              <a
                class="button"
                href={hrefOf({ workspaceId: workspace.id })}
                aria-label={texts.workspaces.openNamed(workspace.name)}
              >
                {texts.workspaces.open}
              </a>
            ),
          }))}
        />
      )}
    </main>
  );
}
