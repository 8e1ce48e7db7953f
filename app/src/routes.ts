import { useEffect, useState } from 'preact/hooks';

/**
 * Where the person is, as the address's fragment says it (docs/api.md#settings-page): `#/espaces` the list of their
 * workspaces, `#/espaces/<workspace id>/<screen>[/<item id>]` a screen of a workspace, an item of it (a call, a
 * prospect, a key, a subscription) when it has one. Only the fragment: the page's S3 integration answers 404 for any
 * other path under `/app/` (docs/adr/0015-settings-page-served-by-api-gateway.md), and a fragment never reaches the
 * server. Anything else is the list of workspaces, or the workspace's first screen.
 */
export type Route = { workspaceId?: string; screen?: string; item?: string };

const workspacesSegment = 'espaces';

export function routeOf(hash: string): Route {
  const [first, workspaceId, screen, item] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (first !== workspacesSegment || !workspaceId) return {};
  return { workspaceId, ...(screen ? { screen } : {}), ...(item ? { item } : {}) };
}

/** The address of a route, as a link's `href`. */
export function hrefOf(route: Route): string {
  const segments = [route.workspaceId, route.screen, route.item].filter((segment) => segment !== undefined);
  return `#/${[workspacesSegment, ...segments].map(encodeURIComponent).join('/')}`;
}

/** Goes to a route as a link would: a new entry in the tab's history, so Back returns. */
export function goTo(route: Route): void {
  window.location.hash = hrefOf(route);
}

/**
 * The route of the address, followed as it changes (a link, Back, Forward, an address typed). The address is read
 * again once the listener is in place: Preact runs effects after the first paint, so a change of the fragment made in
 * between (an address typed or a link followed while the page was still starting) fired no event this listener heard.
 */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(window.location.hash));
    window.addEventListener('hashchange', follow);
    follow();
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
