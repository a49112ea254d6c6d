/** Plan and apply rendering, kept apart from computing: text, markdown, JSON. All pure. */
export { renderPlanJson } from './json.js';
export { renderPlanMarkdown } from './markdown.js';
export { summarize } from './summary.js';
export { colors, renderOutcomesText, renderPlanText } from './text.js';
