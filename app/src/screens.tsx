import type { JSX } from 'preact';
import { Account } from './account';
import { ApiKeys } from './api-keys';
import { Audit } from './audit';
import { Fields } from './fields';
import { Members } from './members';
import { ProspectRecord } from './prospect-record';
import { Prospects } from './prospects';
import type { Workspace } from './session';
import { Subscriptions } from './subscriptions';
import { Tags } from './tags';
import { texts } from './texts';
import { Webhook } from './webhook';
import { WebhookCalls } from './webhook-calls';
import { WorkspaceSettings } from './workspace-settings';

/**
 * A screen of a workspace (docs/api.md#settings-page): its address's segment (`#/espaces/<id>/<slug>`), its title in
 * the menu, whether only an admin sees it, what it shows, given the item its address names if any
 * (`…/<slug>/<item id>`).
 */
export type Screen = {
  slug: string;
  title: string;
  adminOnly: boolean;
  show: (workspace: Workspace, item: string | undefined) => JSX.Element;
};

/** The screens, in the menu's order; a member is shown only those the member role allows. */
export const screens: readonly Screen[] = [
  {
    slug: 'tags',
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
    slug: 'champs',
    title: texts.screens.fields,
    adminOnly: false,
    show: (workspace, item) => <Fields workspace={workspace} fieldKey={item} />,
  },
  {
    slug: 'cles',
    title: texts.screens.apiKeys,
    adminOnly: false,
    show: (workspace, item) => <ApiKeys workspace={workspace} keyId={item} />,
  },
  {
    slug: 'appels',
    title: texts.screens.webhookCalls,
    adminOnly: true,
    show: (workspace, item) => <WebhookCalls workspace={workspace} callId={item} />,
  },
  {
    slug: 'abonnements',
    title: texts.screens.subscriptions,
    adminOnly: true,
    show: (workspace, item) => <Subscriptions workspace={workspace} subscriptionId={item} />,
  },
  {
    slug: 'prospects',
    title: texts.screens.prospects,
    adminOnly: false,
    show: (workspace, item) =>
      item === undefined ? (
        <Prospects workspace={workspace} />
      ) : (
        <ProspectRecord workspace={workspace} prospectId={item} />
      ),
  },
  {
    slug: 'membres',
    title: texts.screens.members,
    adminOnly: true,
    show: (workspace) => <Members workspace={workspace} />,
  },
  {
    slug: 'espace',
    title: texts.screens.workspace,
    adminOnly: false,
    show: (workspace) => <WorkspaceSettings workspace={workspace} />,
  },
  {
    slug: 'journal',
    title: texts.screens.audit,
    adminOnly: true,
    show: (workspace) => <Audit workspace={workspace} />,
  },
  { slug: 'compte', title: texts.screens.account, adminOnly: false, show: () => <Account /> },
];

export const screensOf = (workspace: Workspace): Screen[] =>
  screens.filter((screen) => !screen.adminOnly || workspace.role === 'admin');
