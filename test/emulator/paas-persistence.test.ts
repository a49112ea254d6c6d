import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BILLING,
  createWorkspace,
  deployVpc,
  k8sBody,
  P,
  startPaas,
} from './fixtures-paas/harness.js';

describe('PaaS state across an emulator restart (SQLite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platctl-paas-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps services, workspaces, a provisioning GPU Kubernetes instance and its usage', async () => {
    const options = {
      apiKey: `test_${randomBytes(16).toString('hex')}`,
      dataFile: join(dir, 'emu.db'),
    };
    const ci = `${P}/platform/workspaces/ws/computeinstances`;
    const first = await startPaas(options);
    await createWorkspace(first);
    await deployVpc(first);
    expect((await first.call('POST', ci, k8sBody('gpu-1'))).status).toBe(201);
    expect((await first.call('POST', `${ci}/gpu-1/publish`)).status).toBe(202);
    await first.advance(100);
    await first.close();

    const second = await startPaas(options);
    try {
      expect((await second.call('GET', `${P}/platform/services/vpc`)).body.status.status).toBe(
        'deployed',
      );
      expect((await second.call('GET', `${P}/platform/workspaces/ws`)).status).toBe(200);
      expect((await second.call('GET', `${ci}/gpu-1?computeType=k8s`)).body.status.status).toBe(
        'provisioning',
      );
      await second.advance(200 + 3600);
      const read = await second.call('GET', `${ci}/gpu-1?computeType=k8s`);
      expect(read.body.status).toMatchObject({ status: 'success', powerState: 'on' });
      expect(read.body.spec.variables[0]).toEqual({
        name: 'Cluster Kubernetes Version',
        value: 'v1.29.4',
      });
      const list = await second.call('GET', `${P}/platform/computeinstances?computeType=k8s`);
      expect(list.body.items[0].status.status).toBe('success');
      const now = await second.now();
      const report = await second.call(
        'GET',
        `${BILLING}/profile/kind/compute/usage?range_from=${new Date(now - 7200_000).toISOString()}&range_to=${new Date(now).toISOString()}`,
      );
      expect(report.body.profile_usage_data[0]).toMatchObject({
        profile_name: 'gpu-k8s',
        usage: '1.00h',
      });
    } finally {
      await second.close();
    }
  });
});
