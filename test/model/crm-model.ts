import type { KeyName, Stage, World } from './world';

/**
 * A deliberately simple model of one workspace, written from docs/api.md (not from lib/): what
 * each call must answer and what the stored state must then be. The model-based test runs random
 * sequences against both and compares them after every step.
 */

export type ProspectState = {
  id: string;
  pipeline_id: string | null;
  stage_id: string | null;
  setter_id: string | null;
  closer_id: string | null;
  next_follow_up_at: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  version: number;
  tags: Set<string>;
  notes: { id: string; content: string }[];
};

export type Field = 'stage' | 'setter' | 'closer' | 'follow_up' | 'tags' | 'note';

export type Entry = {
  /** Known once the stored entry has been seen (the server draws ids). */
  id?: string;
  prospectId: string;
  keyId: string;
  field: Field;
  before: string | null;
  after: string | null;
  pipelineBefore?: string | null;
  /** The version the change left; undo requires the prospect to be still there. Null for a note. */
  prospectVersion: number | null;
  undone: boolean;
};

export type Model = {
  world: World;
  prospects: Map<string, ProspectState>;
  entries: Entry[];
  /** Contact markers: lower-cased e-mail → prospect, phone → prospect. */
  emailOwners: Map<string, string>;
  phoneOwners: Map<string, string>;
  revoked: Set<KeyName>;
};

/**
 * What a call must answer. `body` is matched partially; `commit` applies the change to the model
 * (given the actual answer, for the ids the server drew) and returns the prospects it touched.
 */
export type Expected = { status: number; body?: object; commit: (answer: unknown) => string[] };

const nothing = (status: number, body?: object): Expected => ({ status, ...(body ? { body } : {}), commit: () => [] });

/** The seeded prospects of test/model/world.ts, as the seed stores them. */
export function initialModel(world: World): Model {
  const seeded = (fields: Partial<ProspectState> & Pick<ProspectState, 'id'>): ProspectState => ({
    pipeline_id: world.defaultPipelineId,
    stage_id: world.firstStageId,
    setter_id: null,
    closer_id: null,
    next_follow_up_at: null,
    first_name: null,
    last_name: null,
    email: null,
    phone: null,
    version: 1,
    tags: new Set(),
    notes: [],
    ...fields,
  });
  const lea = seeded({ id: world.prospects.lea, first_name: 'Léa', email: 'lea@modele.test', phone: '+33700000009' });
  const sold = seeded({
    id: world.prospects.sold,
    stage_id: world.stages.find((stage) => stage.protected)?.id ?? null,
    closer_id: world.members.bob,
    email: 'vendu@modele.test',
    tags: new Set(world.tags.slice(0, 1).map((tag) => tag.id)),
  });
  return {
    world,
    prospects: new Map([lea, sold].map((prospect) => [prospect.id, prospect])),
    entries: [],
    emailOwners: new Map([
      ['lea@modele.test', lea.id],
      ['vendu@modele.test', sold.id],
    ]),
    phoneOwners: new Map([['+33700000009', lea.id]]),
    revoked: new Set(),
  };
}

/**
 * Names as references (docs/api.md#names-as-references), written again here on purpose (the model
 * does not import the code it checks).
 */
const comparable = (name: string) => name.normalize('NFC').trim().toLowerCase().normalize('NFC');
const sameName = (a: string, b: string) => comparable(a) === comparable(b);

const unauthorized = { error: { code: 'unauthorized' } };

/** 401 for a revoked key, 403 for a key without the route's scope (docs/api.md#check-order). */
function gate(model: Model, key: KeyName, scope: string): Expected | undefined {
  if (model.revoked.has(key)) return nothing(401, unauthorized);
  const { scopes } = model.world.keys[key];
  if (!scopes.includes('*') && !scopes.includes(scope)) return nothing(403, { error: { code: 'forbidden' } });
  return undefined;
}

function logEntry(
  model: Model,
  key: KeyName,
  prospect: ProspectState,
  entry: Omit<Entry, 'keyId' | 'prospectId' | 'undone'>,
) {
  model.entries.push({ ...entry, keyId: model.world.keys[key].id, prospectId: prospect.id, undone: false });
}

export type LeadBody = { email?: string; phone?: string; first_name?: string; tag_ids?: string[] };

/**
 * Lead matching (docs/api.md#lead-matching): e-mail (any case), then phone; a contact owned by another
 * stays there (docs/api.md#known-contacts).
 */
