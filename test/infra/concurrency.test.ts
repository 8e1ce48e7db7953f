import { readFileSync } from 'node:fs';
import {
  accountConcurrency,
  budgetedCallSeconds,
  concurrencyBudget,
  concurrencyOfEntry,
  routesPeakConcurrency,
} from '../../infra/cdk/concurrency';
import { methodThrottleOf, methodThrottling } from '../../infra/cdk/constructs/crm-api';
import { pageResourcePaths } from '../../infra/cdk/settings-page';
import { authorizerDescription, CrmStack } from '../../infra/cdk/stack';
import { authorizerEntry, eventFunctions, deployedRoutes as routes } from '../../infra/cdk/route-grants';
import { testApp } from '../support/cdk-app';
import { flattenedTemplate } from '../support/nested-templates';
import { deploymentHandlerIds } from '../support/settings-page-resources';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const stack = new CrmStack(testApp(), 'Crm-concurrency', { stage: 'concurrency' });
/** The main template's resources and the settings API's nested one's (infra/cdk/constructs/settings-functions.ts). */
const resources = flattenedTemplate(stack).Resources as Record<string, Json>;
const ofType = (type: string): [string, Json][] => Object.entries(resources).filter(([, r]) => r.Type === type);

/** Each function of the template by the name docs/deploy.md gives it, and the entry it is built from. */
const knownFunctions = new Map<string, { name: string; entry: string }>([
  [authorizerDescription, { name: 'Authorizer', entry: authorizerEntry }],
  ...eventFunctions.map(
    (f) => [f.description, { name: f.id.charAt(0).toUpperCase() + f.id.slice(1), entry: f.entry }] as const,
  ),
  ...routes.map(
    (route) =>
      [`${route.method} ${route.path}`, { name: `${route.method} ${route.path}`, entry: route.entry }] as const,
  ),
]);

/** Not the CDK's bucket-deployment function: it runs only while deploying the page, from the unreserved pool. */
const deploymentHandlers = deploymentHandlerIds(resources);

const functions = ofType('AWS::Lambda::Function')
  .filter(([id]) => !deploymentHandlers.has(id))
  .map(([id, fn]) => {
    const known = knownFunctions.get(fn.Properties.Description as string);
    return {
      id,
      description: fn.Properties.Description as string,
      name: known?.name,
      budget: known && concurrencyOfEntry(known.entry),
      reserved: fn.Properties.ReservedConcurrentExecutions as number | undefined,
    };
  });
const functionOf = (description: string) => functions.find((fn) => fn.description === description)!;
const mappings = ofType('AWS::Lambda::EventSourceMapping').map(([, m]) => m.Properties as Json);
const mappingsOf = (functionId: string) => mappings.filter((m) => m.FunctionName.Ref === functionId);
const isQueueMapping = (mapping: Json) => !mapping.StartingPosition;
const totalReserved = functions.reduce((sum, fn) => sum + (fn.reserved ?? 0), 0);

/**
 * The API's peak as the template throttles it: every route's method at its own ThrottlingRateLimit. The settings
 * page's two methods run neither the authorizer nor a function (API Gateway reads S3 itself): not counted.
 */
const [[, stage]] = ofType('AWS::ApiGateway::Stage') as [[string, Json]];
const pageSettingPaths: string[] = Object.values(pageResourcePaths).map((path) => `/${path.replaceAll('/', '~1')}`);
const methodSettings = (stage.Properties.MethodSettings as Json[]).filter(
  (setting) => setting.ResourcePath !== '/*' && !pageSettingPaths.includes(setting.ResourcePath as string),
);
const peakRequestsPerSecond = methodSettings.reduce((sum, setting) => sum + (setting.ThrottlingRateLimit as number), 0);

