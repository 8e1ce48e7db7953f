import type { JSX } from 'preact';
import { Account } from './account';
import { ApiKeys } from './api-keys';
import { Audit } from './audit';
import { Members } from './members';
import { ProspectRecord } from './prospect-record';
import type { Workspace } from './session';
import { Subscriptions } from './subscriptions';
import { Tags } from './tags';
import { texts } from './texts';
import { Webhook } from './webhook';
import { WebhookCalls } from './webhook-calls';

/**
 * A screen of a workspace (docs/api.md#settings-page): its title in the menu, whether only an admin sees it, what it
 * shows.
 */
export type Screen = { id: string; title: string; adminOnly: boolean; show: (workspace: Workspace) => JSX.Element };

/** The screens, in the menu's order; a member is shown only those the member role allows. */
export const screens: readonly Screen[] = [
  {
    id: 'tags',
    title: texts.screens.tags,
    adminOnly: false,
    // A member sees the tags only: every webhook route answers a member 403, so the page does not ask.
    show: (workspace) => (
      <>
        <Tags workspace={workspace} />
        {workspace.role === 'admin' && <Webhook workspace={workspace} />}
      </>
    ),
  },
  {
    id: 'api-keys',
    title: texts.screens.apiKeys,
    adminOnly: false,
    show: (workspace) => <ApiKeys workspace={workspace} />,
  },
  {
    id: 'webhook-calls',
    title: texts.screens.webhookCalls,
    adminOnly: true,
    show: (workspace) => <WebhookCalls workspace={workspace} />,
  },
  {
    id: 'subscriptions',
    title: texts.screens.subscriptions,
    adminOnly: true,
    show: (workspace) => <Subscriptions workspace={workspace} />,
  },
  {
    id: 'prospect',
    title: texts.screens.prospect,
    adminOnly: false,
    show: (workspace) => <ProspectRecord workspace={workspace} />,
  },
  {
    id: 'members',
    title: texts.screens.members,
    adminOnly: true,
    show: (workspace) => <Members workspace={workspace} />,
  },
  { id: 'audit', title: texts.screens.audit, adminOnly: true, show: (workspace) => <Audit workspace={workspace} /> },
  { id: 'account', title: texts.screens.account, adminOnly: false, show: () => <Account /> },
];

export const screensOf = (workspace: Workspace): Screen[] =>
  screens.filter((screen) => !screen.adminOnly || workspace.role === 'admin');
