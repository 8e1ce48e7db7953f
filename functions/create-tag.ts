import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { addTag } from '../lib/admin/config-edits';
import { productionDeps, type Deps } from '../lib/deps';
import { membershipOf } from '../lib/http/membership';
import { tagNameSchema } from '../lib/http/settings-input';
import { parseJsonBody } from '../lib/http/request-input';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('createTag');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const { name } = parseJsonBody(event.body, tagNameSchema);
        const { workspaceId, memberId } = membershipOf(principal);
        return json(201, await addTag(deps, { workspaceId, name, actingMemberId: memberId }));
      }),
  );

export const handler = createHandler(productionDeps());
