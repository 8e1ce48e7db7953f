/**
 * What one start of a process that loads the project through tsx may take (the admin command line:
 * the AWS SDK and the command's modules, compiled and loaded): about 2.7 s on an idle 2-core machine,
 * 6 to 15 s measured with two `npm test` runs or more beside it (load average 15 to 17), so 30 s.
 * Each start costs a loaded machine that much, so a test starts processes only where the process
 * itself is what it checks (one document alone on stdout, the exit code, a signal), and runs the same
 * code in process otherwise (`runAdminInProcess`).
 */
export const processStartMs = 30_000;

/**
 * The timeout of a test that starts `processes` processes, one after the other or side by side (two
 * cores share the work either way): 10 s of work in process, and `processStartMs` for each start.
 * Jest's default (30 s) assumes none.
 */
export const timeoutForProcesses = (processes: number): number => 10_000 + processes * processStartMs;
