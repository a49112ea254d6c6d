import { commitFiles } from './git-remote.js';
import { instancePath, instanceYaml, VPC_YAML, workspaceYaml } from './platform-yaml.js';
import type { Stack } from './stack.js';

// The power tests' platform: two compute instances in workspace ws-a of project `platform`, one
// free to be powered, one whose power state git pins (the control API's and `ctl power`'s tests).

/** The instance git leaves the power state of to operators. */
export const FREE = 'ComputeInstance/platform/ws-a/free';
/** The instance whose power state git pins on (`platctl.io/power-state: "on"`). */
export const PINNED = 'ComputeInstance/platform/ws-a/pinned';

const pinnedYaml = instanceYaml('ws-a', 'pinned').replace(
  '  workspace: ws-a\n',
  '  workspace: ws-a\n  annotations:\n    platctl.io/power-state: "on"\n',
);

/** Commits the VPC, the workspace and the two instances to the stack's remote. */
export function commitTwoBoxes(stack: Stack): void {
  commitFiles(
    stack.remote,
    {
      'platform/vpc.yaml': VPC_YAML,
      'platform/ws.yaml': workspaceYaml('ws-a', 'two boxes'),
      'platform/free.yaml': instanceYaml('ws-a', 'free'),
      'platform/pinned.yaml': pinnedYaml,
    },
    'two boxes, one with its power state in git',
  );
}

/** Instance `name` of ws-a's power state as the platform has it; undefined when absent. */
export async function powerOf(stack: Stack, name: string): Promise<string | undefined> {
  const r = await stack.api('GET', instancePath('ws-a', name));
  return (r.body as { status?: { powerState?: string } } | null)?.status?.powerState;
}
