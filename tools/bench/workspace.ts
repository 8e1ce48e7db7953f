import { readFile } from 'node:fs/promises';
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { parseSeedDescription } from '../seed/seed-description';
import { planSeed, type SeedItem, type SeedOutput } from '../seed/seed-plan';
import { type Deps, untilProcessed } from '../../lib/storage/client';
import { editWorkspaceConfig, partsOf } from '../../lib/storage/config-edits';
import { items as itemOf } from '../../lib/storage/table-items';
import type { Prospect, Stamped } from '../../lib/domain/model';
import { newFieldSchema, withNewField } from '../../lib/domain/fields/field-definitions';

/** The workspace as measured: with only the bench's own prospects, then with 100 000 more. */
export type Phase = 'empty' | 'bulk';
export const phases: readonly Phase[] = ['empty', 'bulk'];
export const bulkProspectCount = 100_000;

/** A seeded workspace; its prospects and API keys are handed out once each, so no measure eats into another's rate limit. */
export type Workspace = Omit<Awaited<ReturnType<typeof seedBenchWorkspace>>, 'items' | 'seconds'>;

export type Workspaces = Record<Phase, Workspace>;
type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

/** One HTTP call of the API; sending it throws on any answer but a 2xx. */
export type Call = { method: string; path: string; headers: Record<string, string>; body?: unknown };
export type Send = (call: Call) => Promise<unknown>;

/** A call as an HTTP request: its body as JSON. */
export const request = ({ method, path, headers, body }: Call) => ({
  ...{ method, path, headers: { 'content-type': 'application/json', ...headers } },
  body: body === undefined ? undefined : JSON.stringify(body),
});

