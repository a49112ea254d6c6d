/** `[<hole>, 1]`: an array whose first element is missing, not `undefined`. */
export function holeThenOne(): unknown[] {
  const a: unknown[] = [];
  a[1] = 1;
  return a;
}
