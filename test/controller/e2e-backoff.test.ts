import { describe, expect, it } from 'vitest';
import { type Clock, systemClock } from '../../src/core/clock.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

const stack = useStack();

const OTHER = '/apis/paas.envmgmt.io/v1/projects/ml-research/workspaces';
const WS_B = 'Workspace/ml-research/ws-b';

/** The real clock that a test can move ahead at once, so a backoff ends without sleeping. */
function jumpingClock(): { clock: Clock; jump(ms: number): void } {
  let offset = 0;
  return {
    clock: { now: () => Date.now() + offset, sleep: systemClock.sleep },
    jump: (ms) => {
      offset += ms;
    },
  };
}

function otherWorkspace(description: string): string {
  return workspaceYaml('ws-b', description).replace('project: platform', 'project: ml-research');
}

async function description(path: string): Promise<string | undefined> {
  const r = await stack.api('GET', path);
  return (r.body as { metadata?: { description?: string } } | null)?.metadata?.description;
}

describe('per-resource backoff', () => {
  it('skips a failing resource while its backoff lasts, retries it after; others converge', async () => {
    // every create or update of a workspace in ml-research fails, and a 500 on POST is not retried
    const fault = await stack.api('POST', '/_emulator/faults', {
      path: OTHER,
      method: 'POST',
      status: 500,
    });
    expect(fault.status).toBe(201);
    commitFiles(
      stack.remote,
      { 'platform/a.yaml': workspaceYaml('ws-a', 'one'), 'platform/b.yaml': otherWorkspace('one') },
      'two workspaces',
    );
    const time = jumpingClock();
    const c = await stack.controller({
      clock: time.clock,
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    expect((await nextStep(c)).result).toBe('failed');
    expect(await description(`${WORKSPACES}/ws-a`)).toBe('one');
    expect((await stack.api('GET', `${OTHER}/ws-b`)).status).toBe(404);
    expect(c.status.backoff[WS_B]).toBeGreaterThan(0);

    // within the backoff: ws-b is not attempted, ws-a still follows git
    commitFiles(stack.remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'two') }, 'ws-a two');
    const before = (await stack.journal()).length;
    let step = nextStep(c);
    c.loop.trigger('test');
    expect((await step).result).toBe('failed'); // the revision is not applied in full
    expect(await description(`${WORKSPACES}/ws-a`)).toBe('two');
    const writes = (await stack.journal()).slice(before).filter((e) => e.method !== 'GET');
    expect(writes.map((e) => e.path)).toEqual([WORKSPACES]);
    expect(c.status.resources.map((r) => r.key)).not.toContain(WS_B);
    expect(c.status.lastDiagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(/^Workspace\/ml-research\/ws-b: deferred: excluded from this run/),
    );
    expect(stack.logs.some((l) => l.includes('"resource-deferred"'))).toBe(true);
    const applied = c.status.lastAppliedRevision;
    expect(applied).toBeUndefined();

    // after the backoff: ws-b is retried, and with the fault gone the revision converges
    await stack.api('DELETE', '/_emulator/faults');
    time.jump(61_000);
    step = nextStep(c);
    c.loop.trigger('test');
    expect((await step).result).toBe('succeeded');
    expect(await description(`${OTHER}/ws-b`)).toBe('one');
    expect(c.status.backoff).toEqual({});
    expect(c.status.lastAppliedRevision).toBe(c.status.fetchedRevision);
  });
});
