import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableDefinition } from '../table-definition';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

/**
 * The single table, built from the one table definition DynamoDB Local is created from. Its name
 * is left to CloudFormation: the table outlives its stack (retained, deletion protection), and a
 * fixed name would stop the stack from ever being created again next to the table it left.
 */
export class SingleTable extends Table {
  /**
   * `indexCount`: how many of the definition's indexes, in its order, the table declares (all by default).
   * CloudFormation adds one global secondary index per stack update, so a table deployed before the last ones takes
   * them one deployment at a time (docs/deploy.md#new-indexes).
   */
  constructor(scope: Construct, id: string, indexCount: number = tableDefinition.globalSecondaryIndexes.length) {
    super(scope, id, {
      partitionKey: stringKey(tableDefinition.partitionKey),
      sortKey: stringKey(tableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      removalPolicy: RemovalPolicy.RETAIN,
      /** The change stream outbound events read (./outbound-events.ts), with the view the definition names. */
      stream: StreamViewType[tableDefinition.streamViewType],
    });
    for (const index of tableDefinition.globalSecondaryIndexes.slice(0, indexCount)) {
      this.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        ...(index.projection.type === 'INCLUDE'
          ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.nonKeyAttributes] }
          : { projectionType: ProjectionType[index.projection.type] }),
      });
    }
  }
}
