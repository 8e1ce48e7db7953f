/** Names used as references match exactly, ignoring case (spec §2). Ids match ignoring case too (UUIDs). */
export const sameName = (a: string, b: string): boolean => a.toLocaleLowerCase('fr') === b.toLocaleLowerCase('fr');

export function findByIdOrName<T extends { id: string; name: string }>(
  items: readonly T[],
  reference: string,
): T | undefined {
  const id = reference.toLowerCase();
  return items.find((item) => item.id === id) ?? items.find((item) => sameName(item.name, reference));
}

/** Stages a sale is entered in, inside the application only (spec §3). */
const protectedStageNames = ['Closé', 'Acompte'];

export const isProtectedStage = (stage: { name: string }): boolean =>
  protectedStageNames.some((name) => sameName(name, stage.name));
