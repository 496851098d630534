/**
 * The script's globals, written in JavaScript and run inside QuickJS before the script. It is a
 * function the worker calls with its host functions as arguments, so they never become globals a
 * script could reach: a script sees only what this defines (non-writable, non-configurable).
 *   call(kind, name, json) → Promise<json>   a tool call or a discovery question, answered by the host
 *   emit(kind, text)                          an output item (text, console line, image as JSON)
 *   storeSet(key, json?) / storeGet(key)      store() and load()
 *   exit()                                    ends the script successfully
 *   settle(ok, text)                          the script's end: its value, or its error
 * It returns the function that starts the script (an async function the worker compiled).
 */
export const PRELUDE = String.raw`(function (call, emit, storeSet, storeGet, exit, settle, toolIdsJson, allToolsJson) {
  "use strict";
  const g = globalThis;
  const parse = (json) => (json === undefined ? undefined : JSON.parse(json));
  const toJson = (value) => {
    const json = JSON.stringify(value);
    return json === undefined ? "null" : json;
  };
  const valueText = (value) => {
    if (typeof value === "string") return value;
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  };
  const define = (name, value) => Object.defineProperty(g, name, { value, writable: false, enumerable: false, configurable: false });

  const tools = Object.create(null);
  for (const id of JSON.parse(toolIdsJson)) {
    tools[id] = (args) => call("tool", id, toJson(args === undefined ? {} : args)).then(parse);
  }
  define("tools", Object.freeze(tools));
  define("ALL_TOOLS", Object.freeze(JSON.parse(allToolsJson).map((t) => Object.freeze(t))));

  const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];
  const fromDataUrl = (url) => {
    const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
    if (!match) throw new TypeError(url.startsWith("data:") ? "image() expects a base64 data: URL" : "image() does not fetch remote URLs: pass a base64 data: URL or an image block");
    return { mimeType: match[1], data: match[2] };
  };
  const imageBlock = (value) => {
    let block;
    if (typeof value === "string") block = fromDataUrl(value);
    else if (value && typeof value === "object" && typeof value.image_url === "string") block = fromDataUrl(value.image_url);
    else if (value && typeof value === "object" && value.image_url && typeof value.image_url.url === "string") block = fromDataUrl(value.image_url.url);
    else if (value && typeof value === "object" && value.type === "image" && typeof value.data === "string" && typeof value.mimeType === "string") block = { mimeType: value.mimeType, data: value.data };
    else throw new TypeError("image() expects a base64 data: URL, an { image_url } object, or an image block { type: \"image\", data, mimeType }");
    if (!IMAGE_TYPES.includes(block.mimeType)) throw new TypeError("image() accepts PNG, JPEG, GIF and WebP, not " + block.mimeType);
    return block;
  };

  define("text", (value) => { emit("text", valueText(value)); });
  define("image", (value) => { emit("image", toJson(imageBlock(value))); });
  const log = (...args) => { emit("console", args.map(valueText).join(" ")); };
  define("console", Object.freeze({ log, info: log, warn: log, error: log, debug: log }));
  define("exit", () => { exit(); });
  define("store", (key, value) => {
    if (typeof key !== "string") throw new TypeError("store() expects a string key");
    storeSet(key, value === undefined ? undefined : toJson(value));
  });
  define("load", (key) => {
    if (typeof key !== "string") throw new TypeError("load() expects a string key");
    return parse(storeGet(key));
  });
  define("searchTools", (query, options) => call("searchTools", "", toJson([query, options === undefined ? null : options])).then(parse));
  define("describeTool", (name) => call("describeTool", "", toJson([name])).then(parse));
  define("describeNamespace", (name) => call("describeNamespace", "", toJson([name])).then(parse));

  const errorText = (error) => {
    if (error instanceof Error) {
      const head = (error.name || "Error") + ": " + error.message;
      return error.stack ? head + "\n" + error.stack : head;
    }
    return "Uncaught " + valueText(error);
  };
  return (script) => {
    script().then(
      (value) => settle(true, value === undefined ? undefined : valueText(value)),
      (error) => settle(false, errorText(error)),
    );
  };
})`;
