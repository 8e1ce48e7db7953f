import type { components } from './settings-api';

type Opened = components['schemas']['Session'];
/**
 * A workspace as the screens need it, with the person's own member id in it (« À relancer » on « Prospects »): the
 * sign-in's list, or, for one joined since, `GET /workspaces/{id}` (its role, or the API's refusal) with
 * `GET /workspaces` (the member id, which the former does not carry).
 */
export type Workspace = Pick<Opened['workspaces'][number], 'id' | 'name' | 'role' | 'member_id'>;

/** What the page keeps of a sign-in: for this tab only (sessionStorage), never past it (docs/api.md#settings-page). */
export type TabSession = {
  accessToken: string;
  refreshToken: string;
  /** When the access token stops being valid, in epoch milliseconds. */
  expiresAt: number;
  email: string;
  workspaces: Workspace[];
};

const storageKey = 'crm-settings-session';

export const tabSessionOf = (opened: Opened, now: number): TabSession => ({
  accessToken: opened.access_token,
  refreshToken: opened.refresh_token,
  expiresAt: now + opened.expires_in * 1000,
  email: opened.member.email,
  workspaces: opened.workspaces.map(({ id, name, role, member_id }) => ({ id, name, role, member_id })),
});

export function storedSession(): TabSession | undefined {
  const kept = sessionStorage.getItem(storageKey);
  return kept === null ? undefined : (JSON.parse(kept) as TabSession);
}

export const keepSession = (session: TabSession): void => sessionStorage.setItem(storageKey, JSON.stringify(session));

/** The sign-in forgotten, and what the tab kept for the person (the filters of « Prospects »). */
export function forgetSession(): void {
  for (const key of Object.keys(sessionStorage)) if (key.startsWith('crm-')) sessionStorage.removeItem(key);
}
