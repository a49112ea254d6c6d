import { afterEach, beforeEach } from 'vitest';
import { createStack, type Stack } from './stack.js';

/**
 * A fresh {@link Stack} for each test of the file that calls it at its top level, closed after
 * the test: `const stack = useStack();` in place of a `let` and the two hooks every end-to-end
 * test of the controller wrote again. What it returns stands for the running test's stack (it
 * forwards every read to it), so module-level helpers may hold it; read outside a test, it throws.
 */
export function useStack(options?: Parameters<typeof createStack>[0]): Stack {
  let current: Stack | undefined;
  beforeEach(async () => {
    current = await createStack(options);
  });
  afterEach(async () => {
    await current?.close();
  });
  return new Proxy({} as Stack, {
    get(_, name) {
      if (!current) throw new Error('no stack outside a test: call useStack() at the top level');
      return Reflect.get(current, name);
    },
  });
}
