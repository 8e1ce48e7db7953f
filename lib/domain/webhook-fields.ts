/** A webhook body as the service read it (JSON object or flat form): field name → value as sent. */
export type WebhookFields = Record<string, unknown>;
