import type { Deps, RetryPolicy } from '../../../lib/storage/client';
import { e164Of, isPhoneRegion } from '../../../lib/domain/phone';
import { messages } from '../../../lib/messages';
import { configEditPolicy } from '../../../lib/storage/config-edits';
import { readPhoneSettingsState, writePhoneSettings } from '../storage/phone-settings';
import {
  indexPhones,
  listProspectPhones,
  removeOldRegionMarkers,
  type E164Form,
  type IndexProgress,
  type ProspectPhone,
  type SharedNumber,
} from '../storage/phone-index';
import { defaultRetryPolicy, readDecideWrite } from '../../../lib/storage/conditional-writes';
import { type PhoneSettingsState, listWorkspaces as listStoredWorkspaces } from '../../../lib/storage/workspace-config';
import { AdminInputError, checkedId, unknownId, requireWorkspace } from '../../../lib/settings/admin-input';
import type { PhoneMatchingMode as PhoneMatching, PhoneSettings } from '../../../lib/domain/model';
import type { WorkspaceView } from '../../../lib/settings/workspace-view';

/** `workspace list` (docs/api.md#workspaces): a workspace as listed. */
export type WorkspaceSummaryView = { id: string; name: string; created_at: string };

/**
 * `workspace set` (docs/api.md#workspaces): the workspace after the change; `shared_numbers` only when the
 * change indexed the prospects (E.164 turned on, or its region changed while on).
 */
export type WorkspaceSetView = WorkspaceView & { shared_numbers?: SharedNumber[] };

/** `workspace set`'s options as given on the command line (absent: left as stored). */
export type WorkspaceSettingsInput = { phoneMatching?: string | undefined; phoneRegion?: string | undefined };

/** Every workspace of the table, oldest first (creation date, then id). */
export async function listWorkspaces(deps: Pick<Deps, 'db' | 'tableName'>): Promise<WorkspaceSummaryView[]> {
  return (await listStoredWorkspaces(deps)).map(({ id, name, created_at }) => ({ id, name, created_at }));
}

/** A phone's E.164 form read in a region (lib/domain/phone.ts), as the indexing takes it. */
export const inRegion =
  (region: string): E164Form =>
  (phone) =>
    e164Of(phone, region);

/** The options checked, before any DynamoDB call: a known mode, a region libphonenumber-js knows (upper-cased). */
export function checkedSettingsInput(input: WorkspaceSettingsInput): Partial<PhoneSettings> {
  const checked: Partial<PhoneSettings> = {};
  if (input.phoneMatching === undefined && input.phoneRegion === undefined) {
    throw new AdminInputError(messages.admin.workspaceSettings.nothingToSet);
  }
  if (input.phoneMatching !== undefined) {
    const matching = input.phoneMatching.trim().toLowerCase();
    if (matching !== 'exact' && matching !== 'e164') {
      throw new AdminInputError(messages.admin.workspaceSettings.invalidMatching(input.phoneMatching));
    }
    checked.phone_matching = matching satisfies PhoneMatching;
  }
  if (input.phoneRegion !== undefined) {
    const region = input.phoneRegion.trim().toUpperCase();
    if (!isPhoneRegion(region))
      throw new AdminInputError(messages.admin.workspaceSettings.invalidRegion(input.phoneRegion));
    checked.phone_region = region;
  }
  return checked;
}

/**
 * `workspace set` (docs/api.md#workspaces; docs/data-model.md, "Phone matching in E.164"). In this order:
 *
 * 1. the settings and `config_version` read (strongly consistent), the new ones decided from them;
 * 2. when the change asks for E.164 (again or not) or changes its region while on, the workspace's prospects
 *    indexed in the new region (tools/admin/storage/phone-index.ts) BEFORE anything is switched, so the
 *    lead webhook never matches on a half-built index; an interrupted run leaves markers only, which
 *    the next run finds in place;
 * 3. one transaction switching the settings on the configuration item (conditional on the version
 *    and endpoint read, raising the version) and on the endpoint item; a lost race starts again
 *    from 1 on the fresh settings, so concurrent changes compose (the indexing, already done for a
 *    region, is not run again);
 * 4. after a region change, the markers of the old region that differ removed (they are no longer
 *    read once the new region is in force).
 */
export async function setWorkspace(
  deps: Pick<Deps, 'db' | 'tableName'>,
  workspaceId: string,
  input: WorkspaceSettingsInput,
  progress?: IndexProgress,
  policy: RetryPolicy = configEditPolicy,
): Promise<WorkspaceSetView> {
  const wanted = checkedSettingsInput(input);
  const id = checkedId('workspace', workspaceId);
  const workspace = await requireWorkspace(deps, id);
  let prospects: ProspectPhone[] | undefined;
  const listed = async () => (prospects ??= await listProspectPhones(deps, id));
  const indexed = new Map<string, SharedNumber[]>();

  type Change = { read: PhoneSettingsState; settings: PhoneSettings; indexes: boolean };
  const outcome = await readDecideWrite<
    PhoneSettingsState | undefined,
    Change,
    { settings: PhoneSettings; shared: SharedNumber[] | undefined }
  >(
    {
      read: async () => ({ snapshot: await readPhoneSettingsState(deps, id), consistent: true }),
      decide: (read) => {
        // No configuration item (a strongly consistent read): no such workspace.
        if (!read) return { kind: 'refuse', refusal: unknownId('workspace', id) };
        const settings: PhoneSettings = { ...read.settings, ...wanted };
        // Asking for e164 again indexes again: a no-op on the markers in place, it completes an index a
        // prospect created during the last run missed, and lists the shared numbers again.
        const indexes =
          settings.phone_matching === 'e164' &&
          (wanted.phone_matching === 'e164' || read.settings.phone_region !== settings.phone_region);
        return { kind: 'write', write: { read, settings, indexes } };
      },
      write: async ({ read, settings, indexes }) => {
        let shared: SharedNumber[] | undefined;
        if (indexes) {
          shared = indexed.get(settings.phone_region);
          if (!shared) {
            shared = await indexPhones(deps, id, await listed(), inRegion(settings.phone_region), progress);
            indexed.set(settings.phone_region, shared);
          }
        }
        const written = await writePhoneSettings(deps, id, read, settings);
        if (written === 'changed_meanwhile') return { kind: 'lost-race' };
        if (read.settings.phone_region !== settings.phone_region) {
          await removeOldRegionMarkers(deps, id, await listed(), {
            old: inRegion(read.settings.phone_region),
            new: inRegion(settings.phone_region),
          });
        }
        return { kind: 'written', answer: { settings, shared } };
      },
      contended: () => new Error(messages.admin.workspaceSettings.contended(policy.attempts)),
    },
    { rounds: policy, conflicts: defaultRetryPolicy },
  );
  return {
    id: workspace.id,
    name: workspace.name,
    ...outcome.settings,
    created_at: workspace.created_at,
    ...(outcome.shared === undefined ? {} : { shared_numbers: outcome.shared }),
  };
}
