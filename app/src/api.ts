import createClient from 'openapi-fetch';
import { forgetSession, keepSession, storedSession, type TabSession } from './session';
import type { paths } from './settings-api';
import { texts } from './texts';

/**
 * The settings API of the page's own origin, typed by its OpenAPI document (./settings-api.d.ts holds its paths
 * only: the page cannot reach the Prospect API or a webhook). Every call carries the tab's access token, renewed
 * with the refresh token a minute before it expires.
 */
export const api = createClient<paths>({ baseUrl: apiBaseUrl() });

/**
 * The API's root, two levels above this script (`<root>/app/assets/main-<hash>.js`): the origin's root on
 * `npm start`, the stage's on AWS (`/<stage>/app/…`), a custom domain's base path if one is mapped.
 */
function apiBaseUrl(): string {
  return new URL('../../', import.meta.url).href.replace(/\/$/, '');
}

let session = storedSession();
let renewal: ReturnType<typeof setTimeout> | undefined;
const renewAheadMs = 60_000;

api.use({
  onRequest({ request }) {
    if (session) request.headers.set('Authorization', `Bearer ${session.accessToken}`);
    return request;
  },
});

/** The session of this tab from now on (undefined: signed out), its renewal scheduled. */
export function setTabSession(next: TabSession | undefined): void {
  session = next;
  clearTimeout(renewal);
  if (next === undefined) return forgetSession();
  keepSession(next);
  renewal = setTimeout(() => void renew(next), Math.max(0, next.expiresAt - Date.now() - renewAheadMs));
}

async function renew(current: TabSession): Promise<void> {
  const { data } = await api.POST('/session/refresh', { body: { refresh_token: current.refreshToken } });
  // A refused refresh (signed out elsewhere, expired): the next call answers 401 and the page asks to sign in.
  if (data)
    setTabSession({ ...current, accessToken: data.access_token, expiresAt: Date.now() + data.expires_in * 1000 });
}

export const currentSession = (): TabSession | undefined => session;

/** What to tell the person about a refused call: the API's own French message, or a general one. */
export function messageOf(error: unknown): string {
  const message = (error as { error?: { message?: unknown } } | undefined)?.error?.message;
  return typeof message === 'string' ? message : texts.unexpected;
}
