import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { PlatctlError } from '../../core/errors.js';
import type { ExpectedFailure } from '../../reconcile/policy-test.js';
import type { RegisterCommand } from './register.js';

/** The file `platctl policy test DIR` reads: the policies and the cases (docs/governance.md). */
const TEST_FILE = 'policy-test.yaml';

interface TestFile {
  policies: string[];
  tests: { name: string; manifests: string[]; live?: string[]; expect?: ExpectedFailure[] }[];
}

/** Reads and checks the shape of DIR's test file (I/O). */
function readTestFile(dir: string): TestFile {
  const file = join(dir, TEST_FILE);
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PlatctlError('usage', `${file}: ${(err as Error).message}`);
  }
  const t = doc as Partial<TestFile> | null;
  if (!t || !Array.isArray(t.policies) || !Array.isArray(t.tests)) {
    throw new PlatctlError('usage', `${file}: needs a policies list of files and a tests list`);
  }
  return t as TestFile;
}

/**
 * `platctl policy test DIR`: each case of DIR/policy-test.yaml loads the policies and its fixture
 * manifests, plans them against an empty platform and checks which rules fail for which manifest
 * against its `expect` list. Exit 1 on any mismatch or invalid input.
 */
export const registerPolicy: RegisterCommand = (program: Command) => {
  const policy = program.command('policy').description('Work with Policy manifests');
  policy
    .command('test')
    .description(
      `Run the policies against fixture manifests with expected outcomes (DIR/${TEST_FILE})`,
    )
    .argument('<dir>', `directory holding ${TEST_FILE}`)
    .action(async (dir: string) => {
      const spec = readTestFile(dir);
      // the engine loads when the command runs, never for its --help
      const [
        { formatDiagnostics, loadAndValidate },
        { createProviderRegistry },
        { runPolicyTest },
      ] = await Promise.all([
        import('../../manifests/index.js'),
        import('../../providers/index.js'),
        import('../../reconcile/policy-test.js'),
      ]);
      const providers = createProviderRegistry();
      let failed = 0;
      for (const t of spec.tests) {
        const paths = [...spec.policies, ...t.manifests].map((p) => join(dir, p));
        const { manifests, diagnostics } = await loadAndValidate({ paths, env: {} });
        // the platform as the case has it: manifest-form fixtures, validated like manifests
        const live = t.live?.length
          ? await loadAndValidate({ paths: t.live.map((p) => join(dir, p)), env: {} })
          : { manifests: [], diagnostics: [] };
        const all = [...diagnostics, ...live.diagnostics];
        if (all.some((d) => d.severity === 'error')) {
          process.stdout.write(`FAIL ${t.name}\n${formatDiagnostics(all, 'human')}`);
          failed++;
          continue;
        }
        const r = runPolicyTest(t.name, manifests, t.expect ?? [], providers, live.manifests);
        const ok = r.missing.length === 0 && r.unexpected.length === 0;
        if (!ok) failed++;
        const lines = [
          `${ok ? 'PASS' : 'FAIL'} ${r.name}`,
          ...r.missing.map((m) => `  expected to fail, passed: ${m}`),
          ...r.unexpected.map((u) => `  failed, not expected: ${u}`),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      process.stdout.write(`${spec.tests.length - failed} passed, ${failed} failed\n`);
      process.exitCode = failed > 0 ? 1 : 0;
    });
};
