// The sections of the audit page, each in a module of its own.
export { statusMark, formatDuration, readableTime } from './marks.js';
export { outcomeSection, decisionsSection } from './topSections.js';
export { toolCallsSection } from './toolCallsSection.js';
export { timelineSection } from './timelineSection.js';
export { conversationSection, warningsAndStopsSection } from './historySections.js';
