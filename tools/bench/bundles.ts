import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { authorizerEntry, eventFunctions, routes } from '../../lib/routes';
import { esbuildOptionsFor } from '../../infra/cdk/bundling';

const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export const referenceName = 'reference';
export const authorizerName = 'authorizer';

export type Bundle = {
  /** A route id, an event function's id, `authorizer` or `reference`. */
  name: string;
  entry: string;
  file: string;
  bytes: number;
  /** Bytes of the output by origin. */
  parts: { zod: number; sdk: number; app: number; other: number };
};

/**
 * Every function of the stack and the reference, bundled as RouteFunction deploys them: the routes,
 * the authorizer, and the outbound-event functions (infra/cdk/constructs/outbound-events.ts).
 */
export async function buildBundles(outDir: string): Promise<Bundle[]> {
  const targets = [
    ...routes.map((route) => ({ name: route.id, entry: route.entry })),
    ...eventFunctions.map((eventFunction) => ({ name: eventFunction.id, entry: eventFunction.entry })),
    { name: authorizerName, entry: authorizerEntry },
    { name: referenceName, entry: 'tools/bench/reference-function.ts' },
  ];
  const bundles: Bundle[] = [];
  for (const target of targets) {
    const file = path.join(outDir, target.name, 'index.mjs');
    await mkdir(path.dirname(file), { recursive: true });
    const result = await build({
      ...esbuildOptionsFor(path.join(projectRoot, target.entry), file),
      absWorkingDir: projectRoot,
      metafile: true,
      logLevel: 'warning',
    });
    const output = Object.values(result.metafile.outputs)[0];
    if (output === undefined) throw new Error(`${target.entry}: esbuild wrote nothing`);
    const parts = { zod: 0, sdk: 0, app: 0, other: 0 };
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) parts[origin(input)] += bytesInOutput;
    bundles.push({ ...target, file, bytes: (await stat(file)).size, parts });
  }
  return bundles;
}

export function origin(input: string): keyof Bundle['parts'] {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match === null) return 'app';
  const name = match[1] as string;
  if (name === 'zod') return 'zod';
  if (name.startsWith('@aws-sdk/') || name.startsWith('@smithy/') || name.startsWith('@aws-crypto/')) return 'sdk';
  return 'other';
}
