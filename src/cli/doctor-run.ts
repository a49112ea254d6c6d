import { runDoctor } from '../doctor/checks.js';
import { createProbe } from '../doctor/probe.js';
import { doctorJson, renderDoctor } from '../doctor/render.js';
import { httpTransport } from '../providers/client/http-transport.js';
import { parseBaseUrl } from '../providers/client/wire.js';
import { connection } from './engine-config.js';

/** doctor's flags, as commander parses them. */
export interface DoctorFlags {
  output: 'text' | 'json';
  baseUrl?: string;
  apiKeyFile?: string;
  profile?: string;
  config?: string;
  dialect?: string;
}

const GROUPS = {
  infra: 'infra.k8smgmt.io',
  paas: 'paas.envmgmt.io',
  billing: 'billing.envmgmt.io',
};

/** What `platctl doctor` does once its flags are parsed (I/O: reads the platform, stdout). */
export async function runDoctorCommand(flags: DoctorFlags): Promise<void> {
  const conn = await connection(flags);
  const baseUrl = parseBaseUrl(conn.baseUrl);
  const transport = httpTransport({ baseUrl });
  try {
    const probe = createProbe({ baseUrl, key: conn.apiKey, transport, now: Date.now });
    const report = await runDoctor(probe, {
      configured: conn.dialect ?? 'spec',
      now: Date.now,
      groups: { ...GROUPS, ...conn.groups },
    });
    const render = flags.output === 'json' ? doctorJson : renderDoctor;
    process.stdout.write(render(report, baseUrl));
    if (report.checks.some((c) => c.status === 'fail')) process.exitCode = 1;
  } finally {
    transport.close();
  }
}
