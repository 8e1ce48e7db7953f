import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { revokeApiKey } from '../../lib/settings/api-keys';
import { undoChangeLogEntry } from '../../lib/settings/changelog-undo';
import type { Deps } from '../../lib/storage/client';
import { DomainError } from '../../lib/domain/model';
import type { TestApi } from '../support/local-api';
import {
  expectLead,
  expectNote,
  expectPatch,
  expectTag,
  expectUndo,
  type Expected,
  type LeadBody,
  type Model,
  type PatchBody,
} from './crm-model';
import { expectStoredAsModelled } from './stored-state';
import type { KeyName, World } from './world';

/**
 * The fast-check commands of the model-based test. Each HTTP command resolves its references
 * against the model (which prospect, which stage id), predicts the answer, sends the request
 * through the local API, compares, applies the change to the model and compares the stored state
 * of what it touched.
 */

export type Real = { api: TestApi; deps: Deps };

/** One HTTP call, its request fixed once chosen, so that a retry sends exactly the same thing. */
type Call = {
  method: string;
  path: string;
  body?: unknown;
  credential: KeyName | 'webhook';
  expect: (model: Model) => Expected;
};
type LastCall = { call: Call; idempotencyKey: string | undefined; status: number; text: string; touched: string[] };

export type RunModel = Model & { lastCall?: LastCall };
type ModelCommand = fc.AsyncCommand<RunModel, Real>;

const unknownId = '00000000-0000-4000-8000-000000000000';

async function send(model: Model, real: Real, call: Call, idempotencyKey: string | undefined) {
  const { credential } = call;
  const webhook = credential === 'webhook';
  const secret = credential === 'webhook' ? model.world.webhook.token : model.world.keys[credential].secret;
  return real.api.request(call.method, call.path, {
    headers: { Authorization: `Bearer ${secret}`, ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}) },
    ...(call.body === undefined ? {} : { body: call.body }),
    ...(webhook ? { query: { endpoint_id: model.world.webhook.endpointId } } : {}),
  });
}

async function perform(model: RunModel, real: Real, call: Call, idempotencyKey: string | undefined): Promise<void> {
  const expected = call.expect(model);
  const response = await send(model, real, call, idempotencyKey);
  expect({ status: response.status, body: response.body }).toMatchObject({
    status: expected.status,
    body: expected.body ?? expect.anything(),
  });
  const touched = expected.commit(response.body);
  model.lastCall = { call, idempotencyKey, status: response.status, text: response.text, touched };
  await expectStoredAsModelled(model, real.deps, touched);
}

/** A command whose run is one HTTP call, built from the model at the time it runs. */
class HttpCommand implements ModelCommand {
  constructor(
    private readonly label: string,
    private readonly withIdempotencyKey: boolean,
    private readonly build: (model: Model) => Call,
  ) {}
  check = () => true;
  run = (model: RunModel, real: Real) =>
    perform(model, real, this.build(model), this.withIdempotencyKey ? randomUUID() : undefined);
  toString = () => `${this.label}${this.withIdempotencyKey ? ' +Idempotency-Key' : ''}`;
}

/**
 * What Zapier or Typeform do after a lost answer: send the last request again. With its
 * Idempotency-Key, the first answer comes back and nothing changes (docs/api.md#idempotency-keys); without, it is a
 * new request, which the model judges on the state as it now is.
 */
class RetryLastCall implements ModelCommand {
  check = (model: Readonly<RunModel>) => model.lastCall !== undefined;
  async run(model: RunModel, real: Real): Promise<void> {
    const last = model.lastCall as LastCall;
    if (last.idempotencyKey === undefined) return perform(model, real, last.call, undefined);
    const response = await send(model, real, last.call, last.idempotencyKey);
    const credential = last.call.credential;
    if (credential !== 'webhook' && model.revoked.has(credential)) expect(response.status).toBe(401);
    else if (last.status === 401 || last.status === 403) expect(response.status).toBe(last.status);
    else expect({ status: response.status, text: response.text }).toEqual({ status: last.status, text: last.text });
    await expectStoredAsModelled(model, real.deps, last.touched);
  }
  toString = () => 'retry last call';
}

