/**
 * The search worker: find's and grep's Node searches (no fd or ripgrep here), off the host's
 * thread. Bundled apart as dist/search-worker.js (esbuild.mjs); started per search by
 * off-thread-search.ts, which terminates it on Stop or at the deadline.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorText } from "../../shared/error-text";
import { walkFind } from "./find";
import { searchWithNode } from "./grep-search";
import { localWalkIo } from "./io";
import type { SearchAnswer, SearchRequest } from "./off-thread-search";

const request = workerData as SearchRequest;
const signal = new AbortController().signal; // the host stops a search by terminating this thread
const search = request.kind === "grep" ? searchWithNode(localWalkIo, { ...request.query, signal }) : walkFind(localWalkIo, request.pattern, request.root, request.max, signal, request.through);
search.then(
  (ok) => parentPort!.postMessage({ ok } satisfies SearchAnswer),
  (error: unknown) => parentPort!.postMessage({ error: errorText(error) } satisfies SearchAnswer),
);
