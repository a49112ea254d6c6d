import { createInterface } from 'node:readline/promises';

/**
 * Asks `question` on the terminal and returns true only for the answer `yes` (I/O). Off a
 * terminal it asks nothing: it writes `notTty` (how to go on without asking) and returns false.
 */
export async function confirmOnTerminal(
  question: string,
  notTty: string,
  stderr: NodeJS.WriteStream = process.stderr,
): Promise<boolean> {
  if (!process.stdin.isTTY) {
    stderr.write(`${notTty}\n`);
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: stderr });
  try {
    return (await rl.question(question)).trim() === 'yes';
  } finally {
    rl.close();
  }
}
