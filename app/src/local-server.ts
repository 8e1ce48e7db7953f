/**
 * Whether the page was served by `npm start`'s local server rather than by API Gateway, from its own address: the
 * local server answers plain http on this machine only (docs/api.md#running-locally), while "The APIs created with
 * Amazon API Gateway expose HTTPS endpoints only" ("Data protection in Amazon API Gateway", encryption in transit,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/data-protection-encryption.html). What the page says
 * depends on it where the two differ: locally no e-mail leaves the machine.
 */
export const isLocalServer = ({ protocol, hostname }: { protocol: string; hostname: string }): boolean =>
  protocol === 'http:' && (hostname === '127.0.0.1' || hostname === 'localhost');
