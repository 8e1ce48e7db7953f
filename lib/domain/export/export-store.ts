/**
 * Where an export too large to answer is kept for its download (docs/api.md#erasure-export-and-retention): a private
 * S3 bucket on AWS (lib/exports/s3-export-store.ts), the local server itself in `npm start` and the tests
 * (tools/local/export-downloads.ts). `keep` stores the JSON text under `name` and answers a link that downloads it for
 * `exportLinkSeconds`, and no longer.
 */
export type ExportStore = { keep(name: string, document: string): Promise<string> };

/**
 * Past this many bytes of JSON, an export is answered as a link: 5 MB, under the 6 MB a synchronous invocation may
 * answer ("Lambda quotas", invocation payload, https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html).
 */
export const maxAnsweredExportBytes = 5_000_000;

/** How long the link of an export kept for its download works: 15 minutes. */
export const exportLinkSeconds = 15 * 60;

/** What answers an export too large to answer whole. */
export type ExportLink = { exported_at: string; download_url: string };

/**
 * The document itself, or, past `maxAnsweredExportBytes` of JSON, the link to it kept under `name`: the same text the
 * answer would have carried.
 */
export async function answeredOrKept<D extends { exported_at: string }>(
  exports: ExportStore,
  name: string,
  document: D,
): Promise<D | ExportLink> {
  const text = JSON.stringify(document);
  if (Buffer.byteLength(text, 'utf8') <= maxAnsweredExportBytes) return document;
  return { exported_at: document.exported_at, download_url: await exports.keep(name, text) };
}
