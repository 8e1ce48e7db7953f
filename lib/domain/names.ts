/**
 * Names as references (docs/api.md#names-as-references): the one comparison of pipeline, stage and tag names, wherever
 * a name is a reference (bodies, the DELETE path, the lead webhook, the seed's refusals, the
 * protected stages). NFC so that `é` typed as `e` + U+0301 is `é`; surrounding white space trimmed
 * (String#trim knows Unicode spaces, NBSP included); `toLowerCase`, not `toLocaleLowerCase`, so the
 * result never depends on a locale (Turkish `I`), and `ß` stays apart from `ss` (lower-casing, not
 * full case folding). NFC again after lower-casing, which can decompose (`İ` → `i` + U+0307).
 */
export const nameKey = (name: string): string => name.normalize('NFC').trim().toLowerCase().normalize('NFC');

export const sameName = (a: string, b: string): boolean => nameKey(a) === nameKey(b);

/** A reference is an id (UUIDs compare ignoring case and padding) or else a name. */
export function findByIdOrName<T extends { id: string; name: string }>(
  items: readonly T[],
  reference: string,
): T | undefined {
  const id = reference.trim().toLowerCase();
  const key = nameKey(reference);
  return items.find((item) => item.id === id) ?? items.find((item) => nameKey(item.name) === key);
}

/** Stages a sale is entered in, in the application only (docs/api.md#protected-stages), however spelt or encoded. */
const protectedStageKeys = ['Closé', 'Acompte'].map(nameKey);

export const isProtectedStage = (stage: { name: string }): boolean => protectedStageKeys.includes(nameKey(stage.name));
