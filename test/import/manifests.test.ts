import { describe, expect, it } from 'vitest';
import { renderFiles } from '../../src/import/files.js';
import { escapeVariables, manifestOf, passwordVariable } from '../../src/import/manifests.js';
import { substituteString } from '../../src/manifests/variables.js';
import type { LiveObject } from '../../src/model/provider.js';

const live = (body: Record<string, unknown>, extra: Partial<LiveObject> = {}): LiveObject => ({
  key: 'k',
  ref: { kind: body.kind as 'Workspace', name: 'n' },
  body,
  ...extra,
});

describe('import normal form', () => {
  const $ = '$';
  it.each([`${$}{HOME}/x`, `${$}${$}{HOME}`, `a ${$}{A} b ${$}{B_2}`, 'no vars', '$5 {x}'])(
    'escapes %s so that loading it gives the platform text back',
    (text) => {
      const escaped = escapeVariables(text) as string;
      expect(substituteString(escaped, () => 'SUBSTITUTED').value).toBe(text);
    },
  );

  it('names a password variable per user and never carries a password', () => {
    expect(passwordVariable('alice.o@acme.example')).toBe('PLATCTL_PASSWORD_ALICE_O_ACME_EXAMPLE');
    const m = manifestOf(
      live({
        apiVersion: 'platctl.io/v1alpha1',
        kind: 'User',
        metadata: { name: 'bob@x.io' },
        spec: { first_name: 'Bob', last_name: 'B', user_type: 'CONSOLE' },
      }),
    );
    expect(m.spec).toEqual({
      first_name: 'Bob',
      last_name: 'B',
      user_type: 'CONSOLE',
      passwordFrom: { env: 'PLATCTL_PASSWORD_BOB_X_IO' },
    });
  });

  it('keeps an instance that is off off', () => {
    const body = {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'ComputeInstance',
      metadata: { name: 'a', project: 'p', workspace: 'w' },
      spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-h100' }, variables: [] },
    };
    expect(manifestOf(live(body, { powerState: 'off' })).metadata.annotations).toEqual({
      'platctl.io/power-state': 'off',
    });
    expect(manifestOf(live(body, { powerState: 'on' })).metadata.annotations).toBeUndefined();
  });

  it('writes the same files whatever order the platform listed objects in', () => {
    const ws = (name: string, project: string) =>
      manifestOf(
        live({ apiVersion: 'paas.envmgmt.io/v1', kind: 'Workspace', metadata: { name, project } }),
      );
    const svc = manifestOf(
      live({
        apiVersion: 'paas.envmgmt.io/v1',
        kind: 'Service',
        metadata: { name: 'vpc', project: 'b' },
        spec: { serviceProfile: { name: 'vpc' }, serviceType: 'custom', variables: [] },
      }),
    );
    const one = renderFiles([ws('z', 'b'), svc, ws('a', 'b'), ws('m', 'a/x')], 'schema.json');
    const two = renderFiles([ws('m', 'a/x'), ws('a', 'b'), svc, ws('z', 'b')], 'schema.json');
    expect([...one]).toEqual([...two]);
    expect([...one.keys()]).toEqual(['project-a_x.yaml', 'project-b.yaml']);
    const b = one.get('project-b.yaml')!;
    expect(b.startsWith('# yaml-language-server: $schema=schema.json\n')).toBe(true);
    expect(b.indexOf('kind: Service')).toBeLessThan(b.indexOf('name: a'));
    expect(b.indexOf('name: a')).toBeLessThan(b.indexOf('name: z'));
  });
});
