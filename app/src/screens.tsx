import type { JSX } from 'preact';
import { ApiKeys } from './api-keys';
import type { Workspace } from './session';
import { Tags } from './tags';
import { texts } from './texts';

/** A screen of a workspace (decisions 7.3): its title in the menu, whether only an admin sees it, what it shows. */
export type Screen = { id: string; title: string; adminOnly: boolean; show: (workspace: Workspace) => JSX.Element };

/** The screens, in the menu's order; a member is shown only those the member role allows. */
export const screens: readonly Screen[] = [
  { id: 'tags', title: texts.screens.tags, adminOnly: false, show: (workspace) => <Tags workspace={workspace} /> },
  {
    id: 'api-keys',
    title: texts.screens.apiKeys,
    adminOnly: false,
    show: (workspace) => <ApiKeys workspace={workspace} />,
  },
];

export const screensOf = (workspace: Workspace): Screen[] =>
  screens.filter((screen) => !screen.adminOnly || workspace.role === 'admin');
