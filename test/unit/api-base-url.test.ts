import type { APIGatewayProxyEvent } from 'aws-lambda';
import { apiBaseUrlOf } from '../../lib/http/request-input';

/** The base of the webhook URLs a settings answer shows: the API as the caller reached it. */
const reached = (domainName: string, stage: string) =>
  apiBaseUrlOf({ requestContext: { domainName, stage } as APIGatewayProxyEvent['requestContext'] });

test('on AWS, the default endpoint: https, the stage in the path', () => {
  expect(reached('abc123.execute-api.eu-west-3.amazonaws.com', 'prod')).toBe(
    'https://abc123.execute-api.eu-west-3.amazonaws.com/prod',
  );
});

test('the local server: http, at the root of the host the request named', () => {
  expect(reached('127.0.0.1:3000', 'local')).toBe('http://127.0.0.1:3000');
});
