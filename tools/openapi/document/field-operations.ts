import { maxDefinitionsBytes, maxFields } from '../../../lib/domain/fields/field-definitions';
import { messages } from '../../../lib/messages';
import type { ErrorCase, ErrorExample, Example, OperationText } from './operations';

/*
 * A workspace's custom field definitions (docs/api.md#custom-fields): the settings API's four routes
 * (lib/settings/fields.ts, lib/settings/field-list.ts) and the Prospect API's listing. What every settings route
 * answers (401, 404, 403, 429, a body's 400, 500) the document adds by credential (tools/openapi/document/document.ts):
 * these list only what their use cases add; the Prospect API's listing takes its family's errors from operations.ts.
 */

const refusals = messages.fields;

const company = {
  key: 'societe',
  label: 'Société',
  type: 'text',
  options: null,
  aliases: ['Nom de votre société', 'Entreprise'],
  update: 'always',
};
const budget = {
  key: 'budget',
  label: 'Budget mensuel',
  type: 'number',
  options: null,
  aliases: [],
  update: 'if_empty',
};
const channels = {
  key: 'canaux',
  label: 'Canaux',
  type: 'multi_choice',
  options: ['Instagram', 'TikTok', 'YouTube'],
  aliases: ['Sur quels réseaux êtes-vous ?'],
  update: 'always',
};

const example = (summary: string, value: unknown): Record<string, Example> => ({ answer: { summary, value } });

/** A 400 of a rule of the body, `details.field` naming the field, as parseJsonBody words it. */
const invalid = (summary: string, field: string, reason: string): ErrorExample => {
  const message = messages.body.invalidField(field, reason);
  return { summary, message, details: { field, message } };
};

/** The rules a definition's parts obey, for both the creation and the change. */
const partRefusals: ErrorExample[] = [
  invalid('Option with a comma', 'options', refusals.optionComma),
  invalid('Two options of the same name', 'options', refusals.optionsRepeated),
  invalid('A reserved alias', 'aliases', refusals.reservedName),
];

const nameTaken: ErrorExample = { summary: 'Name of another field', message: refusals.nameTaken('Entreprise') };

const overLimits: ErrorCase = {
  description:
    `The workspace would have more than ${maxFields} fields, or definitions over ${maxDefinitionsBytes / 1024} KB ` +
    'in all (deleted fields count in neither).',
  examples: [
    { summary: `A ${maxFields + 1}st field`, message: refusals.tooMany(maxFields) },
    { summary: 'Definitions too large', message: refusals.tooLarge(maxDefinitionsBytes / 1024) },
  ],
};

const unknownField: ErrorCase = {
  description:
    'No live field of that key in the workspace: unknown, deleted, or a key that cannot be one (any other form).',
  examples: [{ summary: 'Unknown field', message: refusals.unknownField('societe') }],
};

export const fieldOperations: Record<string, OperationText> = {
  listFields: {
    summary: 'List the workspace’s custom fields',
    description:
      'The live definitions, in the order they were created; deleted fields are not listed. Every view of a ' +
      'prospect has a `fields` object with one member per key listed here.',
    success: {
      200: {
        description: 'The fields.',
        schema: 'FieldList',
        examples: example('Three fields', { fields: [company, budget, channels] }),
      },
    },
    errors: {},
  },

  createField: {
    summary: 'Define a custom field',
    description:
      'A new definition, last of the list, written with its audit entry (`field.created`). Prospects have it at ' +
      'once, empty (`null`), until a lead or a PATCH fills it.',
    requestBody: {
      schema: 'NewField',
      description: 'The definition.',
      examples: {
        text: { summary: 'A text, under two names a form may use', value: { ...company, options: undefined } },
        choices: {
          summary: 'A multiple choice, kept once set',
          value: {
            key: 'canaux',
            label: 'Canaux',
            type: 'multi_choice',
            options: channels.options,
            update: 'if_empty',
          },
        },
      },
    },
    success: {
      201: {
        description: 'The definition, every part written out.',
        schema: 'FieldDefinition',
        examples: example('Created', company),
      },
    },
    errors: {
      400: {
        description:
          'A rule of the definition broken (`details.field` names the part): the key’s form, a reserved name as key ' +
          'or alias, lengths, options for a type without choices or missing for one with.',
        examples: [
          invalid('Key of the wrong form', 'key', refusals.keyPattern),
          invalid('A reserved key', 'key', refusals.reservedName),
          invalid('Choice without options', 'options', refusals.optionsRequired),
          ...partRefusals,
        ],
      },
      409: {
        description:
          'The key is taken in the workspace (by a live field, or a deleted one: a key is never used again), or the ' +
          'key or an alias is another field’s key or alias, compared as names.',
        examples: [{ summary: 'Key taken', message: refusals.keyTaken('societe') }, nameTaken],
      },
      422: overLimits,
    },
  },

  changeField: {
    summary: 'Change a custom field',
    description:
      'The parts sent replace the definition’s (at least one), written with the audit entry (`field.changed`); the ' +
      'key and the type never change. A change to what the definition already says writes nothing and answers it.',
    requestBody: {
      schema: 'FieldChange',
      description: 'The parts to change.',
      examples: {
        label: { summary: 'A new label', value: { label: 'Entreprise' } },
        options: {
          summary: 'One more option, in a new order',
          value: { options: ['YouTube', 'Instagram', 'TikTok', 'LinkedIn'] },
        },
      },
    },
    success: {
      200: {
        description: 'The definition as it now is.',
        schema: 'FieldDefinition',
        examples: example('Changed', { ...channels, options: ['YouTube', 'Instagram', 'TikTok', 'LinkedIn'] }),
      },
    },
    errors: {
      400: {
        description:
          'The key or the type sent (they never change), options for a type without choices, or a rule of a part.',
        examples: [
          invalid('The type sent', 'type', refusals.typeFixed),
          invalid('Options of a text', 'options', refusals.optionsRefused),
          ...partRefusals,
        ],
      },
      404: unknownField,
      409: {
        description:
          'An option of the definition left out (values use it: options only grow), or an alias that is another ' +
          'field’s key or alias.',
        examples: [{ summary: 'An option left out', message: refusals.optionDropped('TikTok') }, nameTaken],
      },
      422: {
        description: `The definitions would be over ${maxDefinitionsBytes / 1024} KB in all.`,
        examples: [{ summary: 'Definitions too large', message: refusals.tooLarge(maxDefinitionsBytes / 1024) }],
      },
    },
  },

  deleteField: {
    summary: 'Delete a custom field',
    description:
      'From this answer on, the field’s values are neither shown, accepted, listed nor exported; they leave the ' +
      'table afterwards, without changing any prospect. Its key is never used again (a new field with it: 409). ' +
      'Written with the audit entry (`field.deleted`).',
    success: {
      200: {
        description: 'The key deleted.',
        schema: 'DeletedField',
        examples: example('Deleted', { key: 'societe', deleted: true }),
      },
    },
    errors: { 404: unknownField },
  },
};

/** `GET /fields` of the Prospect API: what the settings API's listing answers. */
export const customFieldListing: Pick<OperationText, 'summary' | 'description' | 'success'> = {
  summary: 'List the custom fields',
  description:
    'The live custom field definitions of the workspace, in the order they were created (docs/api.md#custom-fields): ' +
    'their keys name the members of every prospect’s `fields`, and the lead webhook reads them under their key or ' +
    'aliases.',
  success: (fieldOperations.listFields as OperationText).success,
};
