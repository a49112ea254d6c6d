import type { IncomingMessage, ServerResponse } from 'node:http';
import { runItem } from '../status/history.js';
import { apiStatus, type SourceView } from './control-views.js';
import type { ControllerControls } from './controls.js';

/** How often the stream looks for a status change. */
const STATUS_POLL_MS = 1000;
const PING_MS = 15_000;

/** What the event stream reads: the status, each finished run, and where desired state comes from. */
export interface EventStreamDeps {
  readonly controls: Pick<ControllerControls, 'status' | 'onRun'>;
  readonly source: SourceView;
  readonly now: () => number;
}

/**
 * `GET /api/v1/events` (text/event-stream): a `status` event with the status JSON at once and
 * whenever it changes (`nextRunInMs` aside, which changes every moment), a `run` event with each
 * finished run, and a `: ping` comment every 15 s. Ends when the client goes away.
 */
export function streamEvents(
  req: IncomingMessage,
  res: ServerResponse,
  deps: EventStreamDeps,
): true {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const event = (name: string, data: unknown) =>
    res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  let last = '';
  const sendStatus = () => {
    const view = apiStatus(deps.controls.status, deps.source, deps.now());
    const { nextRunInMs: _n, ...comparable } = view;
    const text = JSON.stringify(comparable);
    if (text === last) return;
    last = text;
    event('status', view);
  };
  sendStatus();
  const poll = setInterval(sendStatus, STATUS_POLL_MS);
  const ping = setInterval(() => res.write(': ping\n\n'), PING_MS);
  const offRun = deps.controls.onRun((run) => {
    event('run', runItem(run));
    sendStatus();
  });
  const end = () => {
    clearInterval(poll);
    clearInterval(ping);
    offRun();
  };
  req.on('close', end);
  res.on('close', end);
  return true;
}
