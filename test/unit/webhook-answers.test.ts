import { InvalidInputError, UnauthorizedError } from '../../lib/domain/model';
import { leadCounts, type LeadResult } from '../../lib/domain/lead/ingest-lead';
import {
  refusalReport,
  replayReport,
  type WebhookAnswer,
  type WebhookCallContext,
} from '../../lib/domain/webhook-call';
import { mappedErrorOf } from '../../lib/http/middleware/route';
import { successOutcome, journalEntryOf } from '../../lib/http/middleware/webhook';
import { routeById } from '../../lib/routes';

/**
 * A webhook's answer is a value, and its journal entry and counts are read from
 * that value (or from the error mapping), never from the serialized body. No HTTP, no DynamoDB.
 */

const call: WebhookCallContext = {
  id: '0193e0a0-0000-7000-8000-000000000001',
  at: '2026-11-27T02:00:00.000Z',
  route: 'ingest-lead',
  workspaceId: 'c0ffee00-0000-4000-8000-000000000001',
  endpointId: 'c0ffee00-0000-4000-8000-000000000002',
  requestId: 'req-1',
  successStatus: 200,
};

const request = (body: string | null, headers: Record<string, string> = {}, isBase64Encoded = false) => ({
  body,
  headers,
  isBase64Encoded,
});

const created: LeadResult = {
  status: 'created',
  prospect_id: 'p1',
  pipeline_id: 'pl1',
  stage_id: 's1',
  placement: 'demande',
  tags_applied: [],
  warnings: ['champ inconnu', 'autre'],
};

describe('a lead answer as a value', () => {
  it('counts the lead, its placement and its warnings', () => {
    expect(leadCounts(created)).toEqual([
      { metric: 'LeadsCreated' },
      { metric: 'LeadPlacements', dimensions: { placement: 'demande' } },
      { metric: 'LeadWarnings', value: 2 },
    ]);
    expect(leadCounts({ ...created, status: 'existing', placement: 'existant', warnings: [] })).toEqual([
      { metric: 'LeadsExisting' },
      { metric: 'LeadPlacements', dimensions: { placement: 'existant' } },
    ]);
  });

  it('becomes the HTTP answer with the success status, and an entry naming what it says', () => {
    const value: WebhookAnswer<LeadResult> = {
      answer: created,
      journal: { outcome: 'created', record_id: 'p1', placement: 'demande', warnings: created.warnings },
      journaledWithChange: true,
      counts: leadCounts(created),
    };
    const answered = successOutcome(call, value);
    expect(answered.response.statusCode).toBe(200);
    expect(JSON.parse(answered.response.body)).toEqual(created);
    expect(answered).toMatchObject({ journaledWithChange: true, counts: value.counts });
    expect(journalEntryOf(call, request('{"email":"a@b.fr"}'), 200, answered, { keepBody: true })).toEqual({
      id: call.id,
      workspace_id: call.workspaceId,
      endpoint_id: call.endpointId,
      at: call.at,
      route: 'ingest-lead',
      status: 200,
      outcome: 'created',
      record_id: 'p1',
      placement: 'demande',
      warnings: created.warnings,
      request_id: 'req-1',
    });
  });
});

describe('an error answer, reported from the error mapping', () => {
  it('takes the status and code the route answers with, per webhook', () => {
    expect(mappedErrorOf(routeById('ingestLead'), new InvalidInputError('x'))).toMatchObject({
      status: 400,
      code: 'invalid_payload',
    });
    expect(mappedErrorOf(routeById('recruitment'), new InvalidInputError('x'))).toMatchObject({
      status: 400,
      code: 'bad_request',
    });
    expect(mappedErrorOf(routeById('ingestLead'), new Error('boom'))).toMatchObject({
      status: 500,
      code: 'ingest_failed',
    });
    expect(mappedErrorOf(routeById('recruitment'), new UnauthorizedError('x'))).toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });

  it('counts a refusal by its code, in the metric of its webhook, and names nothing in its entry', () => {
    expect(refusalReport('ingest-lead', 'invalid_payload')).toEqual({
      journal: { outcome: 'invalid_payload', record_id: null, placement: null, warnings: [] },
      journaledWithChange: false,
      counts: [{ metric: 'LeadsRefused', dimensions: { code: 'invalid_payload' } }],
    });
    expect(refusalReport('recruitment', 'not_found').counts).toEqual([
      { metric: 'CandidatesRefused', dimensions: { code: 'not_found' } },
    ]);
  });

  it('keeps the body of an authenticated call that failed, and nothing of a call refused for its token', () => {
    const reported = refusalReport('ingest-lead', 'invalid_payload');
    const sent = request('email=a%40b.fr', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(journalEntryOf(call, sent, 400, reported, { keepBody: true })).toMatchObject({
      status: 400,
      outcome: 'invalid_payload',
      record_id: null,
      body: 'email=a%40b.fr',
      body_base64: false,
      content_type: 'application/x-www-form-urlencoded',
    });
    const refused = journalEntryOf(call, sent, 401, refusalReport('ingest-lead', 'unauthorized'), {
      keepBody: false,
    });
    expect(refused).toMatchObject({ status: 401, outcome: 'unauthorized' });
    expect(refused.body).toBeUndefined();
    expect(refused.content_type).toBeUndefined();
    expect(journalEntryOf(call, request(null), 400, reported, { keepBody: true }).body).toBeUndefined();
  });
});

describe('a replayed answer, reported from the outcome kept with it', () => {
  const kept = { outcome: 'existing', record_id: 'p1', placement: 'existant', warnings: ['w'] };

  it('journals a replayed success as the first call did, counting nothing more than the replay', () => {
    expect(replayReport('ingest-lead', 200, kept)).toEqual({ journal: kept, journaledWithChange: false, counts: [] });
  });

  it('counts a replayed refusal again, by the code kept', () => {
    const refusal = refusalReport('recruitment', 'bad_request').journal;
    expect(replayReport('recruitment', 400, refusal)).toEqual(refusalReport('recruitment', 'bad_request'));
  });

  it('reports an answer recorded before its outcome was kept by its status alone', () => {
    expect(replayReport('ingest-lead', 200, undefined).journal).toEqual({
      outcome: '200',
      record_id: null,
      placement: null,
      warnings: [],
    });
    expect(replayReport('ingest-lead', 400, undefined).counts).toEqual([
      { metric: 'LeadsRefused', dimensions: { code: '400' } },
    ]);
  });
});
