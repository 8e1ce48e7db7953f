import type { Credential, Route } from '../../lib/routes';

/**
 * The settings API and its sign-in routes (docs/api.md#sign-in, #settings-api): their functions know the members' user
 * pool and live in the nested stack of ./constructs/settings-functions.ts, their methods have their own throttle
 * (./constructs/crm-api.ts) and the web ACL its own per-address limit on their paths (./waf-rules.ts).
 */
export const settingsCredentials: readonly Credential[] = ['member-token', 'none'];

export const isSettingsRoute = (route: Route): boolean => settingsCredentials.includes(route.credential);
