import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, Validations } from 'aws-cdk-lib';
import type { IUserPool } from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { functionTimeoutSeconds } from '../../../lib/routes';
import { tableKeysOfEntry, type IdentityAction, type TableAction, type TableKeys } from '../route-grants';
import { functionBundling, functionRuntime } from '../bundling';
import { concurrencyOfEntry, type FunctionConcurrency } from '../concurrency';
import { identityAccessStatements } from '../identity-access';
import { logRetention } from '../log-retention';
import { powertoolsEnvironment, type PowertoolsSettings } from '../observability';
import { tableAccessStatements } from '../table-access';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

export type RouteFunctionProps = {
  /** Handler file, relative to the project root (the route list's `entry`). */
  entry: string;
  description: string;
  table: ITable;
  tableActions: readonly TableAction[];
  /** The partitions of those actions; by default the route list's for `entry` (or the authorizer's). */
  tableKeys?: TableKeys;
  /** The user-pool actions the function calls, on that pool only (../identity-access.ts); none by default. */
  identity?: { userPool: IUserPool; actions: readonly IdentityAction[] };
  /** By default the budget of `entry` (../concurrency.ts); a route's is its credential's. */
  concurrency?: FunctionConcurrency;
  /** By default `functionTimeoutSeconds`, the API's; the event functions are not bound by API Gateway's 29 s. */
  timeout?: Duration;
  /** Added to TABLE_NAME and the Powertools variables, which every function gets. */
  environment?: Readonly<Record<string, string>>;
  /** The stage's metric namespace and log level; the service name is the function's construct id. */
  powertools: PowertoolsSettings;
  /**
   * Why the function needs no dead-letter queue of its own (Serverless-LambdaDLQ): it depends on
   * who invokes it, and a Lambda DLQ only ever receives failed asynchronous invocations.
   */
  noDeadLetterQueueReason: string;
};

/**
 * Every function of the stack, route handler, authorizer or event function, with the same settings. Its role is
 * its own: write to its own log group, X-Ray, and exactly the table actions it is given, each
 * confined to the partition-key prefixes it touches (infra/cdk/table-access.ts), and the user-pool actions
 * it is given on the members' pool (infra/cdk/identity-access.ts).
 */
export class RouteFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: RouteFunctionProps) {
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: props.description,
    });
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: logRetention });
    super(scope, id, {
      entry: path.join(projectRoot, props.entry),
      projectRoot,
      depsLockFilePath: path.join(projectRoot, 'package-lock.json'),
      description: props.description,
      runtime: functionRuntime,
      architecture: Architecture.ARM_64,
      /**
       * I/O-bound code (one to three DynamoDB round trips, a SHA-256): 512 MB gives a CPU share that
       * keeps cold starts (module parse, TLS handshake) short, while a warm call, which waits on
       * DynamoDB whatever the size, costs half of what it would at 1024 MB.
       */
      memorySize: 512,
      /**
       * A stuck call ends as the gateway's 5xx in the standard error shape (docs/api.md#error-bodies; see
       * functionTimeoutSeconds).
       */
      timeout: props.timeout ?? Duration.seconds(functionTimeoutSeconds),
      tracing: Tracing.ACTIVE,
      /** Its line of the one concurrency budget (../concurrency.ts); synthesis fails for an entry without one. */
      reservedConcurrentExecutions: (props.concurrency ?? concurrencyOfEntry(props.entry)).reserved,
      role,
      logGroup,
      environment: {
        TABLE_NAME: props.table.tableName,
        ...powertoolsEnvironment(id, props.powertools),
        ...props.environment,
      },
      bundling: { ...functionBundling, forceDockerBundling: false },
    });
    logGroup.grantWrite(role);
    const tableKeys = props.tableKeys ?? tableKeysOfEntry(props.entry);
    for (const statement of tableAccessStatements(props.table, props.tableActions, tableKeys))
      role.addToPrincipalPolicy(statement);
    if (props.identity) {
      for (const statement of identityAccessStatements(props.identity.userPool, props.identity.actions))
        role.addToPrincipalPolicy(statement);
    }
    const runtimeChoice =
      'nodejs22.x is pinned on purpose: the code is built (target node22) and tested for it; a newer runtime is a deliberate upgrade, not a default.';
    Validations.of(this).acknowledge(
      { id: 'AwsSolutions-L1', reason: runtimeChoice },
      { id: 'Serverless-LambdaLatestVersion', reason: runtimeChoice },
      { id: 'Serverless-LambdaDLQ', reason: props.noDeadLetterQueueReason },
    );
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments and PutTelemetryRecords, and dynamodb:ListStreams that the stream event source grants the stream handler, support no resource-level permission: "*" is their only resource.',
    });
  }
}