describe('the concurrency budget, as deployed', () => {
  test('every function of the template has a line in the budget, and its reservation is that line’s', () => {
    expect(functions.filter((fn) => fn.budget === undefined).map((fn) => fn.description)).toEqual([]);
    for (const fn of functions)
      expect({ [fn.description]: fn.reserved }).toEqual({ [fn.description]: fn.budget!.reserved });
  });

  test('the event functions are capped; the authorizer has a floor; route functions share the unreserved pool', () => {
    for (const eventFunction of eventFunctions)
      expect(functionOf(eventFunction.description).reserved).toBeGreaterThan(0);
    expect(functionOf(authorizerDescription).reserved).toBeGreaterThan(0);
    for (const route of routes) expect(functionOf(`${route.method} ${route.path}`).reserved).toBeUndefined();
  });

  test('every function an event source mapping invokes has a reservation, so no mapping can scale past it', () => {
    const invoked = new Set(mappings.map((m) => m.FunctionName.Ref as string));
    expect(invoked.size).toBeGreaterThan(0);
    for (const id of invoked) expect(functions.find((fn) => fn.id === id)!.reserved).toBeGreaterThan(0);
  });

  test('every SQS mapping has a maximum concurrency, and its function’s reservation is not below their sum', () => {
    for (const fn of functions) {
      const queueMappings = mappingsOf(fn.id).filter(isQueueMapping);
      if (queueMappings.length === 0) continue;
      const maxima = queueMappings.map((m) => m.ScalingConfig?.MaximumConcurrency as number | undefined);
      expect(maxima).toEqual(queueMappings.map(() => fn.budget!.sqsMaximumConcurrency));
      /** Lambda takes 2 to 1,000 ("ScalingConfig", Lambda API reference). */
      for (const maximum of maxima) expect(maximum).toBeGreaterThanOrEqual(2);
      expect(fn.reserved).toBeGreaterThanOrEqual(maxima.reduce((sum: number, m) => sum + m!, 0));
    }
  });

  test('the stream mapping reads one batch per shard at a time, within its function’s reservation', () => {
    const streamMappings = mappings.filter((m) => !isQueueMapping(m));
    expect(streamMappings).toHaveLength(1);
    const [mapping] = streamMappings as [Json];
    const handler = functions.find((fn) => fn.id === mapping.FunctionName.Ref)!;
    expect(mapping.ParallelizationFactor).toBe(handler.budget!.streamParallelization);
    /** Concurrency is shards × ParallelizationFactor: the reservation holds that many shards at once. */
    expect(handler.reserved! / mapping.ParallelizationFactor).toBeGreaterThanOrEqual(10);
  });

  test('the authorizer’s floor holds every method at its full throttle at once, at the budgeted call time', () => {
    expect(methodSettings).toHaveLength(routes.length);
    expect(functionOf(authorizerDescription).reserved).toBeGreaterThanOrEqual(
      peakRequestsPerSecond * budgetedCallSeconds.authorizer,
    );
  });

  test('all stages of one account fit: reservations within the limit minus Lambda’s unreserved minimum', () => {
    const { limit, unreservedMinimum, stagesPerAccount } = accountConcurrency;
    expect(totalReserved * stagesPerAccount).toBeLessThanOrEqual(limit - unreservedMinimum);
  });

  test('what the reservations leave unreserved holds every stage’s route functions at the API’s peak', () => {
    const { limit, stagesPerAccount } = accountConcurrency;
    expect(routesPeakConcurrency).toBeGreaterThanOrEqual(peakRequestsPerSecond * budgetedCallSeconds.handler);
    expect(limit - totalReserved * stagesPerAccount).toBeGreaterThanOrEqual(stagesPerAccount * routesPeakConcurrency);
  });

  test('about forty settings routes at their throttle still fit every stage of one account', () => {
    const { limit, unreservedMinimum, stagesPerAccount } = accountConcurrency;
    const settingsRoutes = 40;
    const settingsRate = Math.max(methodThrottling['member-token'].rateLimit, methodThrottling.none.rateLimit);
    const otherRoutesRate = routes
      .filter((route) => route.credential === 'api-key' || route.credential === 'webhook-token')
      .reduce((sum, route) => sum + methodThrottleOf(route).rateLimit, 0);
    const peak = otherRoutesRate + settingsRoutes * settingsRate;
    const authorizer = Math.ceil(peak * budgetedCallSeconds.authorizer);
    const eventReservations = eventFunctions.reduce((sum, f) => sum + (concurrencyBudget[f.id].reserved ?? 0), 0);
    const reservedPerStage = authorizer + eventReservations;
    expect(reservedPerStage * stagesPerAccount).toBeLessThanOrEqual(limit - unreservedMinimum);
    expect(limit - reservedPerStage * stagesPerAccount).toBeGreaterThanOrEqual(
      stagesPerAccount * Math.ceil(peak * budgetedCallSeconds.handler),
    );
  });

  test('a function built from an entry the budget does not know fails synthesis', () => {
    expect(() => concurrencyOfEntry('functions/not-in-any-list.ts')).toThrow(/concurrency/);
    expect(Object.keys(concurrencyBudget).sort()).toEqual(
      ['authorizer', ...eventFunctions.map((f) => f.id), ...Object.keys(methodThrottling)].sort(),
    );
  });
});

describe('docs/deploy.md', () => {
  const doc = readFileSync(new URL('../../docs/deploy.md', import.meta.url), 'utf8');
  const section = doc.slice(
    doc.indexOf('## Concurrency budget'),
    doc.indexOf('\n## ', doc.indexOf('## Concurrency budget')),
  );
  /** The budget table's row of a function: `| <name> | <invoked by> | <reserved> | …`. */
  const reservedColumn = (name: string): string | undefined =>
    section
      .split('\n')
      .find((line) => line.startsWith(`| \`${name}\` `))
      ?.split('|')[3]
      ?.trim();

  test('the budget table gives every function the reservation it has', () => {
    for (const fn of functions)
      expect({ [fn.name!]: reservedColumn(fn.name!) }).toEqual({ [fn.name!]: String(fn.reserved ?? 'none') });
  });

  test('states the account limit and the unreserved minimum it assumes', () => {
    const prose = section.replace(/\s+/g, ' ').replaceAll('**', '');
    expect(prose).toContain(`${accountConcurrency.limit.toLocaleString('en')} concurrent executions`);
    expect(prose).toContain(`${accountConcurrency.unreservedMinimum} unreserved`);
  });
});