export function sender(url: string): Send {
  return async (call) => {
    const response = await fetch(new URL(call.path, url), request(call));
    const text = await response.text();
    if (!response.ok) throw new Error(`${call.method} ${call.path} answered ${response.status}: ${text}`);
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
}

export const apiCall = (key: string, method: string, path: string, body?: unknown): Call => {
  return { method, path, headers: { authorization: `Bearer ${key}` }, body };
};

export function webhookCall(seed: SeedOutput, route: 'ingest-lead' | 'recruitment', body: unknown): Call {
  if (seed.webhook === null) throw new Error('the bench workspace has no webhook');
  return apiCall(seed.webhook.token, 'POST', `/webhooks/${route}?endpoint_id=${seed.webhook.endpoint_id}`, body);
}

let contacts = 0;
/** A number no other contact of this bench run has: each lead numbered `n` is a new contact. */
export const fresh = () => (contacts += 1);

/** The workspace's configuration and custom fields, the known lead, and the bodies of the calls, as `workspace.json` has them. */
const data = JSON.parse(await readFile(new URL('./workspace.json', import.meta.url), 'utf8')) as {
  seed: Record<string, unknown>;
  fields: unknown[];
  /** Five custom field values as a Zap sends them: two under their questions' titles, one under its key, two in `fields`. */
  leadFieldValues: Record<string, unknown>;
  /** Its phone is outside the +336… and +337… ranges of the generated leads: no new lead matches it by phone. */
  knownLead: { key: string; email: string; phone: string; first_name: string };
} & Record<'lead' | 'application' | 'note', Record<string, unknown>>;

export const newLeadBody = (n: number, tagId: string | undefined) => ({
  ...data.lead,
  ...{ email: `lead-${n}@banc.test`, phone: `+336${String(n).padStart(8, '0')}` },
  tag_ids: tagId === undefined ? [] : [tagId],
});
/** The five custom fields of the bench's workspaces, as `POST /fields` would take them. */
export const benchFields = data.fields.map((field) => newFieldSchema.parse(field));

export const newLeadWithFieldsBody = (n: number, tagId: string | undefined) => ({
  ...newLeadBody(n, tagId),
  ...data.leadFieldValues,
});
export const applicationBody = (n: number) => ({ email: `candidat-${n}@banc.test`, ...data.application });
export const noteBody = data.note;

const seededProspects = 350;
/** Prospects with a follow-up due, in both workspaces: more than a page of the list by follow-up (limit 50, and one). */
const dueFollowUps = 60;
export const apiKeyCount = 120;

/** An instant `minutes` before now, as the seed takes a follow-up. */
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** Hands out `ids` in order, each once. */
export function handOut(ids: readonly string[], what: string): (count: number) => string[] {
  const left = [...ids];
  return (count) => {
    if (count > left.length) throw new Error(`the bench workspace has only ${ids.length} ${what} to hand out`);
    return left.splice(0, count);
  };
}

/**
 * The seed stamps every prospect with the one instant it was planned at, where a list read newest first reads whole
 * the prospects tying at the instant its page ends on (docs/data-model.md#lists-of-prospects): 100,000 of them, read
 * by every such page (docs/performance.md, section 4). A workspace's prospects come one at a time: here each is
 * created (and last changed) a millisecond after the one before it, the last at the seed's instant.
 */
function createdOneByOne(items: readonly SeedItem[]): SeedItem[] {
  let later = items.filter((item) => item.type === 'prospect').length;
  return items.map((item) => {
    if (item.type !== 'prospect') return item;
    later -= 1;
    const at = new Date(Date.parse(item.created_at as string) - later).toISOString();
    return itemOf.prospect({ ...(item as unknown as Stamped<Prospect>), created_at: at, updated_at: at });
  });
}

/**
 * A workspace as `lib/settings` plans a seed (section 4), its configuration of a sales team's size (read whole on most
 * routes) with five custom fields; written by unconditional BatchWriteItems (the table is the bench's own), four at a time (DynamoDB Local,
 * one JVM, goes no faster on two cores).
 */
export async function seedBenchWorkspace(deps: Deps, phase: Phase) {
  const targets = Array.from({ length: seededProspects }, (_, index) => ({
    ...{ key: `cible-${index}`, email: `cible-${index}@banc.test` },
    ...{ first_name: 'Cible', last_name: String(index), tags: ['hot'] },
  }));
  // Due within the last hour, one a minute: the list by follow-up's page in the workspace without bulk prospects.
  const followedUp = Array.from({ length: dueFollowUps }, (_, index) => ({
    ...{
      key: `relance-${index}`,
      email: `relance-${index}@banc.test`,
      first_name: 'Relance',
      last_name: String(index),
    },
    next_follow_up_at: minutesAgo(dueFollowUps - index),
  }));
  // Every other one with a follow-up due, one every two minutes over the last 70 days, all before the others': so the
  // follow-up index holds 50,000 more prospects, and volume-0, this phase's known lead, has none, as the other phase's.
  const bulk = Array.from({ length: phase === 'bulk' ? bulkProspectCount : 0 }, (_, index) => ({
    ...{ key: `volume-${index}`, email: `volume-${index}@banc.test`, phone: `+337${String(index).padStart(8, '0')}` },
    ...{ first_name: 'Prénom', last_name: `Volume ${index}`, source: 'Import du banc de mesure' },
    ...(index % 2 === 1 ? { next_follow_up_at: minutesAgo(dueFollowUps + bulkProspectCount - index) } : {}),
  }));
  const keys = Array.from({ length: apiKeyCount }, (_, i) => ({ key: `cle-${i}`, name: `Clé ${i}`, scopes: ['*'] }));
  const prospects = [data.knownLead, ...targets, ...followedUp, ...bulk];
  const planned = planSeed(deps, parseSeedDescription({ ...data.seed, api_keys: keys, prospects }));
  const [items, seed] = [createdOneByOne(planned.items), planned.output];
  const started = performance.now();
  const puts: WriteRequest[] = items.map((Item) => ({ PutRequest: { Item } }));
  const batches = Array.from({ length: Math.ceil(puts.length / 25) }, (_, i) => puts.slice(i * 25, i * 25 + 25));
  const worker = async () => {
    for (let batch = batches.pop(); batch !== undefined; batch = batches.pop()) {
      await untilProcessed(batch, async (part) => {
        const written = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.tableName]: [...part] } }));
        return written.UnprocessedItems?.[deps.tableName] ?? [];
      });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  // The seed knows no custom fields: defined as the settings API does, in one edit of the configuration.
  await editWorkspaceConfig(deps, seed.workspace_id, (config) => ({
    ...partsOf(config),
    fields: benchFields.reduce((entries, field) => withNewField({ fields: entries }, field), config.fields),
  }));
  const prospectIds = targets.flatMap(({ key }) => seed.prospects[key] ?? []);
  const secrets = Object.values(seed.api_keys).map(({ secret }) => secret);
  return {
    seed,
    prospects: handOut(prospectIds, 'prospects'),
    apiKeys: handOut(secrets, 'API keys'),
    // The e-mail of a prospect already in the workspace; in the bulk phase, one of the 100,000.
    knownLeadEmail: phase === 'empty' ? data.knownLead.email : 'volume-0@banc.test',
    items: items.length,
    seconds: (performance.now() - started) / 1000,
  };
}
