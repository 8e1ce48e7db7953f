import type { Deps } from '../../lib/storage/client';
import { writeSeedItems } from './workspace-seed';
import { parseSeedDescription } from './seed-description';
import { planSeed, type SeedOutput } from './seed-plan';

export type { SeedDescription } from './seed-description';
export type { SeedOutput } from './seed-plan';

/**
 * `seed`: creates one new workspace from a description (docs/api.md#seed-description) and returns every id and
 * secret. Secrets exist only in the returned output; the table keeps their fingerprints. The
 * workspace item, last of the plan, is written only once everything else is (writeSeedItems
 * writes in order, never overwriting anything).
 */
export async function seedWorkspace(deps: Deps, description: unknown): Promise<SeedOutput> {
  const { items, output } = planSeed(deps, parseSeedDescription(description));
  await writeSeedItems(deps, items);
  return output;
}
