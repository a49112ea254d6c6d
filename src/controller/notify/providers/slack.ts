import { type Alert, type Severity, short } from '../alerts.js';
import { type OutgoingRequest, type Render, USER_AGENT } from './types.js';

/** Attachment colours by severity (Slack's bar beside the message). */
export const SLACK_COLORS: Record<Severity, string> = {
  error: '#d1242f',
  warning: '#d4a72c',
  info: '#2da44e',
};

const TITLES: Record<Alert['kind'], string> = {
  'run-failed': 'Run failed',
  'revision-rejected': 'Revision rejected',
  'drift-detected': 'Drift detected',
  'prune-blocked': 'Prune held for approval',
  'approval-required': 'Run held for policy approval',
  'revision-applied': 'Revision applied',
  recovered: 'Recovered',
};

/** Slack's limit on a section's text is 3000 characters. */
const MAX_TEXT = 2900;

/**
 * A Slack-compatible incoming webhook (Slack, Mattermost, Rocket.Chat): `text` for
 * notifications and clients without blocks, and one attachment coloured by severity holding the
 * blocks: title and summary, the details as a code block, and a context line with the source,
 * revision and run. Pure.
 */
export const renderSlack: Render = (alert, target): OutgoingRequest => {
  const title = `${TITLES[alert.kind]}: ${alert.summary}`;
  const blocks: unknown[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: cut(`*${esc(TITLES[alert.kind])}*\n${esc(alert.summary)}`) },
    },
  ];
  const lines = alert.details.length > 0 ? alert.details : alert.resources;
  if (lines.length > 0) {
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `\`\`\`${cut(esc(lines.join('\n')))}\`\`\`` },
    });
  }
  const context = [
    esc(alert.source),
    ...(alert.revision !== undefined ? [`revision \`${short(alert.revision)}\``] : []),
    ...(alert.runId !== undefined ? [runText(alert.runId, alert.url)] : []),
    ...(alert.replica !== undefined ? [`replica ${esc(alert.replica)}`] : []),
  ].join(' · ');
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: cut(context) }] });
  const payload = {
    text: esc(title),
    attachments: [{ color: SLACK_COLORS[alert.severity], fallback: esc(title), blocks }],
  };
  return {
    url: target.url,
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
    body: JSON.stringify(payload),
  };
};

/** `run <id>`, a link to the run's page when there is one (`<url|text>`). Pure. */
function runText(runId: string, url: string | undefined): string {
  return url ? `<${url}|run ${esc(runId)}>` : `run ${esc(runId)}`;
}

/** Slack's three control characters in text. Pure. */
function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cut(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 3)}...`;
}
