/**
 * The one door for foreign JSON (issue #30): text from a file or the wire, or a structured-cloned
 * value from the webview, becomes inert data (no `__proto__`, `constructor` or `prototype` key,
 * null-prototype objects), then is checked against its schema with what does not fit dropped and
 * reported. Platform-free.
 */
export { FORBIDDEN_KEYS, hasForbiddenKey, inertMessage, isRecord, toInertData, type ForeignRecord } from "./data";
export { mayHoldForbiddenKey, parseForeignFrame, parseForeignJson, type ForeignJson } from "./parse";
export { checkForeign, parseForeignFile, type CheckedForeign, type SchemaError, type SchemaValidator } from "./check";
