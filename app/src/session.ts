import type { components } from './settings-api';

type Opened = components['schemas']['Session'];
/** A workspace as the screens need it: the sign-in's list, or `GET /workspaces/{id}` for one joined since. */
export type Workspace = Pick<Opened['workspaces'][number], 'id' | 'name' | 'role'>;

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
  workspaces: opened.workspaces,
});

export function storedSession(): TabSession | undefined {
  const kept = sessionStorage.getItem(storageKey);
  return kept === null ? undefined : (JSON.parse(kept) as TabSession);
}

export const keepSession = (session: TabSession): void => sessionStorage.setItem(storageKey, JSON.stringify(session));

export const forgetSession = (): void => sessionStorage.removeItem(storageKey);