/** Undoes an entry counted from the newest (small picks are the likeliest): recent ones can still be undone. */
class UndoEntry implements ModelCommand {
  constructor(private readonly pick: number) {}
  check = (model: Readonly<RunModel>) => model.entries.length > 0;
  async run(model: RunModel, real: Real): Promise<void> {
    const entry = model.entries[model.entries.length - 1 - (this.pick % model.entries.length)];
    if (!entry?.id) throw new Error('an entry of the model was never seen stored');
    const expected = expectUndo(model, entry);
    const undo = undoChangeLogEntry(real.deps, { workspaceId: model.world.workspaceId, entryId: entry.id });
    if (expected.applied) await undo;
    else await expect(undo).rejects.toBeInstanceOf(DomainError);
    await expectStoredAsModelled(model, real.deps, [...expected.commit(), entry.prospectId]);
  }
  toString = () => `undo entry #${this.pick} from the newest`;
}

class RevokeKey implements ModelCommand {
  constructor(private readonly key: KeyName) {}
  check = () => true;
  async run(model: RunModel, real: Real): Promise<void> {
    const { workspaceId, keys } = model.world;
    await revokeApiKey(real.deps, { workspaceId, keyId: keys[this.key].id });
    model.revoked.add(this.key);
  }
  toString = () => `revoke key ${this.key}`;
}

// References, chosen before the workspace exists and resolved against it when the command runs.
const prospectPick = fc.oneof({ weight: 12, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constant(-1) });
const resolveProspect = (model: Model, pick: number) => {
  const ids = [...model.prospects.keys()];
  return pick < 0 ? unknownId : (ids[pick % ids.length] as string);
};
const apiKey = fc.constantFrom<KeyName>('full', 'full', 'full', 'notes');
/** `id:<n>` is the n-th id (`ID:<n>` in capitals), `name:<text>` the text itself. */
const idOrName = (reference: string, ids: readonly string[]) => {
  const [kind, value = ''] = reference.split(':');
  if (kind === 'id') return ids[Number(value)] ?? unknownId;
  if (kind === 'ID') return (ids[Number(value)] ?? unknownId).toUpperCase();
  return value;
};
const tagNamed = (model: Model, reference: string) => {
  const ids = model.world.tags.map((tag) => tag.id);
  return idOrName(reference, ids);
};
const stageNamed = (model: Model, reference: string) => {
  const ids = model.world.stages.map((stage) => stage.id);
  return idOrName(reference, ids);
};
const stageReference = fc.constantFrom(
  'id:0',
  'id:1',
  'ID:1',
  'id:2',
  'id:3',
  'name:Relance',
  'name:nouveau',
  'name:CLOSÉ',
  'name:Ancien',
  'name:Inconnue',
);
const memberReference = fc.constantFrom<string | null>('alice', 'bob', 'ALICE', null, 'unknown');
const resolveMember = (world: World, reference: string | null) =>
  reference === null
    ? null
    : reference === 'unknown'
      ? unknownId
      : reference === 'ALICE'
        ? world.members.alice.toUpperCase()
        : world.members[reference as 'alice' | 'bob'];
const followUp = fc.constantFrom<string | null>(
  '2026-12-01T09:30:00+01:00',
  '2026-12-01T08:30:00Z',
  '2027-01-15T10:00:00.000Z',
  null,
);
const tagReference = fc.constantFrom('name:VIP', 'name:vip', 'id:0', 'ID:1', 'name:Chaud', 'name:Inconnu');
const noteContent = fc.constantFrom(
  'Rappeler mardi',
  '<p>Devis envoyé</p>\n\n— à relancer',
  'Très intéressé 👍🏽',
  '   ',
);
const emails = ['ana@modele.test', 'ben@modele.test', 'lea@modele.test', 'vendu@modele.test'];
const phones = ['+33700000001', '+33700000002', '+33700000009'];
const capitalized = (email: string) =>
  email.replace(/(^|[@.])(\w)/g, (_all, sep: string, c: string) => sep + c.toUpperCase());

