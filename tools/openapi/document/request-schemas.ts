import * as z from 'zod/mini';
import { maxEmailLength } from '../../../lib/domain/model';
import { leadFieldDefinitions, maxTagIds } from '../../../lib/domain/lead/lead';
import { maxNoteLength } from '../../../lib/domain/notes';
import { newMemberSchema, roleChangeSchema } from '../../../lib/settings/members';
import { addNoteSchema } from '../../../lib/domain/prospect/add-note';
import { addTagSchema } from '../../../lib/domain/prospect/add-tag-input';
import { patchProspectSchema } from '../../../lib/domain/prospect/update-prospect';
import { applicationSchema, maxAnswerPairs } from '../../../lib/domain/recruitment/application-input';
import {
  maxSettingsNameLength,
  newApiKeySchema,
  tagNameSchema,
  webhookActiveSchema,
} from '../../../lib/http/settings-input';
import { allScopes } from '../../../lib/routes';
import {
  changePasswordSchema,
  confirmPasswordResetSchema,
  passwordResetSchema,
  refreshSchema,
  signInSchema,
} from '../../../lib/domain/session/session';
import { newSubscriptionSchema, subscriptionChangeSchema } from '../../../lib/settings/subscriptions';
import { workspaceChangeSchema } from '../../../lib/settings/workspace-settings';
import { ianaNamePatternSource, maxTimeZoneNameLength } from '../../../lib/domain/time-zone';
import { retentionMonthsRange } from '../../../lib/domain/retention';
import { eventTypes } from '../../../lib/domain/events/event-types';
import {
  fieldChangeSchema,
  fieldTypes,
  maxAliases,
  maxOptions,
  newFieldSchema,
  reservedFieldNames,
} from '../../../lib/domain/fields/field-definitions';
import { componentSchemas, inputSchema, withPropertyKeywords, type JsonSchema } from './json-schema';
import { blank, emailPattern, notBlank, trimmed, uuidPattern, zonedTimestampPattern } from './patterns';

/** The schemas the handlers validate with, by component name. */
const validatedSchemas = {
  ProspectChange: patchProspectSchema,
  NewNote: addNoteSchema,
  TagReference: addTagSchema,
  Application: applicationSchema,
  TagName: tagNameSchema,
  NewApiKey: newApiKeySchema,
  WebhookActivation: webhookActiveSchema,
  SignIn: signInSchema,
  SessionRefresh: refreshSchema,
  PasswordChange: changePasswordSchema,
  PasswordReset: passwordResetSchema,
  PasswordResetConfirmation: confirmPasswordResetSchema,
  NewSubscription: newSubscriptionSchema,
  SubscriptionChange: subscriptionChangeSchema,
  NewMember: newMemberSchema,
  RoleChange: roleChangeSchema,
  NewField: newFieldSchema,
  FieldChange: fieldChangeSchema,
  WorkspaceChange: workspaceChangeSchema,
} as const;

export type RequestSchemaName = keyof typeof validatedSchemas | 'Lead';

/** An address as the webhooks read it: `format` names it for tools, the pattern is the rule. */
const emailKeywords = { format: 'idn-email', pattern: emailPattern, maxLength: maxEmailLength };

/**
 * A new password as lib/domain/session/session.ts checks it before any call (the user pool's policy): 12 to 256
 * characters with a lowercase and an uppercase letter, a digit and another character. `.` matches no line break,
 * hence `[\s\S]`.
 */
const newPasswordKeywords = (description: string): JsonSchema => ({
  minLength: 12,
  maxLength: 256,
  pattern: '^(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[0-9])(?=[\\s\\S]*[^A-Za-z0-9])',
  description: `${description} At least 12 characters, with a lowercase and an uppercase letter, a digit and another character (400 otherwise).`,
});

/** The address a person signs in with: compared ignoring case, as the identity provider's user name. */
const signInEmail: JsonSchema = {
  format: 'idn-email',
  description: 'The address the person was invited with; compared ignoring case.',
};

