/** Plan and apply rendering, kept apart from computing: text, markdown, JSON. All pure. */
export { renderPlanJson } from './json.js';
export { MARKDOWN_LIMIT, renderPlanMarkdown } from './markdown.js';
export { outcomeSummary, resources, summarize, summaryLine } from './summary.js';
export { colors, describe, renderOutcomesText, renderPlanText } from './text.js';
