import {
  defaultListSort,
  followUpWindows,
  listSorts,
  maxFilterValues,
  maxListIds,
} from '../../../lib/domain/prospect-list/list-query';
import { exampleIds, exampleListCursor } from './examples';
import type { JsonSchema } from './json-schema';
import { listInstantPattern, memberOrNonePattern, notBlank, uuidPattern } from './patterns';

/*
 * The query parameters of a list of prospects, `GET /prospects` and `GET /workspaces/{workspace_id}/prospects` without
 * a contact (docs/api.md#lists-of-prospects), by component name. `limit` is the read routes' own (`Limit`);
 * `fields.<key>` has no parameter of its own: OpenAPI names parameters one by one, so the operations describe it.
 */

/**
 * A filter that may be given several times (`?tag=VIP&tag=Froid`: any of them), as OpenAPI writes a list in a query:
 * the name repeated (`form`, exploded). One filter alone cannot give more values than all of them together may.
 */
const repeatable = (name: string, description: string, items: JsonSchema, example: string[]): JsonSchema => ({
  name,
  in: 'query',
  required: false,
  description:
    `${description} Repeatable: any of its values. The repeatable filters other than \`id\` take ${maxFilterValues} ` +
    'values in all, counted across them (`fields.<key>` included): more is a 400 naming the filter that goes over.',
  style: 'form',
  explode: true,
  schema: { type: 'array', items: { type: 'string', ...items }, maxItems: maxFilterValues },
  example,
});

/** A bound of a range of instants: `from` included, `to` excluded. */
const bound = (name: string, which: 'from' | 'to', what: string, example: string): JsonSchema => ({
  name,
  in: 'query',
  required: false,
  description:
    `Keeps the prospects ${what} ${which === 'from' ? 'from this instant (included)' : 'before this instant (excluded)'}. ` +
    'A timestamp with its zone, `Z` or an offset (`2026-11-02T10:00:00Z`, `2026-11-02T11:00:00+01:00`), or a date ' +
    "alone (`2026-11-02`), the first instant of that day in the workspace's time zone. A timestamp without a zone, " +
    'a date that does not exist, or the parameter given twice: 400.',
  schema: { type: 'string', pattern: listInstantPattern },
  example,
});

const memberChoice = (name: 'setter_id' | 'closer_id', role: string): JsonSchema =>
  repeatable(
    name,
    `Keeps the prospects whose ${role} is this member (a removed member's id too), or, with \`none\`, those ` +
      `without a ${role}. Not a member's id (UUID) nor \`none\`: 400; a member the workspace never had: 422.`,
    { pattern: memberOrNonePattern },
    [exampleIds.member],
  );

export const prospectListParameters = {
  ListId: {
    name: 'id',
    in: 'query',
    required: false,
    description:
      `Keeps the prospects of these ids (UUIDs), up to ${maxListIds} (more: 400, not counted in the other filters' ` +
      `${maxFilterValues} values). An id the workspace does not have is simply not listed. Not a UUID: 400.`,
    style: 'form',
    explode: true,
    schema: { type: 'array', items: { type: 'string', pattern: uuidPattern }, maxItems: maxListIds },
    example: [exampleIds.prospect],
  },
  ListPipeline: repeatable(
    'pipeline',
    "Keeps the prospects in this sales pipeline, by id or name (ignoring case), an inactive one's too. Blank: " +
      '400; a pipeline the workspace does not have: 422.',
    { pattern: notBlank },
    ['Ventes'],
  ),
  ListStage: repeatable(
    'stage',
    'Keeps the prospects at this stage: its id (of any sales pipeline), or its name within the pipeline `pipeline` ' +
      'names when it names exactly one, else within the default pipeline. Blank: 400; no such stage: 422.',
    { pattern: notBlank },
    ['Relance'],
  ),
  ListSetterId: memberChoice('setter_id', 'setter'),
  ListCloserId: memberChoice('closer_id', 'closer'),
  ListMemberId: repeatable(
    'member_id',
    "Keeps the prospects whose setter or closer is this member. Not a member's id (UUID): 400; a member the " +
      'workspace never had: 422.',
    { pattern: uuidPattern },
    [exampleIds.member],
  ),
  ListTag: repeatable(
    'tag',
    'Keeps the prospects carrying this tag, by id or name (ignoring case). Blank: 400; a tag the workspace does not ' +
      'have: 422.',
    { pattern: notBlank },
    ['VIP', 'Chaud'],
  ),
  ListFollowUp: repeatable(
    'follow_up',
    "Keeps the prospects by their next follow-up, in the workspace's current day (its time zone): `overdue` before " +
      'now, `today` within the current day, `due` before its end (`overdue` included), `none` without one, `any` ' +
      'with one. Anything else: 400.',
    { enum: [...followUpWindows] },
    ['due'],
  ),
  ListFollowUpFrom: bound('follow_up_from', 'from', 'whose next follow-up is', '2026-12-01'),
  ListFollowUpTo: bound('follow_up_to', 'to', 'whose next follow-up is', '2026-12-08'),
  ListCreatedFrom: bound('created_from', 'from', 'created', '2026-11-01T00:00:00+01:00'),
  ListCreatedTo: bound('created_to', 'to', 'created', '2026-12-01'),
  ListUpdatedFrom: bound('updated_from', 'from', 'last changed', '2026-11-20T09:00:00Z'),
  ListUpdatedTo: bound('updated_to', 'to', 'last changed', '2026-11-21'),
  ListSort: {
    name: 'sort',
    in: 'query',
    required: false,
    description:
      'The order of the whole list, ties broken by id ascending: `-created_at` newest first (the default), ' +
      '`created_at` oldest first, `-updated_at` last changed first, `updated_at` least recently changed first, ' +
      '`next_follow_up_at` soonest follow-up first, the prospects without one after all the others. Anything else, ' +
      'or given twice: 400.',
    schema: { type: 'string', enum: [...listSorts], default: defaultListSort },
    example: 'next_follow_up_at',
  },
  ListCursor: {
    name: 'cursor',
    in: 'query',
    required: false,
    description:
      'The `next_cursor` of the previous page, passed back unchanged; absent for the first page. Opaque, and bound to ' +
      'the workspace and to the query it was issued for, every parameter but `cursor` included (`limit` too), as ' +
      'read: the order of the parameters and of their values does not matter, and a name stands for the id it names. ' +
      'With any other query, empty, altered, or given twice: 400.',
    schema: { type: 'string' },
    example: exampleListCursor,
  },
} satisfies Record<string, JsonSchema>;

export type ProspectListParameterName = keyof typeof prospectListParameters;