/** `data.fields[]` or `form_response.answers[]`: the native payload of a form tool. */
const nestedList = (object: string, list: string): JsonSchema => ({
  required: [object],
  properties: { [object]: { type: 'object', required: [list], properties: { [list]: { type: 'array' } } } },
});

const choiceTypes = ['choice', 'multi_choice'];

/** A custom field's option: trimmed, not blank, without a comma (a multiple choice's answer separates them by commas). */
const optionPattern = '^[^,]*[^\\s,][^,]*$';
const reservedNames = reservedFieldNames.map((name) => `\`${name}\``).join(', ');

/** `events` of a subscription, new or changed: the known types, none with a comma, at least one. */
const subscriptionEventsKeywords: JsonSchema = { items: { enum: [...eventTypes] }, minItems: 1 };

/** The parts of a custom field's definition a PATCH may change as well (docs/api.md#custom-fields). */
const fieldPartKeywords: Record<'label' | 'options' | 'aliases' | 'update', JsonSchema> = {
  label: {
    pattern: notBlank,
    maxLength: 100,
    description: 'The name people read: trimmed, 1 to 100 characters.',
  },
  options: {
    items: { type: 'string', pattern: optionPattern, maxLength: 100 },
    description:
      `\`choice\` and \`multi_choice\` only (400 for another type): 1 to ${maxOptions} options, each trimmed, 1 to 100 ` +
      'characters, without a comma, no two the same name (compared ignoring case and surrounding spaces).',
  },
  aliases: {
    items: { type: 'string', pattern: notBlank, maxLength: 200 },
    description:
      `Up to ${maxAliases} other names a form may send the field under (a question's title), each trimmed, 1 to 200 ` +
      `characters, no two the same name, none of ${reservedNames} (400); none may be another field's key or alias ` +
      '(409, compared ignoring case and surrounding spaces).',
  },
  update: {
    description:
      'What a lead of a known contact does to a value already set: `always` (the default) replaces it, `if_empty` ' +
      'only fills an empty field. An empty value never clears one.',
  },
};

/**
 * What the zod schemas cannot say, because the handlers check it in code (refinements, trimming,
 * transforms): keywords added to the generated component (`schema`) and to its properties, with
 * the descriptions.
 */
const addedKeywords: Record<
  keyof typeof validatedSchemas,
  { schema?: JsonSchema; properties: Record<string, JsonSchema> }
