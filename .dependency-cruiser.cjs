// The house's layers, written once. A module may import its own layer and the layers below it,
// never one above, and no import may close a circle. `npm run lint` runs this; `npm run arch`
// draws the picture in docs/architecture.md from the same code.
//
//   core → model → manifests | state → providers → reconcile → controller | import | usage → cli
//   (doctor, first contact with a platform, sits on providers and under cli)
//
// The emulator stands apart (it imports core only) and only the commands that start it load it;
// the dashboard's page (web/) is built by Vite and never imported by src/.

/** Each layer and the layers it may import besides itself. */
const LAYERS = {
  core: [],
  model: ['core'],
  manifests: ['core', 'model'],
  state: ['core', 'model'],
  providers: ['core', 'model', 'manifests', 'state'],
  reconcile: ['core', 'model', 'manifests', 'state', 'providers'],
  controller: ['core', 'model', 'manifests', 'state', 'providers', 'reconcile'],
  import: ['core', 'model', 'manifests', 'state', 'providers', 'reconcile'],
  usage: ['core', 'model', 'manifests', 'state', 'providers', 'reconcile'],
  doctor: ['core', 'model', 'providers'],
  cli: ['core', 'model', 'manifests', 'state', 'providers', 'reconcile', 'controller', 'import', 'usage', 'doctor'],
  emulator: ['core'],
};

/** The only product modules that may load the emulator: the commands that start one. */
const EMULATOR_LOADERS = ['^src/cli/emulator-run\\.ts$', '^src/cli/demo-run\\.ts$'];

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only ${[layer, ...allowed].join(', ')} (see the top of this file)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: {
    path: '^src/',
    pathNot: [`^src/(${[layer, ...allowed].join('|')})/`],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules.filter((rule) => rule.name !== 'layer-cli'),
    {
      name: 'layer-cli',
      comment: 'src/cli/ may import every layer, and the emulator only from the commands that start it',
      severity: 'error',
      from: { path: '^src/cli/', pathNot: EMULATOR_LOADERS },
      to: { path: '^src/emulator/' },
    },
    {
      name: 'reconcile-names-its-ports',
      comment:
        'The engine names the ports it needs (src/model/) and providers implement them; only the composition (default-ports.ts) wires the real ones',
      severity: 'error',
      from: { path: '^src/reconcile/', pathNot: '^src/reconcile/default-ports\\.ts$' },
      to: { path: '^src/providers/' },
    },
    {
      name: 'no-circular',
      comment: 'A circle is usually a type in the wrong file: move it down to the module both use',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-web-test-bench',
      comment: 'The product never imports the page, the tests or the benchmarks',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(web|test|bench)/' },
    },
    {
      name: 'web-apart',
      comment: "The dashboard's page talks to the controller over HTTP only",
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^src/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: {
      archi: { collapsePattern: '^src/[^/]+' },
      dot: { collapsePattern: '^src/[^/]+' },
    },
  },
};
