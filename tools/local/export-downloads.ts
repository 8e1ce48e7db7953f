import { randomBytes } from 'node:crypto';
import { exportLinkSeconds, type ExportStore } from '../../lib/domain/export/export-store';
import { noStoreHeaders } from '../../lib/routes';
import type { GatewayReply } from './api-gateway';

/** Where the local server serves the exports it keeps: no route of the API starts so. */
const downloadPrefix = '/local-exports/';

/**
 * The export bucket of `npm start` and the tests (docs/api.md#exports): the server keeps each export in memory and
 * serves it itself at an unguessable address, as a presigned link of the bucket works on AWS: for
 * `exportLinkSeconds` by the run's clock, then refused (403, as S3 refuses an expired link), and unknown addresses 404.
 * Nothing survives a restart, as nothing of the local queue does.
 */
export type LocalExports = ExportStore & {
  /** The server's address, once it listens: links are built on it. */
  baseUrl: string;
  /** The answer to a GET of `path` when it is a download's address; undefined for any other path. */
  download(path: string): GatewayReply | undefined;
};

export function localExports(clock: () => Date): LocalExports {
  const kept = new Map<string, { document: string; until: number }>();
  const reply = (statusCode: number, body: string): GatewayReply => ({
    statusCode,
    headers: {
      'Content-Type': ['application/json; charset=utf-8'],
      ...Object.fromEntries(Object.entries(noStoreHeaders).map(([name, value]) => [name, [value]])),
    },
    body: Buffer.from(body),
  });
  const exports: LocalExports = {
    baseUrl: '',
    async keep(_name, document) {
      // The name is the bucket's key; locally a random token, so that a link is as unguessable as a signature.
      const token = randomBytes(24).toString('base64url');
      kept.set(token, { document, until: clock().getTime() + exportLinkSeconds * 1000 });
      return `${exports.baseUrl}${downloadPrefix}${token}`;
    },
    download(path) {
      if (!path.startsWith(downloadPrefix)) return undefined;
      const token = path.slice(downloadPrefix.length);
      const found = kept.get(token);
      if (found === undefined) return reply(404, '{"message":"Not Found"}');
      if (clock().getTime() >= found.until) {
        kept.delete(token);
        return reply(403, '{"message":"Request has expired"}');
      }
      return reply(200, found.document);
    },
  };
  return exports;
}
