import { RetentionDays } from 'aws-cdk-lib/aws-logs';

/** A month of logs: enough to investigate an incident, short for error details tied to people's records. */
export const logRetention = RetentionDays.ONE_MONTH;
