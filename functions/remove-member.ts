import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { removeMember } from '../lib/admin/members';
import { productionDeps, type Deps } from '../lib/deps';
import { actingMemberOf } from '../lib/http/membership';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { pathParameterText } from '../lib/http/request-input';
import { routeById } from '../lib/routes';

const route = routeById('removeMember');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) =>
        json(
          200,
          await removeMember(deps, { ...actingMemberOf(principal), memberId: pathParameterText(event, 'member_id') }),
        ),
      ),
  );

export const handler = createHandler(productionDeps());
