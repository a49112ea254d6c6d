import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/model/action.js';
import type { LoadedManifest, Manifest } from '../../src/model/manifest.js';
import {
  applyPowerRequests,
  namePowerRequests,
  powerGate,
} from '../../src/reconcile/power-requests.js';

const NOW = Date.parse('2026-11-25T10:00:00Z');

function loaded(manifest: Manifest, file: string, line = 1): LoadedManifest {
  const ns = manifest.metadata as { project?: string; workspace?: string };
  const key = [manifest.kind, ns.project, ns.workspace, manifest.metadata.name]
    .filter(Boolean)
    .join('/');
  return {
    manifest,
    key,
    source: { file, line, col: 1 },
    positionOf: () => ({ file, line, col: 1 }),
  } as LoadedManifest;
}

function instance(name: string, annotations?: Record<string, string>): Manifest {
  return {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'ComputeInstance',
    metadata: { name, project: 'ml', workspace: 'gpu', ...(annotations ? { annotations } : {}) },
    spec: { computeType: 'baremetal' },
  } as unknown as Manifest;
}

const schedule = {
  apiVersion: 'platctl.io/v1alpha1',
  kind: 'PowerSchedule',
  metadata: { name: 'nights' },
  spec: {
    timeZone: 'UTC',
    periods: [{ days: ['Mon'], start: '08:00', stop: '20:00' }],
    selector: { names: ['sched'] },
  },
} as unknown as Manifest;

const freeze = (projects: string[]) =>
  ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'ChangeWindow',
    metadata: { name: 'freeze' },
    spec: {
      window: 'deny',
      actions: ['power'],
      projects,
      timeZone: 'UTC',
      dates: [{ from: '2026-11-24', to: '2026-11-26' }],
    },
  }) as unknown as Manifest;

const manifests = [
  loaded(instance('free'), 'gpu.yaml', 3),
  loaded(instance('pinned', { 'platctl.io/power-state': 'off' }), 'gpu.yaml', 20),
  loaded(instance('resets', { 'platctl.io/power-reset': 't1' }), 'gpu.yaml', 40),
  loaded(instance('sched'), 'gpu.yaml', 60),
  loaded(schedule, 'schedules.yaml', 1),
  loaded(freeze(['other']), 'windows.yaml', 1),
];

describe('what git allows of an instance power', () => {
  it('allows power and reboot where git pins neither, and says where git pins them', () => {
    expect(powerGate(manifests, 'ComputeInstance/ml/gpu/free', NOW)).toEqual({
      state: true,
      reboot: true,
    });
    expect(powerGate(manifests, 'ComputeInstance/ml/gpu/pinned', NOW)).toEqual({
      state: 'git pins its power state: platctl.io/power-state: "off" at gpu.yaml:20',
      reboot: true,
    });
    expect(powerGate(manifests, 'ComputeInstance/ml/gpu/sched', NOW)?.state).toBe(
      'git pins its power state: PowerSchedule/nights selects it (schedules.yaml:1)',
    );
    expect(powerGate(manifests, 'ComputeInstance/ml/gpu/resets', NOW)?.reboot).toBe(
      'git asks for its resets: platctl.io/power-reset at gpu.yaml:40',
    );
    expect(powerGate(manifests, 'Workspace/ml/gpu', NOW)).toBeUndefined();
  });

  it("allows nothing while a change window holds power actions for the instance's project", () => {
    const frozen = [...manifests, loaded(freeze(['ml']), 'windows.yaml', 9)];
    const gate = powerGate(frozen, 'ComputeInstance/ml/gpu/free', NOW);
    expect(gate?.state).toMatch(/^change window ChangeWindow\/freeze holds power actions until /);
    expect(gate?.reboot).toBe(gate?.state);
  });
});

describe("an operator's power requests in a run", () => {
  const desired = manifests.map((m) => m.manifest).filter((m) => m.kind === 'ComputeInstance');
  const requests = {
    'ComputeInstance/ml/gpu/free': { state: 'off' as const, reset: 'r1', at: 'T' },
    'ComputeInstance/ml/gpu/pinned': { state: 'on' as const, at: 'T' },
    'ComputeInstance/ml/gpu/resets': { reset: 'r2', at: 'T' },
    'ComputeInstance/ml/gpu/sched': { state: 'off' as const, at: 'T' },
  };
  const annotations = (ms: Manifest[]) => ms.map((m) => m.metadata.annotations ?? {});

  it('declares what was asked where git pins nothing; git wins elsewhere', () => {
    const out = applyPowerRequests(desired, requests, new Set(['ComputeInstance/ml/gpu/sched']));
    expect(annotations(out)).toEqual([
      { 'platctl.io/power-state': 'off', 'platctl.io/power-reset': 'r1' },
      { 'platctl.io/power-state': 'off' },
      { 'platctl.io/power-reset': 't1' },
      {},
    ]);
    expect(annotations(desired)[0]).toEqual({}); // its input is not changed
    expect(applyPowerRequests(desired, undefined, new Set())).toEqual(desired);
  });

  it('names the request in the reason of its power action', () => {
    const stop = {
      id: 'ComputeInstance/ml/gpu/free#power',
      key: 'ComputeInstance/ml/gpu/free',
      type: 'power',
      powerAction: 'stop',
      reason: {
        code: 'power-state',
        message: 'compute instance ml/gpu/free should be powered off, is on',
      },
    } as unknown as Action;
    const plan = namePowerRequests(
      { formatVersion: 1, actions: [stop], diagnostics: [] },
      requests,
    );
    expect(plan.actions[0]?.reason.message).toBe(
      'compute instance ml/gpu/free should be powered off, is on (requested through the control API at T)',
    );
  });
});
