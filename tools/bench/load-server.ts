import { productionDeps } from '../../lib/deps';
import { startLocalServer } from '../local/server';

/**
 * The local API alone in a process of its own for the load runs, so that autocannon, in the
 * bench's process, does not share its event loop. Prints its URL; stops when its standard input
 * closes (the bench ending, however it ends).
 */
const server = await startLocalServer({ deps: productionDeps(), port: 0 });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
