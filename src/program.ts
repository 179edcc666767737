// Running a local program (ffprobe, ffmpeg, tesseract): not to be confused with the tools of src/tools/, which
// the agent, MCP and GPT Actions call.
import { spawn } from 'node:child_process';

/** What a finished program left: its exit, what it printed (bounded) and the end of its error output. */
export interface ProgramRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** The first 2,000 characters of stderr. */
  stderr: string;
}

export interface ProgramOptions {
  /** The program is killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** The program is killed once it printed more than this many bytes. */
  maxOutput: number;
  /** Bytes written to its stdin (otherwise stdin is closed). */
  input?: Buffer;
  env?: NodeJS.ProcessEnv;
}

/** Binaries found missing: later runs answer null at once. */
const missing = new Set<string>();

/**
 * Runs a local program (ffprobe, ffmpeg, tesseract) with a deadline and an output cap. Resolves null when the
 * binary is not installed; rejects only when it could not be started for another reason. A non-zero exit or
 * a kill is the caller's to read from the result.
 */
export function runProgram(binary: string, args: string[], opts: ProgramOptions): Promise<ProgramRun | null> {
  if (missing.has(binary)) return Promise.resolve(null);
  return new Promise((done, fail) => {
    const child = spawn(binary, args, {
      stdio: [opts.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      env: opts.env ?? process.env,
    });
    const out: Buffer[] = [];
    let size = 0;
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
    child.stdout!.on('data', (c: Buffer) => {
      size += c.length;
      if (size > opts.maxOutput) child.kill('SIGKILL');
      else out.push(c);
    });
    child.stderr!.on('data', (c: Buffer) => {
      if (stderr.length < 2000) stderr += c.toString('utf8');
    });
    child.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (e.code === 'ENOENT') {
        missing.add(binary);
        done(null);
      } else fail(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout: Buffer.concat(out), stderr });
    });
    if (opts.input && child.stdin) {
      child.stdin.on('error', () => {}); // a program that exits early closes its input: the exit code tells
      child.stdin.end(opts.input);
    }
  });
}

/** True once a run found the binary missing. */
export const toolMissing = (binary: string): boolean => missing.has(binary);
