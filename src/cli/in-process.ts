/**
 * The CLI's `main` run in this process with its stdout captured and its notes on stderr dropped: how a lesson's play
 * (src/cli/lesson.ts `playLesson`) reaches the other commands from a script or a test. Throws when the command fails.
 */
import { main } from './main';

export async function cliInProcess(argv: string[]): Promise<string> {
  const chunks: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  (process.stdout as { write: unknown }).write = (c: string | Uint8Array) => (chunks.push(String(c)), true);
  (process.stderr as { write: unknown }).write = () => true;
  try {
    const code = await main(argv);
    if (code !== 0) throw new Error(`cil-lab ${argv.join(' ')} exited ${code}`);
  } finally {
    (process.stdout as { write: unknown }).write = out;
    (process.stderr as { write: unknown }).write = err;
  }
  return chunks.join('');
}
