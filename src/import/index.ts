/** `platctl import`: the live platform as a manifest set (read → normalize → write → adopt). */

export { IMPORTABLE_KINDS, type ImportScope, UNREADABLE_KINDS } from './read.js';
export { type ImportOptions, type ImportPorts, type ImportResult, importPlatform } from './run.js';
