/**
 * A table row's link to the item it lists (a key's, a subscription's, a call's own page): a short label on screen,
 * the item named in full for assistive technology.
 */
export function RowLink({ href, label, short }: { href: string; label: string; short: string }) {
  return (
    <a class="button secondary" href={href} aria-label={label}>
      {short}
    </a>
  );
}
