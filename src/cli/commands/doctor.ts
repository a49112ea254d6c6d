import { type Command, Option } from 'commander';
import { runDoctor } from '../../doctor/checks.js';
import { createProbe } from '../../doctor/probe.js';
import { doctorJson, renderDoctor } from '../../doctor/render.js';
import { httpTransport } from '../../providers/client/transport.js';
import { parseBaseUrl } from '../../providers/client/wire.js';
import { connection, connectionOptions } from '../engine-options.js';
import type { RegisterCommand } from './register.js';

interface DoctorFlags {
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

/**
 * `platctl doctor`: first contact with a platform. Reads only (and one create no platform
 * accepts); prints a table with a fix per failed line and the dialect that fits; exit 1 when a
 * check fails.
 */
export const registerDoctor: RegisterCommand = (program: Command) => {
  connectionOptions(
    program
      .command('doctor')
      .description(
        'Check a platform before the first plan: reachability, auth, reads, clock, rights',
      )
      .addOption(
        new Option('-o, --output <format>', 'report format')
          .choices(['text', 'json'])
          .default('text'),
      ),
  ).action(async (flags: DoctorFlags) => {
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
  });
};
