import { jest } from '@jest/globals';
import { marshall } from '@aws-sdk/util-dynamodb';
import { routeById } from '../../lib/routes';
import {
  conditionFailed,
  storedEndpoint,
  faultNames,
  faults,
  fakeTable,
  fixture,
  type AccessPattern,
} from '../support/fake-table';
import { callAuthorizer, callRoute, expectCleanServerError, routeIds } from '../support/route-calls';

/** The reads and writes the authorizer makes for a route's credential. */
const patternsOf = (routeId: string): AccessPattern[] =>
  routeById(routeId).credential === 'api-key' ? ['key-read'] : ['endpoint-call'];

beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

describe.each(routeIds)('the authorizer of %s under DynamoDB faults', (routeId) => {
  const route = routeById(routeId);

  it('allows a valid credential when the table is healthy', async () => {
    const table = fakeTable();
    const result = await callAuthorizer(routeId, table.deps);
    expect(result.context).toMatchObject({ outcome: 'allowed' });
  });

  const cases = patternsOf(routeId).flatMap((pattern) => faultNames.map((fault) => [pattern, fault] as const));
  it.each(cases)(
    'a fault on %s (%s) becomes the route’s clean 500, and the handler touches nothing',
    async (pattern, fault) => {
      const table = fakeTable();
      table.failAlways(pattern, faults[fault]);
      const result = await callAuthorizer(routeId, table.deps);
      expect(result.policyDocument.Statement).toEqual([expect.objectContaining({ Effect: 'Allow' })]);
      expect(result.context).toEqual({ outcome: 'failed' });

      const handlerTable = fakeTable();
      const response = await callRoute(routeId, handlerTable.deps, { authorizerContext: result.context ?? {} });
      expectCleanServerError(route, response);
      expect(handlerTable.calls('rate-counter')).toHaveLength(0);
      expect(handlerTable.calls('transaction')).toHaveLength(0);
    },
  );
});

describe('the webhook authorizer: one conditional write decides', () => {
  it('refuses, without retrying, a token the condition refuses (regenerated, or webhook disabled)', async () => {
    const table = fakeTable();
    table.script('endpoint-call', { fail: conditionFailed(marshall(storedEndpoint())) });
    const result = await callAuthorizer('ingestLead', table.deps);
    // The refusal names the known endpoint, so that the handler journals the call (and nothing of it).
    expect(result.context).toEqual({
      outcome: 'unauthorized',
      kind: 'webhook',
      workspaceId: fixture.workspaceId,
      endpointId: fixture.endpointId,
    });
    expect(table.calls('endpoint-call')).toHaveLength(1);
    expect(table.calls('endpoint-read')).toHaveLength(0);
  });

  it('tells an unknown endpoint by the absence of a stored item in the refusal', async () => {
    const table = fakeTable();
    table.script('endpoint-call', { fail: conditionFailed() });
    const result = await callAuthorizer('ingestLead', table.deps);
    expect(result.context).toEqual({ outcome: 'endpoint_unknown' });
  });
});
