import * as z from 'zod/mini';
import { leadFieldDefinitions, maxTagIds } from '../domain/lead/lead-input';
import { addNoteSchema } from '../domain/prospect/add-note';
import { addTagSchema } from '../domain/prospect/add-tag-input';
import { patchProspectSchema } from '../domain/prospect/patch-input';
import { applicationSchema, maxAnswerPairs } from '../domain/recruitment/application-input';
import { maxNoteLength } from '../domain/notes';

const { maxLengths, text, email, tagIdList } = leadFieldDefinitions;
const lengthLimited = (name: keyof typeof maxLengths) =>
  (name === 'email' ? email : text).check(z.maxLength(maxLengths[name]));

/**
 * The lead webhook reads its body field by field (a wrongly typed field is a warning, not a 400):
 * this object is built from the very definitions it applies. Other fields are accepted, ignored and
 * named in `warnings`.
 */
const leadBodySchema = z.looseObject({
  ...Object.fromEntries(
    (Object.keys(maxLengths) as (keyof typeof maxLengths)[]).map((name) => [name, z.optional(lengthLimited(name))]),
  ),
  tag_ids: z.optional(tagIdList),
});

/** The schemas the handlers validate with, by component name. */
export const requestSchemas = {
  ProspectChange: patchProspectSchema,
  NewNote: addNoteSchema,
  TagReference: addTagSchema,
  Lead: leadBodySchema,
  Application: applicationSchema,
} as const;

export type RequestSchemaName = keyof typeof requestSchemas;

/** What the zod schemas cannot say (rules checked in code), per component and property. */
export const requestPropertyDescriptions: Record<RequestSchemaName, Record<string, string>> = {
  ProspectChange: {
    stage:
      'Stage id (any pipeline of the workspace: the prospect then changes pipeline) or exact stage name within the ' +
      "prospect's current pipeline, ignoring case. `Closé` and `Acompte` can be neither left nor entered (409).",
    setter_id: 'Id of a workspace member; null removes the setter.',
    closer_id: 'Id of a workspace member; null removes the closer.',
    follow_up_at:
      'ISO 8601 with a time zone (e.g. `2026-12-01T09:30:00+01:00`; without a zone: 400): reschedules or creates the ' +
      'next follow-up; null cancels it.',
  },
  NewNote: {
    content: `Plain text, not blank, at most ${maxNoteLength} characters (Unicode code points: an emoji counts as one). HTML is shown as written.`,
    date:
      'ISO 8601 date of the note, to backfill history. When invalid or in the future, the note takes the reception ' +
      'date and `warnings` says so.',
  },
  TagReference: { tag: 'Id or exact name (ignoring case) of an existing tag: the API never creates tags.' },
  Lead: {
    email: 'Recognises a known contact, ignoring case. Not an address: ignored with a warning.',
    phone: 'Recognises a known contact by exact match: always send the same format, preferably international.',
    social_url: 'Link of the social-network profile; recognises a contact that has neither e-mail nor phone.',
    source: 'Free text, shown on the record; kept from the first submission.',
    pipeline: 'Arrival pipeline, exact name or id; default: the default pipeline.',
    stage: 'Arrival stage within that pipeline, exact name or id; default: its first stage.',
    tag_ids: `Ids of existing tags, as a list or one comma-separated string; at most ${maxTagIds} distinct ids are read. Unknown ids are reported in \`warnings\`.`,
  },
  Application: {
    email: 'Recognises a candidate already received in the same pipeline, ignoring case.',
    name: 'Full name, split into first name (first word) and last name; required when `first_name` is absent.',
    first_name: 'Used instead of `name`.',
    pipeline_id: 'Recruitment pipeline id (UUID); takes precedence over `pipeline`.',
    pipeline: 'Exact recruitment pipeline name, ignoring case; default: the default active recruitment pipeline.',
    source: 'Origin of the application; default `webhook`.',
    answers:
      `One key per question: each pair becomes a line \`Question : Réponse\` of one note. At most ${maxAnswerPairs} ` +
      `pairs and ${maxNoteLength} characters in all; each answer a string, number or boolean.`,
  },
};
