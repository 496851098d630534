/** Pi's session file format version (docs/session-format.md of the pi package). Apart from schema.ts, so that readers that use only types never build the schemas. */
export const SESSION_VERSION = 3;
