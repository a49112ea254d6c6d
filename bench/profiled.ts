import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/** `run` under the inspector's CPU profiler when `file` is given, the profile written there. */
export async function profiled<T>(file: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!file) return run();
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (err, res) => (err ? reject(err) : resolve(res))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}
