/** `platctl import`: the live platform as a manifest set (read → normalize → write → adopt). */

export { IMPORTABLE_KINDS, UNREADABLE_KINDS } from './read.js';
export { importPlatform } from './run.js';