export function expectLead(model: Model, lead: LeadBody): Expected {
  if (lead.email === undefined && lead.phone === undefined) return nothing(400, { error: 'invalid_payload' });
  const tagIds = (lead.tag_ids ?? [])
    .map((id) => id.toLowerCase())
    .filter((id) => model.world.tags.some((tag) => tag.id === id));
  const emailOwner = lead.email === undefined ? undefined : model.emailOwners.get(lead.email.toLowerCase());
  const phoneOwner = lead.phone === undefined ? undefined : model.phoneOwners.get(lead.phone);
  const ownerId = emailOwner ?? phoneOwner;

  if (ownerId === undefined) {
    return {
      status: 200,
      body: {
        status: 'created',
        pipeline_id: model.world.defaultPipelineId,
        stage_id: model.world.firstStageId,
        placement: 'defaut',
      },
      commit: (answer) => {
        const id = (answer as { prospect_id: string }).prospect_id;
        model.prospects.set(id, {
          id,
          pipeline_id: model.world.defaultPipelineId,
          stage_id: model.world.firstStageId,
          setter_id: null,
          closer_id: null,
          next_follow_up_at: null,
          first_name: lead.first_name ?? null,
          last_name: null,
          email: lead.email ?? null,
          phone: lead.phone ?? null,
          version: 1,
          tags: new Set(tagIds),
          notes: [],
        });
        if (lead.email !== undefined) model.emailOwners.set(lead.email.toLowerCase(), id);
        if (lead.phone !== undefined) model.phoneOwners.set(lead.phone, id);
        return [id];
      },
    };
  }

  const prospect = model.prospects.get(ownerId) as ProspectState;
  return {
    status: 200,
    body: { status: 'existing', prospect_id: ownerId, placement: 'existant' },
    commit: () => {
      // A match that changes nothing writes nothing of the prospect: its version stays (docs/api.md#lists-of-prospects).
      const before = JSON.stringify([prospect.email, prospect.phone, prospect.first_name, [...prospect.tags].sort()]);
      if (lead.email !== undefined && (emailOwner === undefined || emailOwner === ownerId)) {
        if (emailOwner === undefined) {
          if (prospect.email !== null) model.emailOwners.delete(prospect.email.toLowerCase());
          model.emailOwners.set(lead.email.toLowerCase(), ownerId);
        }
        prospect.email = lead.email;
      }
      if (lead.phone !== undefined && (phoneOwner === undefined || phoneOwner === ownerId)) {
        if (phoneOwner === undefined) {
          if (prospect.phone !== null) model.phoneOwners.delete(prospect.phone);
          model.phoneOwners.set(lead.phone, ownerId);
        }
        prospect.phone = lead.phone;
      }
      if (lead.first_name !== undefined) prospect.first_name = lead.first_name;
      tagIds.forEach((id) => prospect.tags.add(id));
      const after = JSON.stringify([prospect.email, prospect.phone, prospect.first_name, [...prospect.tags].sort()]);
      if (after !== before) prospect.version += 1;
      return [ownerId];
    },
  };
}

export type PatchBody = {
  stage?: string;
  setter_id?: string | null;
  closer_id?: string | null;
  follow_up_at?: string | null;
};

const stageById = (model: Model, id: string | null): Stage | undefined =>
  model.world.stages.find((stage) => stage.id === id);

/**
 * PATCH (docs/api.md#update-a-prospect, docs/api.md#check-order): 404, then 409 (Closé left or
 * entered), then 422; unchanged fields are not changes.
 */
export function expectPatch(model: Model, key: KeyName, prospectId: string, body: PatchBody): Expected {
  const refused = gate(model, key, 'prospects:write');
  if (refused) return refused;
  const prospect = model.prospects.get(prospectId);
  if (!prospect) return nothing(404, { error: { code: 'not_found' } });

  const set: Partial<ProspectState> = {};
  const changes: Omit<Entry, 'keyId' | 'prospectId' | 'undone' | 'prospectVersion'>[] = [];
  if (body.stage !== undefined) {
    if (stageById(model, prospect.stage_id)?.protected) return nothing(409, { error: { code: 'conflict' } });
    const reference = body.stage;
    const targets = model.world.stages.filter((stage) => stage.active);
    const target =
      targets.find((stage) => stage.id === reference.trim().toLowerCase()) ??
      targets.find((stage) => stage.pipelineId === prospect.pipeline_id && sameName(stage.name, reference));
    if (!target) return nothing(422, { error: { code: 'unprocessable' } });
    if (target.protected) return nothing(409, { error: { code: 'conflict' } });
    if (target.id !== prospect.stage_id || target.pipelineId !== prospect.pipeline_id) {
      changes.push({
        field: 'stage',
        before: prospect.stage_id,
        after: target.id,
        pipelineBefore: prospect.pipeline_id,
      });
      set.stage_id = target.id;
      set.pipeline_id = target.pipelineId;
    }
  }
  const members = Object.values(model.world.members);
  for (const [field, attribute, value] of [
    ['setter', 'setter_id', body.setter_id],
    ['closer', 'closer_id', body.closer_id],
  ] as const) {
    if (value === undefined) continue;
    const memberId = value === null ? null : members.find((id) => id === value.toLowerCase());
    if (memberId === undefined) return nothing(422, { error: { code: 'unprocessable' } });
    if (memberId !== prospect[attribute]) {
      changes.push({ field, before: prospect[attribute], after: memberId });
      set[attribute] = memberId;
    }
  }
  if (body.follow_up_at !== undefined) {
    const followUp = body.follow_up_at === null ? null : new Date(body.follow_up_at).toISOString();
    if (followUp !== prospect.next_follow_up_at) {
      changes.push({ field: 'follow_up', before: prospect.next_follow_up_at, after: followUp });
      set.next_follow_up_at = followUp;
    }
  }
  const after = { ...prospect, ...set };
  return {
    status: 200,
    body: {
      id: prospectId,
      pipeline_id: after.pipeline_id,
      stage_id: after.stage_id,
      setter_id: after.setter_id,
      closer_id: after.closer_id,
      next_follow_up_at: after.next_follow_up_at,
      changed: changes.map((change) => change.field),
    },
    commit: () => {
      if (changes.length === 0) return [prospectId];
      Object.assign(prospect, set);
      prospect.version += 1;
      changes.forEach((change) => logEntry(model, key, prospect, { ...change, prospectVersion: prospect.version }));
      return [prospectId];
    },
  };
}

