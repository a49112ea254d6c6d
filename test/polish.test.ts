import { describe, expect, it } from 'vitest';
import { useColor } from '../src/cli/engine-options.js';
import { projectAssignmentProvider } from '../src/providers/project-assignment.js';
import { renderPlanText } from '../src/reconcile/render/text.js';
import { runCli } from './helpers/cli.js';
import { act, planOf } from './reconcile/helpers.js';
import { m } from './reconcile/manifests.js';

const role = { id: 'role-project-admin', name: 'PROJECT_ADMIN' };

describe('polish of a first hour', () => {
  it('marks what is added with +, and counts it as created', () => {
    const assign = act('ProjectAssignment/p/a#assign', [], 'assign', {
      user: 'ann@x.example',
      roles: [role],
      reason: { code: 'absent', message: 'grant' },
    });
    const text = renderPlanText(planOf([assign]));
    expect(text.split('\n')[0]).toBe('Plan: 1 to create, 0 to update, 0 to delete, 0 unchanged.');
    expect(text).toContain('+ ProjectAssignment/p/a');
  });

  it('says what an unassign and an assign do in words', () => {
    const assignment = m.assignment('p', 'a', 'ann@x.example') as never;
    const [unassign] = projectAssignmentProvider.plan({
      key: 'ProjectAssignment/p/a',
      lastApplied: assignment,
    });
    expect(unassign!.reason.message).toBe(
      'remove role PROJECT_ADMIN from ann@x.example in project p',
    );
    const [assign] = projectAssignmentProvider.plan({
      key: 'ProjectAssignment/p/a',
      desired: assignment,
    });
    expect(assign!.reason.message).toBe('grant role PROJECT_ADMIN to ann@x.example in project p');
  });

  it('honours FORCE_COLOR when piped, and NO_COLOR over it', () => {
    const piped = { isTTY: false } as NodeJS.WriteStream;
    expect(useColor(piped, {})).toBe(false);
    expect(useColor(piped, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor(piped, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true } as NodeJS.WriteStream, { FORCE_COLOR: '0' })).toBe(false);
  });

  it('counts one manifest in the singular', async () => {
    const r = await runCli(['validate', '-'], {
      input:
        'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: a\n  project: p\n',
    });
    expect(r.stdout).toContain('1 manifest valid');
  });
});
