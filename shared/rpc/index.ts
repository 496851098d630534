export * from "./client";
export * from "./capabilities";
export * from "./dialogs";
export * from "./errors";
export * from "./host-tool-registry";
export * from "./message-builder";
export * from "./partial-json";
export * from "./transport";
