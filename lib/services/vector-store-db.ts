import { getDb } from "../db/client";
import { createDocumentStore } from "../vector/chunk-store";

/** The process's chunk store on the app database, given to node runtimes by buildContext. */
export const documentStore = createDocumentStore(getDb as never);
