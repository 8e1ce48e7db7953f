import '../../node-major.js'; // first: on another Node major, nothing else runs
import { main } from './main';

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTerminal: process.stderr.isTTY,
});
