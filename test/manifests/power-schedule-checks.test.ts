import { describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';

const instance = (name: string, labels = '', annotations = '') => `apiVersion: paas.envmgmt.io/v1
kind: ComputeInstance
metadata:
  name: ${name}
  project: ml
  workspace: ws
${labels}${annotations}spec:
  computeType: baremetal
  computeProfile: { name: bmaas-l40s }
  variables: []
---
`;

const WORKSPACE = `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata: { name: ws, project: ml }
---
apiVersion: paas.envmgmt.io/v1
kind: Service
metadata: { name: vpc, project: ml }
spec:
  serviceProfile: { name: vpc }
  serviceType: custom
  variables:
    - { name: Default VPC Name, value: v }
    - { name: Default Subnet CIDR, value: 10.0.0.0/16 }
    - { name: Default Subnet Gateway, value: 10.0.0.1 }
    - { name: Public IP Enabled, value: "False" }
---
`;

const schedule = (name: string, body: string) => `apiVersion: platctl.io/v1alpha1
kind: PowerSchedule
metadata:
  name: ${name}
spec:
${body}---
`;

const GOOD = `  timeZone: Europe/Berlin
  periods:
    - { days: [Mon, Tue, Wed, Thu, Fri], start: "08:00", stop: "20:00" }
    - { days: [Sat], start: "22:00", stop: "02:00" }
  selector:
    labels: { team: ml }
`;

const load = (text: string) => loadAndValidate({ paths: ['-'], stdin: text, env: {} });
const brief = (r: Awaited<ReturnType<typeof load>>) =>
  r.diagnostics.map((d) => [d.severity, d.code, d.path, d.line, d.col]);

describe('PowerSchedule at validate', () => {
  it('a good schedule selecting an instance is no diagnostic', async () => {
    const r = await load(
      WORKSPACE + instance('gpu-1', '  labels: { team: ml }\n') + schedule('office', GOOD),
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.manifests.map((m) => m.key)).toContain('PowerSchedule/office');
  });

  it('refuses an unknown time zone, an empty period and overlapping periods at their lines', async () => {
    const bad = `  timeZone: Europe/Atlantis
  periods:
    - { days: [Mon, Tue], start: "08:00", stop: "20:00" }
    - { days: [Wed], start: "09:00", stop: "09:00" }
    - { days: [Tue], start: "19:00", stop: "21:00" }
    - { days: [Sun], start: "23:00", stop: "01:00" }
    - { days: [Mon], start: "00:00", stop: "00:30" }
  selector: { projects: [ml] }
`;
    const r = await load(WORKSPACE + instance('gpu-1') + schedule('broken', bad));
    expect(r.manifests).toEqual([]);
    // the text is read from stdin: lines count from the first document
    expect(brief(r)).toEqual([
      ['error', 'power-schedule', 'spec.timeZone', 33, 13],
      ['error', 'power-schedule', 'spec.periods[1]', 36, 7],
      ['error', 'power-schedule', 'spec.periods[2]', 37, 7],
      ['error', 'power-schedule', 'spec.periods[4]', 39, 7],
    ]);
    expect(r.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/^time zone "Europe\/Atlantis" is not an IANA time zone/),
      'period Wed 09:00–09:00 is empty: its start is its stop',
      'period Tue 19:00–21:00 overlaps period 1 (Mon,Tue 08:00–20:00)',
      'period Mon 00:00–00:30 overlaps period 4 (Sun 23:00–01:00)',
    ]);
  });

  it('refuses a bad time and a bad exception through the schema', async () => {
    const r = await load(
      WORKSPACE +
        instance('gpu-1', '', '  annotations: { platctl.io/keep-on-until: tomorrow }\n') +
        schedule(
          'bad-time',
          GOOD.replace('"20:00"', '"25:00"').replace('labels: { team: ml }', 'projects: [ml]'),
        ),
    );
    expect(r.diagnostics.map((d) => [d.code, d.path, d.message])).toEqual([
      [
        'invalid-value',
        'metadata.annotations["platctl.io/keep-on-until"]',
        expect.stringMatching(/RFC 3339/),
      ],
      ['invalid-value', 'spec.periods[0].stop', expect.stringMatching(/HH:MM from 00:00 to 24:00/)],
    ]);
  });

  it('warns about a selector that selects nothing, refuses an instance selected twice', async () => {
    const none = await load(
      WORKSPACE + instance('gpu-1') + schedule('office', GOOD.replace('team: ml', 'team: x')),
    );
    expect(brief(none)).toEqual([['warning', 'power-schedule', 'spec.selector', 38, 5]]);
    const twice = await load(
      WORKSPACE +
        instance('gpu-1', '  labels: { team: ml }\n') +
        schedule('office', GOOD) +
        schedule('nights', GOOD.replace('labels: { team: ml }', 'names: ["gpu-*"]')),
    );
    expect(twice.diagnostics.map((d) => [d.severity, d.key, d.message])).toEqual([
      [
        'error',
        'PowerSchedule/nights',
        'ComputeInstance/ml/ws/gpu-1 is already selected by schedule office: an instance follows one schedule',
      ],
    ]);
  });
});
