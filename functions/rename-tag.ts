import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { renameTag } from '../lib/admin/config-edits';
import { productionDeps, type Deps } from '../lib/deps';
import { membershipOf } from '../lib/http/membership';
import { tagNameSchema } from '../lib/http/settings-input';
import { parseJsonBody, pathIdOf, pathParameterText } from '../lib/http/request-input';
import { messages } from '../lib/messages';
import { memberGate } from '../lib/http/middleware/member-gate';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { routeById } from '../lib/routes';

const route = routeById('renameTag');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(memberGate(deps))
      .handler(async (event, { principal }) => {
        const { name } = parseJsonBody(event.body, tagNameSchema);
        const tagId = pathIdOf(event, 'tag_id', messages.admin.config.unknownTag(pathParameterText(event, 'tag_id')));
        const { workspaceId, memberId } = membershipOf(principal);
        return json(200, await renameTag(deps, { workspaceId, tagId, name, actingMemberId: memberId }));
      }),
  );

export const handler = createHandler(productionDeps());
