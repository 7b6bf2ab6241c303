import { ignore, oneOf, param, toInteger, toText } from "../rules";

/** The inputs Flowise's hosted embeddings nodes share, onto our hosted embeddings nodes. */
export const embeddingsInputs = {
  modelName: param("model", toText),
  batchSize: param("batchSize", toInteger),
  timeout: ignore(
    "the server's MODEL_TIMEOUT_MS is the embeddings deadline",
    undefined,
    "the embeddings timeout is not carried over: the server's MODEL_TIMEOUT_MS applies",
  ),
  stripNewLines: ignore("stripping new lines has no equivalent", oneOf(false, "false")),
  cache: ignore("an embeddings cache has no equivalent", undefined, "the cache is not carried over"),
};
