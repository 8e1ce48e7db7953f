import { request } from 'node:http';

type RawAnswer = { status: number; text: string };

/**
 * One request through node:http, which, unlike fetch, sends header values and request targets
 * as given (empty values, latin-1 bytes, broken percent-encoding), as a hostile client would.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const length = body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) };
    const outgoing = request(
      { hostname, port, method, path: target, headers: { ...headers, ...length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
