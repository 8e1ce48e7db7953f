import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { secretsTableDefinition } from '../secrets-table-definition';

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

/**
 * The signing-secrets table (docs/adr/0012-signing-secrets-table.md), built from the definition
 * DynamoDB Local's is created from. No `stream`: a stream reader's GetRecords takes no per-key
 * condition, so a stream on this table would hand every secret written to whoever may read it.
 * Kept like the main table (./single-table.ts): point-in-time recovery, deletion protection,
 * retained when the stack goes, name left to CloudFormation (SECRETS_TABLE_NAME of the delivery
 * function, and the SecretsTableName output for the admin command line).
 *
 * Encrypted at rest with the AWS owned key, as the main table (docs/adr/0012-signing-secrets-table.md):
 * which function reads a secret is decided by IAM on this table's ARN, which only the delivery
 * function's role names (proven by test/infra/iam-least-privilege.test.ts). A customer managed key
 * would add `kms:Decrypt` as a second gate against principals of the account holding broad DynamoDB
 * reads, as exposed today on the main table and its personal data, at the price of a key policy and
 * grants to keep right, a monthly fee, and a key whose disabling makes the retained table and its
 * backups unreadable. The key type can be switched later without replacing the table ("DynamoDB
 * encryption at rest usage notes",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/encryption.usagenotes.html).
 */
export class SigningSecretsTable extends Table {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      partitionKey: stringKey(secretsTableDefinition.partitionKey),
      sortKey: stringKey(secretsTableDefinition.sortKey),
      billingMode: BillingMode.PAY_PER_REQUEST,
      encryption: TableEncryption.DEFAULT,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