const leadCommand = fc
  .record({
    email: fc.option(fc.record({ index: fc.nat({ max: emails.length - 1 }), capitalized: fc.boolean() }), {
      nil: undefined,
    }),
    phone: fc.option(fc.nat({ max: phones.length - 1 }), { nil: undefined }),
    firstName: fc.option(fc.constantFrom('Léa', 'Marc'), { nil: undefined }),
    tag: fc.constantFrom('none', 'id:0', 'ID:1', 'name:inconnu'),
    idempotent: fc.boolean(),
  })
  .map(
    (lead) =>
      new HttpCommand(`lead ${JSON.stringify(lead)}`, lead.idempotent, (model) => {
        const email = lead.email && emails[lead.email.index];
        const body: LeadBody = {
          ...(email ? { email: lead.email?.capitalized ? capitalized(email) : email } : {}),
          ...(lead.phone === undefined ? {} : { phone: phones[lead.phone] }),
          ...(lead.firstName ? { first_name: lead.firstName } : {}),
          ...(lead.tag === 'none' ? {} : { tag_ids: [tagNamed(model, lead.tag)] }),
        };
        return {
          method: 'POST',
          path: '/webhooks/ingest-lead',
          body,
          credential: 'webhook',
          expect: (current) => expectLead(current, body),
        };
      }),
  );

const patchCommand = fc
  .record(
    {
      key: apiKey,
      prospect: prospectPick,
      stage: stageReference,
      setter: memberReference,
      closer: memberReference,
      followUp,
      idempotent: fc.boolean(),
    },
    { requiredKeys: ['key', 'prospect', 'idempotent'] },
  )
  .filter((patch) => ['stage', 'setter', 'closer', 'followUp'].some((field) => field in patch))
  .map(
    (patch) =>
      new HttpCommand(`PATCH ${JSON.stringify(patch)}`, patch.idempotent, (model) => {
        const prospectId = resolveProspect(model, patch.prospect);
        const { world } = model;
        const body: PatchBody = {
          ...(patch.stage === undefined ? {} : { stage: stageNamed(model, patch.stage) }),
          ...('setter' in patch ? { setter_id: resolveMember(world, patch.setter ?? null) } : {}),
          ...('closer' in patch ? { closer_id: resolveMember(world, patch.closer ?? null) } : {}),
          ...('followUp' in patch ? { follow_up_at: patch.followUp ?? null } : {}),
        };
        return {
          method: 'PATCH',
          path: `/prospects/${prospectId}`,
          body,
          credential: patch.key,
          expect: (current) => expectPatch(current, patch.key, prospectId, body),
        };
      }),
  );

const noteCommand = fc
  .record({ key: apiKey, prospect: prospectPick, content: noteContent, idempotent: fc.boolean() })
  .map(
    (note) =>
      new HttpCommand(`note ${JSON.stringify(note)}`, note.idempotent, (model) => {
        const prospectId = resolveProspect(model, note.prospect);
        return {
          method: 'POST',
          path: `/prospects/${prospectId}/notes`,
          body: { content: note.content },
          credential: note.key,
          expect: (current) => expectNote(current, note.key, prospectId, note.content),
        };
      }),
  );

const tagCommand = fc
  .record({
    key: apiKey,
    prospect: prospectPick,
    action: fc.constantFrom<'add' | 'remove'>('add', 'remove'),
    tag: tagReference,
    idempotent: fc.boolean(),
  })
  .map(
    (change) =>
      new HttpCommand(`tag ${JSON.stringify(change)}`, change.idempotent, (model) => {
        const prospectId = resolveProspect(model, change.prospect);
        const reference = tagNamed(model, change.tag);
        const adding = change.action === 'add';
        return {
          method: adding ? 'POST' : 'DELETE',
          path: `/prospects/${prospectId}/tags${adding ? '' : `/${encodeURIComponent(reference)}`}`,
          ...(adding ? { body: { tag: reference } } : {}),
          credential: change.key,
          expect: (current) => expectTag(current, change.key, prospectId, change.action, reference),
        };
      }),
  );

/** Leads, PATCHes, notes and tags most often; undos, retries and revocations now and then. */
export const modelCommands = (maxCommands: number) =>
  fc.commands<RunModel, Real, false>(
    [
      leadCommand,
      leadCommand,
      leadCommand,
      patchCommand,
      patchCommand,
      patchCommand,
      noteCommand,
      noteCommand,
      tagCommand,
      tagCommand,
      fc.nat().map((pick) => new UndoEntry(pick)),
      fc.nat().map((pick) => new UndoEntry(pick)),
      fc.constant(new RetryLastCall()),
      fc.constant(new RetryLastCall()),
      fc.constantFrom<KeyName>('notes', 'notes', 'full').map((key) => new RevokeKey(key)),
    ],
    { maxCommands },
  );
