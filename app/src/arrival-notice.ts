import { hrefOf, type Route } from './routes';

/** The notice the next screen shows on arriving, once: what happened on the screen left (`leaveFor`). */
let pending: string | undefined;

/**
 * Leaves the screen for `route` in place of it in the tab's history (Back does not lead to what is gone, an erased
 * prospect's record), the next screen saying `notice` once (`takeArrivalNotice`). Kept in memory only: a reload
 * forgets it, as it forgets any notice the page showed.
 */
export function leaveFor(route: Route, notice: string): void {
  pending = notice;
  window.location.replace(hrefOf(route));
}

/** The notice left for the screen arriving, if any; taken once, so it is not shown again on coming back. */
export function takeArrivalNotice(): string | undefined {
  const notice = pending;
  pending = undefined;
  return notice;
}