> = {
  ProspectChange: {
    schema: { minProperties: 1 },
    properties: {
      stage: {
        pattern: notBlank,
        description:
          'Stage id (any active pipeline of the workspace: the prospect then changes pipeline) or exact stage name ' +
          "within the prospect's current pipeline, ignoring case; trimmed, not blank. `Closé` and `Acompte` can be " +
          'neither left nor entered (409).',
      },
      setter_id: { description: 'Id of a workspace member; null removes the setter.' },
      closer_id: { description: 'Id of a workspace member; null removes the closer.' },
      follow_up_at: {
        format: 'date-time',
        pattern: zonedTimestampPattern,
        description:
          'Date and time with a time zone (`2026-12-01T09:30:00+01:00`; without a zone, or a date that does not ' +
          'exist such as `2026-02-30`: 400): reschedules or creates the next follow-up; null cancels it. The ' +
          'service also reads ISO 8601 times without seconds (`T09:30+01:00`): the pattern admits them, RFC 3339 ' +
          '`date-time` does not, so a validator that asserts `format` refuses them; send the seconds.',
      },
      fields: {
        description:
          'Custom fields to set, by key (docs/api.md#custom-fields): each value read as its field reads it (a text, a ' +
          'number or `1 500,50`, a date `YYYY-MM-DD` or `DD/MM/YYYY`, a boolean or oui/non, an option, options as a ' +
          'list or a comma-separated text); null or an empty value clears it. A key no field of the workspace has ' +
          '(deleted included): 422 naming `fields.<key>`; a value its field does not read: 400 naming `fields.<key>`; ' +
          'the values of the prospect together over 16 KB: 400 naming `fields`. Nothing of the PATCH is applied then. ' +
          'An empty object changes nothing, and alone is a 400 like an empty body.',
      },
    },
  },
  NewNote: {
    properties: {
      content: {
        minLength: 1,
        maxLength: maxNoteLength,
        pattern: notBlank,
        description:
          `Plain text kept as sent, not blank, at most ${maxNoteLength} characters (Unicode code points, as ` +
          '`maxLength` counts them: an emoji counts as one). HTML is shown as written.',
      },
      date: {
        description:
          'ISO 8601 date of the note, to backfill history (read as UTC without a zone). Any value is accepted: ' +
          'when it is not such a date, does not exist or is in the future, the note takes the reception date ' +
          'and `warnings` says so.',
      },
    },
  },
  TagReference: {
    properties: {
      tag: {
        pattern: notBlank,
        description: 'Id or exact name (ignoring case) of an existing tag, trimmed: the API never creates tags.',
      },
    },
  },
  TagName: {
    properties: {
      name: {
        pattern: notBlank,
        description:
          `Trimmed, not blank, at most ${maxSettingsNameLength} characters; no other tag of the workspace may have it, ` +
          'compared ignoring case and surrounding spaces (409).',
      },
    },
  },
  NewApiKey: {
    properties: {
      name: {
        pattern: notBlank,
        description: `Trimmed, not blank, at most ${maxSettingsNameLength} characters; shown in the list of keys.`,
      },
      scopes: {
        minItems: 1,
        items: { enum: ['*', ...allScopes] },
        description: 'The routes the key may call (docs/api.md#scopes); absent: the five; `*`: all.',
      },
    },
  },
  WebhookActivation: {
    properties: { active: { description: 'false: both webhook routes answer 401 from the next call on.' } },
  },
  Application: {
    schema: {
      anyOf: [
        { required: ['name'], properties: { name: { pattern: notBlank } } },
        { required: ['first_name'], properties: { first_name: { pattern: notBlank } } },
      ],
      not: {
        description:
          'Native nested payloads of form tools (`data.fields[]`, `form_response.answers[]`) are refused: flatten them.',
        anyOf: [nestedList('data', 'fields'), nestedList('form_response', 'answers')],
      },
    },
    properties: {
      email: {
        ...emailKeywords,
        description:
          'An address (RFC 6531: `hélène@exemple.fr` too), trimmed; recognises a candidate already received in the ' +
          'same pipeline, ignoring case.',
      },
      name: {
        description:
          'Full name, split into first name (first word) and last name; required (not blank) when `first_name` is ' +
          'absent or blank.',
      },
      first_name: { description: 'Used instead of `name`.' },
      last_name: { description: 'Used with `first_name`.' },
      phone: { description: 'Kept as sent.' },
      position: { description: 'Position applied for, kept on the candidate.' },
      pipeline_id: {
        anyOf: [{ format: 'uuid', pattern: trimmed(uuidPattern) }, { pattern: blank }],
        description: 'Recruitment pipeline id (UUID); takes precedence over `pipeline`.',
      },
      pipeline: {
        description:
          'Exact recruitment pipeline name, ignoring case; default: the default active recruitment pipeline.',
      },
      source: { description: 'Origin of the application; default `webhook`.' },
      answers: {
        maxProperties: maxAnswerPairs,
        description:
          `One key per question: each pair becomes a line \`Question : Réponse\` of one note. At most ${maxAnswerPairs} ` +
          `pairs and ${maxNoteLength} characters in all (400 beyond); each answer a string, number or boolean.`,
      },
    },
  },
  SignIn: {
    properties: {
      email: signInEmail,
      password: { description: 'The password, or the temporary one of the invitation e-mail.' },
      new_password: newPasswordKeywords(
        'Only with a temporary password (the first sign-in answers 409 asking for it): the password chosen instead.',
      ),
    },
  },
  SessionRefresh: {
    properties: { refresh_token: { description: 'The `refresh_token` of `POST /session`.' } },
  },
  PasswordChange: {
    properties: {
      password: { description: 'The current password.' },
      new_password: newPasswordKeywords('The password chosen instead.'),
    },
  },
  PasswordReset: { properties: { email: signInEmail } },
  NewSubscription: {
    properties: {
      url: {
        description:
          'Where the events are POSTed: `https` (plain `http` only to 127.0.0.1 or localhost in the local run), at ' +
          'most 2,048 characters; on AWS it must not resolve to a private, loopback or link-local address (400).',
      },
      events: {
        ...subscriptionEventsKeywords,
        description: 'The event types sent; absent: every type (400 for an unknown one).',
      },
    },
  },
  SubscriptionChange: {
    schema: { minProperties: 1 },
    properties: {
      active: { description: 'false: events are no longer sent (never later); true: sent again.' },
      events: {
        ...subscriptionEventsKeywords,
        description:
          'The event types sent from now on, replacing the whole list (a type added since the subscription was ' +
          'created is sent only once listed here); at least one, a type named twice counts once (400 for an unknown ' +
          'one or an empty list). Events written before keep their deliveries.',
      },
    },
  },
  PasswordResetConfirmation: {
    properties: {
      email: signInEmail,
      code: { description: 'The code of the e-mail `POST /password-reset` had sent.' },
      new_password: newPasswordKeywords('The password chosen instead.'),
    },
  },
  NewMember: {
    properties: {
      email: {
        ...emailKeywords,
        description:
          'The address the member signs in with and is invited at (trimmed); already a member of the workspace, ' +
          'ignoring case: 409.',
      },
      name: { description: 'The name shown in the workspace (trimmed); absent or blank: the address.' },
      role: { description: '`admin`: every settings route; `member`: reading, change logs and undo.' },
    },
  },
  RoleChange: {
    properties: {
      role: { description: 'The new role; demoting the last admin who can sign in: 409.' },
    },
  },
  NewField: {
    schema: {
      description: 'Options for the two choice types only: required there, refused elsewhere (400 naming `options`).',
      anyOf: [
        {
          properties: { type: { enum: choiceTypes }, options: { minItems: 1 } },
          required: ['type', 'options'],
        },
        {
          properties: {
            type: { enum: fieldTypes.filter((type) => !choiceTypes.includes(type)) },
            options: { not: {} },
          },
        },
      ],
    },
    properties: {
      key: {
        not: { enum: [...reservedFieldNames] },
        description:
          'Lower-case letters without accents, digits and `_`, starting with a letter, at most 40 characters; none of ' +
          `${reservedNames} (400). Never changed; a key another field has as key or alias (409), or had before its ` +
          'deletion (409), is refused.',
      },
      ...fieldPartKeywords,
      type: {
        description:
          '`text` (trimmed, up to 1,000 characters), `number`, `date` (answered `YYYY-MM-DD`), `boolean`, `choice` (one ' +
          'option), `multi_choice` (options, in the definition’s order). Never changed.',
      },
    },
  },
  FieldChange: {
    schema: { minProperties: 1 },
    properties: {
      key: { description: 'Never changed: refused (400).' },
      type: { description: 'Never changed: refused (400).' },
      ...fieldPartKeywords,
      options: {
        ...fieldPartKeywords.options,
        description:
          `${fieldPartKeywords.options.description as string} In any order, which becomes the definition's, and with every ` +
          'current option: values use them, so one left out is refused (409).',
      },
    },
  },
  WorkspaceChange: {
    schema: { minProperties: 1 },
    properties: {
      time_zone: {
        maxLength: maxTimeZoneNameLength,
        pattern: ianaNamePatternSource,
        description:
          'An IANA time zone name the service’s time zone database knows (`Europe/Paris`, `America/Montreal`, `UTC`), ' +
          'kept as sent; another name, or a fixed offset (`+02:00`): 400. The workspace’s days begin and end in it.',
      },
      retention_months: {
        type: ['integer', 'null'],
        minimum: retentionMonthsRange.min,
        maximum: retentionMonthsRange.max,
        description:
          'How many calendar months a prospect or a candidate is kept after its last change: an integer (a JSON ' +
          'number: `"12"`, `1.5`, `0` or `121` are a 400); null: kept until erased, the default.',
      },
    },
  },
};

