import { expect } from 'vitest';

/** One `$ command` of a documented console session, with the output lines shown under it. */
export interface Step {
  readonly command: string;
  readonly expected: string[];
}

/** The first `console` block after `heading` in `page`: `$ command` lines and their output. */
export function consoleSteps(page: string, heading: string): Step[] {
  const at = page.indexOf(heading);
  if (at < 0) throw new Error(`no section ${heading}`);
  const block = /```console\n([\s\S]*?)```/.exec(page.slice(at))?.[1];
  if (!block) throw new Error(`${heading} has no console block`);
  const steps: Step[] = [];
  for (const line of block.split('\n').filter((l) => l !== '')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), expected: [] });
    else steps.at(-1)!.expected.push(line);
  }
  return steps;
}

/** An output line as the page writes it: `…` stands for anything. */
const pattern = (line: string) =>
  new RegExp(
    `^${line
      .split('…')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );

/** Whether every expected line is among the output lines, in order. */
export function hasLines(output: string, expected: readonly string[]): boolean {
  const lines = output.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected) {
    const found = lines.findIndex((l, i) => i >= at && pattern(want).test(l));
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}

/** Every expected line, in order, among the output lines (a failed expectation otherwise). */
export function expectLines(output: string, expected: readonly string[], command: string) {
  const lines = output.split('\n').map((l) => l.trimEnd());
  let at = 0;
  for (const want of expected) {
    const found = lines.findIndex((l, i) => i >= at && pattern(want).test(l));
    expect(found, `${command}\n  missing: ${want}\n  output:\n${output}`).toBeGreaterThanOrEqual(0);
    at = found + 1;
  }
}
