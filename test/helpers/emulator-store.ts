import type { EmulatorStore } from '../../src/emulator/store/types.js';

/**
 * Sets one variable of a compute instance in the emulator's store, as a change made on the
 * platform behind platctl's back would. `at` is the store key `project/workspace/name`.
 */
export function setInstanceVariable(
  store: EmulatorStore,
  at: string,
  name: string,
  value: string,
): void {
  type Rec = { spec: { variables: { name: string; value: string }[] } };
  const rec = store.get<Rec>('computeinstances', at);
  if (!rec) throw new Error(`no instance ${at} in the emulator`);
  for (const v of rec.spec.variables) if (v.name === name) v.value = value;
  store.put('computeinstances', at, rec);
}
