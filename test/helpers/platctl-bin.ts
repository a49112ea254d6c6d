import { fileURLToPath } from 'node:url';

/**
 * The built CLI (dist/), which the suite's global setup keeps as new as src/
 * (test/helpers/build-setup.ts). Tests start it with plain `node`: a start through tsx
 * transpiles every module it loads, about 0.85 s of CPU against 0.27 s for the build, and the
 * suite starts the CLI hundreds of times. The few tests about starting from the sources
 * (bin-staleness, cli-lazy) run bin/platctl.js or src/ themselves.
 */
export const PLATCTL_JS = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));