const { maxLengths, text, email, tagIdList } = leadFieldDefinitions;
type LeadTextField = keyof typeof maxLengths;

const leadFieldDescriptions: Record<LeadTextField | 'tag_ids', string> = {
  first_name: 'First name.',
  last_name: 'Last name.',
  email: 'An address (RFC 6531: `hélène@exemple.fr` too); recognises a known contact, ignoring case.',
  phone: 'Recognises a known contact by exact match: always send the same format, preferably international.',
  social_url: 'Link of the social-network profile; recognises a contact that has neither e-mail nor phone.',
  source: 'Free text, shown on the record; kept from the first submission.',
  pipeline: 'Arrival pipeline, exact name or id; default: the default pipeline.',
  stage: 'Arrival stage within that pipeline, exact name or id; default: its first stage.',
  tag_ids: `Ids of existing tags, as a list or one comma-separated string; at most ${maxTagIds} distinct ids are read. Unknown ids are reported in \`warnings\`.`,
};

/** Whatever else a field holds is accepted, and reported instead of refused (docs/api.md#lead-fields). */
const ignored: JsonSchema = {
  description:
    'Any other value: null or blank is absent; another type or a longer text is ignored and named in `warnings`.',
};

/** What is read of a lead field (first alternative), and that anything else is accepted (second). */
function leadField(name: LeadTextField): JsonSchema {
  const read = inputSchema((name === 'email' ? email : text).check(z.maxLength(maxLengths[name])));
  return {
    description: `${leadFieldDescriptions[name]} Read if a text of at most ${maxLengths[name]} characters once trimmed.`,
    anyOf: [name === 'email' ? { ...read, ...emailKeywords } : read, ignored],
  };
}

