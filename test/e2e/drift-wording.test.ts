import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  renderPlanJson,
  renderPlanMarkdown,
  renderPlanText,
} from '../../src/reconcile/render/index.js';
import { setInstanceVariable } from '../helpers/emulator-store.js';
import { converge, type World, world } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const KEY = 'ComputeInstance/ml-research/experiments/l40s-dev';
const SAID = 'spec.variables[Contract Term].value: platform has 8, git says 1';

describe('drift wording (issue 22, item 3)', () => {
  it('plan text, markdown and JSON say what the platform has and what git says', async () => {
    await converge(w);
    setInstanceVariable(w.emulator.store, 'ml-research/experiments/l40s-dev', 'Contract Term', '8');
    const planned = await w.run({ mode: 'plan' });
    const drift = planned.plan!.actions.find((a) => a.key === KEY && a.reason.code === 'drift');
    expect(drift?.reason.message).toBe(SAID);
    for (const out of [
      renderPlanText(planned.plan!),
      renderPlanMarkdown(planned.plan!),
      renderPlanJson(planned.plan!),
    ]) {
      expect(out).toContain(SAID);
      expect(out).not.toMatch(/changed from 8 to 1|is off \(|"off" -> "off"/);
    }
    // self-heal off: the warning says the same
    const reported = await w.run({ mode: 'plan', selfHeal: false });
    expect(reported.plan!.diagnostics.map((d) => d.message)).toContain(
      `drift not corrected (self-heal is off): ${SAID}`,
    );
  }, 120_000);
});
