import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { productionDeps, type Deps } from '../lib/deps';
import { addNote, addNoteSchema } from '../lib/domain/prospect/add-note';
import { apiKeyGate } from '../lib/http/middleware/api-key-gate';
import { answeredOnce } from '../lib/http/middleware/idempotency';
import { errorAnswers, json, observed } from '../lib/http/middleware/route';
import { parseJsonBody, prospectIdOf } from '../lib/http/request-input';
import { routeById } from '../lib/routes';

const route = routeById('addNote');

export const createHandler = (deps: Deps) =>
  observed(
    route,
    deps,
    middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(errorAnswers(route))
      .use(apiKeyGate(route, deps))
      .handler(
        answeredOnce(route, deps, async (event, { principal }, deps) => {
          const input = parseJsonBody(event.body, addNoteSchema);
          return json(201, await addNote(deps, principal, prospectIdOf(event), input));
        }),
      ),
  );

export const handler = createHandler(productionDeps());