/** A contact field the lead can be recognised by: a text, not blank, within its length (an address for `email`). */
const usableContact = (name: 'email' | 'phone' | 'social_url'): JsonSchema => ({
  required: [name],
  properties: {
    [name]: { type: 'string', maxLength: maxLengths[name], pattern: name === 'email' ? emailPattern : notBlank },
  },
});

/**
 * The lead webhook reads its body field by field and refuses it only when no contact is left
 * (docs/api.md#lead-fields), so the schema accepts what the service accepts: each field's type and length
 * describe what is read, and only the contact rule is enforced.
 */
const leadComponent: JsonSchema = {
  type: 'object',
  description:
    'What each field is read as is its first alternative; another value is accepted, ignored and named in ' +
    '`warnings`, so no length or type is enforced here. Enforced: at least one of `email` (an address), `phone`, ' +
    '`social_url` is a text within its length and not blank.',
  properties: {
    ...Object.fromEntries((Object.keys(maxLengths) as LeadTextField[]).map((name) => [name, leadField(name)])),
    tag_ids: {
      description: leadFieldDescriptions.tag_ids,
      anyOf: [...(inputSchema(tagIdList).anyOf as JsonSchema[]), ignored],
    },
    fields: {
      description:
        'Values of the workspace’s custom fields by key (form-encoded: `fields[key]=value`), read by each field’s ' +
        'type; a key no field has, or a value that does not fit, is ignored and named in `warnings`. Wins over a ' +
        'member named as the key or an alias (docs/api.md#lead-custom-fields).',
      anyOf: [{ type: 'object' }, ignored],
    },
  },
  additionalProperties: {
    description:
      'A member named as a custom field’s key or one of its aliases (compared as names) gives that field a value. ' +
      'Any other field (`tags` too: send ids in `tag_ids`): ignored, named in `warnings`.',
  },
  anyOf: [usableContact('email'), usableContact('phone'), usableContact('social_url')],
};

/** The request body components: generated from the handlers' zod schemas, with what they check in code. */
export function requestComponents(): Record<RequestSchemaName, JsonSchema> {
  const generated = componentSchemas('input', validatedSchemas);
  const components = Object.fromEntries(
    Object.entries(addedKeywords).map(([name, added]) => {
      const schema = generated[name];
      if (schema === undefined) throw new Error(`No generated schema ${name}`);
      return [name, { ...withPropertyKeywords(schema, added.properties), ...added.schema }];
    }),
  ) as Record<keyof typeof validatedSchemas, JsonSchema>;
  return { ...components, Lead: leadComponent };
}
