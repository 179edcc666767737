// Entry of the command line (imported by src/cli.ts once Node's compile cache is on): parses argv, runs the
// command, sets the exit code. Errors print one line (errors.ts). `herald` alone runs `serve`.
import { buildProgram, type CommandResult, CommanderError } from './program.ts';

const outcome: { result: CommandResult } = { result: 0 };
const program = buildProgram(async (action) => {
  outcome.result = await action();
});
const argv = process.argv.length > 2 ? process.argv : [...process.argv, 'serve'];

try {
  await program.parseAsync(argv);
  if (outcome.result !== 'running') process.exit(outcome.result);
} catch (err) {
  // commander has already printed the help, the version or what was wrong with the arguments.
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const { failureText } = await import('./errors.ts');
  console.error(failureText(err));
  process.exit(1);
}
