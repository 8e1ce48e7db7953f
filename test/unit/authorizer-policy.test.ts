import { jest } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { createAuthorizer } from '../../functions/authorizer';
import {
  answer,
  judgeAuthorizerResult,
  maxAuthorizerResultBytes,
  maxMethodArnBytes,
  refusals,
} from '../../tools/local/api-gateway';
import { allowStagePolicy, stageWideResource } from '../../lib/auth/context';
import { deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { fakeTable } from '../support/fake-table';
import { callAuthorizer } from '../support/route-calls';
import { aCountingFunction, anAuthorizerEvent, anIncomingRequest, gatewayIds } from '../support/gateway-fixtures';

const stageArn = 'arn:aws:execute-api:eu-west-3:123456789012:localapi/local';

const bodyOf = (reply: { body: Buffer }): unknown => JSON.parse(reply.body.toString('utf8'));

/** The production authorizer's answer shape, without reading any table: always Allow, decision in the context. */
const productionShapedAuthorizer = async (event: { methodArn: string }): Promise<APIGatewayAuthorizerResult> => ({
  principalId: 'anonymous',
  policyDocument: allowStagePolicy(event.methodArn),
  context: { outcome: 'unauthorized' },
});

describe('the policy the authorizer answers', () => {
  test.each([
    [`${stageArn}/GET/pipelines`],
    [`${stageArn}/DELETE/prospects/p1/tags/Chaud`],
    [`${stageArn}/POST/prospects/${'x'.repeat(1500)}/notes`],
  ])('allows every method and path of the stage, whatever the path (%#)', (methodArn) => {
    expect(stageWideResource(methodArn)).toBe(`${stageArn}/*/*`);
  });

  test('keeps an ARN of another form as it is', () => {
    expect(stageWideResource('not-an-arn')).toBe('not-an-arn');
  });

  test('the authorizer answers Allow on the stage pattern, its decision in the context', async () => {
    const table = fakeTable();
    const result = await callAuthorizer('listPipelines', table.deps);
    expect(result.policyDocument).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Action: 'execute-api:Invoke',
          Effect: 'Allow',
          Resource: 'arn:aws:execute-api:eu-west-3:123456789012:api/test/*/*',
        },
      ],
    });
    expect(result.context).toMatchObject({ outcome: 'allowed' });
  });

  test('a refusing decision is still an Allow of the same size, the refusal in the context', async () => {
    const table = fakeTable();
    const result = await callAuthorizer('listPipelines', table.deps, { headers: {} });
    expect(result.policyDocument.Statement).toEqual([expect.objectContaining({ Effect: 'Allow' })]);
    expect(result.context).toEqual({ outcome: 'unauthorized' });
  });

  test('the answer does not grow with the path', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const authorizer = createAuthorizer(fakeTable().deps);
      const sizeFor = async (path: string) => {
        const result = await authorizer(
          anAuthorizerEvent({
            methodArn: `${stageArn}/POST${path}`,
            resource: '/prospects/{prospect_id}/notes',
            path,
            httpMethod: 'POST',
          }),
        );
        return JSON.stringify(result).length;
      };
      expect(await sizeFor(`/prospects/${'x'.repeat(1400)}/notes`)).toBe(await sizeFor('/prospects/p/notes'));
    } finally {
      jest.restoreAllMocks();
    }
  });
});

describe('the local gateway applies the quotas around the authorizer', () => {
  test('a very long path, its method ARN within 1600 bytes, still authorizes and reaches the handler', async () => {
    const prefix = `${stageArn}/POST/prospects//notes`;
    const id = 'p'.repeat(maxMethodArnBytes - prefix.length);
    const handler = aCountingFunction();
    const reply = await answer(
      routes,
      anIncomingRequest({ method: 'POST', target: `/prospects/${id}/notes`, body: '{}' }),
      { authorizer: productionShapedAuthorizer, handler },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(200);
    expect(handler.calls).toHaveLength(1);
  });

  test('a method ARN over 1600 bytes is a 414 before the authorizer is called', async () => {
    const prefix = `${stageArn}/POST/prospects//notes`;
    const id = 'p'.repeat(maxMethodArnBytes - prefix.length + 1);
    const never = aCountingFunction();
    const reply = await answer(
      routes,
      anIncomingRequest({ method: 'POST', target: `/prospects/${id}/notes`, body: '{}' }),
      { authorizer: never, handler: never },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(414);
    expect(bodyOf(reply)).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
    expect(never.calls).toHaveLength(0);
  });

  test('an Allow whose Resource is over the authorizer result quota is an AuthorizerConfigurationException 500', async () => {
    const handler = aCountingFunction();
    const reply = await answer(
      routes,
      anIncomingRequest(),
      {
        authorizer: async () => ({
          principalId: 'p',
          policyDocument: {
            Version: '2012-10-17',
            Statement: [
              { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: `${stageArn}/GET/${'*'.repeat(8192)}` },
            ],
          },
          context: { outcome: 'allowed' },
        }),
        handler,
      },
      gatewayIds,
    );
    expect(reply.statusCode).toBe(500);
    expect(bodyOf(reply)).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    expect(handler.calls).toHaveLength(0);
  });

  test('the quota is on the whole answer: 8192 bytes pass, one more does not', () => {
    const arn = `${stageArn}/GET/pipelines`;
    const resultOf = (length: number) => {
      const result = { principalId: 'p', policyDocument: allowStagePolicy(arn), context: { pad: '' } };
      result.context.pad = 'x'.repeat(length - JSON.stringify(result).length);
      expect(JSON.stringify(result).length).toBe(length);
      return result;
    };
    expect(judgeAuthorizerResult(resultOf(maxAuthorizerResultBytes), arn, 0).allowed).toBe(true);
    expect(judgeAuthorizerResult(resultOf(maxAuthorizerResultBytes + 1), arn, 0)).toEqual({
      allowed: false,
      refusal: refusals.authorizerConfigurationError,
    });
  });

  test('the stage pattern matches the method ARN of every route', () => {
    for (const route of routes) {
      const arn = `${stageArn}/${route.method}${route.path.replace(/\{[^}]+\}/g, 'x')}`;
      expect(judgeAuthorizerResult(productionShapedResult(arn), arn, 0).allowed).toBe(true);
    }
  });
});

const productionShapedResult = (arn: string): APIGatewayAuthorizerResult => ({
  principalId: 'anonymous',
  policyDocument: allowStagePolicy(arn),
  context: { outcome: 'unauthorized' },
});