/** Notes (docs/api.md#add-a-note): 400 for blank content (before 404), otherwise one note and one entry. */
export function expectNote(model: Model, key: KeyName, prospectId: string, content: string): Expected {
  const refused = gate(model, key, 'notes:write');
  if (refused) return refused;
  if (content.trim() === '') return nothing(400, { error: { code: 'bad_request' } });
  const prospect = model.prospects.get(prospectId);
  if (!prospect) return nothing(404, { error: { code: 'not_found' } });
  return {
    status: 201,
    body: { warnings: [] },
    commit: (answer) => {
      const noteId = (answer as { id: string }).id;
      prospect.notes.push({ id: noteId, content });
      prospect.version += 1;
      logEntry(model, key, prospect, { field: 'note', before: null, after: noteId, prospectVersion: null });
      return [prospectId];
    },
  };
}

/**
 * Tags (docs/api.md#add-a-tag, docs/api.md#remove-a-tag): a tag by id or exact name (any case); already
 * there or already absent writes nothing.
 */
export function expectTag(
  model: Model,
  key: KeyName,
  prospectId: string,
  action: 'add' | 'remove',
  reference: string,
): Expected {
  const refused = gate(model, key, 'tags:write');
  if (refused) return refused;
  const prospect = model.prospects.get(prospectId);
  if (!prospect) return nothing(404, { error: { code: 'not_found' } });
  const tag =
    model.world.tags.find((candidate) => candidate.id === reference.toLowerCase()) ??
    model.world.tags.find((candidate) => sameName(candidate.name, reference));
  if (!tag) return nothing(422, { error: { code: 'unprocessable' } });
  const present = prospect.tags.has(tag.id);
  const adding = action === 'add';
  if (adding === present) return nothing(200, { outcome: adding ? 'already_present' : 'absent', tag });
  return {
    status: adding ? 201 : 200,
    body: { outcome: adding ? 'added' : 'removed', tag },
    commit: () => {
      if (adding) prospect.tags.add(tag.id);
      else prospect.tags.delete(tag.id);
      prospect.version += 1;
      logEntry(model, key, prospect, {
        field: 'tags',
        before: adding ? null : tag.id,
        after: adding ? tag.id : null,
        prospectVersion: prospect.version,
      });
      return [prospectId];
    },
  };
}

/**
 * Undo (docs/api.md#undo): the entry's field goes back, the entry is marked, no new entry; refused for a
 * note, an entry undone already, or a prospect whose version moved since the entry.
 */
export function expectUndo(model: Model, entry: Entry): { applied: boolean; commit: () => string[] } {
  const prospect = model.prospects.get(entry.prospectId) as ProspectState;
  if (entry.field === 'note' || entry.undone || prospect.version !== entry.prospectVersion) {
    return { applied: false, commit: () => [] };
  }
  return {
    applied: true,
    commit: () => {
      switch (entry.field) {
        case 'stage':
          prospect.stage_id = entry.before;
          prospect.pipeline_id = entry.pipelineBefore ?? null;
          break;
        case 'setter':
          prospect.setter_id = entry.before;
          break;
        case 'closer':
          prospect.closer_id = entry.before;
          break;
        case 'follow_up':
          prospect.next_follow_up_at = entry.before;
          break;
        case 'tags':
          if (entry.after !== null) prospect.tags.delete(entry.after);
          else if (entry.before !== null) prospect.tags.add(entry.before);
          break;
      }
      prospect.version += 1;
      entry.undone = true;
      return [entry.prospectId];
    },
  };
}
