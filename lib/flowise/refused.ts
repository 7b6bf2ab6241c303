/**
 * Flowise node types that run code the builder wrote (JavaScript in Flowise's sandbox, commands,
 * code interpreters, schemas evaluated as code). We never run imported code in the server's process:
 * these are refused by name, with the reason, even if a mapping were added for them by mistake. (An
 * agentflow's and a chatflow's Custom Function and a Custom Tool are imported: their code runs in
 * lib/sandbox, without files or process, under time and memory limits, a Custom Tool's network only
 * through the outbound guard; a zod schema is read as text into a JSON schema, never evaluated:
 * lib/flowise/zod-text.ts.)
 */
export const REFUSED_FLOWISE_TYPES: Readonly<Record<string, string>> = {
  ifElseFunction: "IfElse Function runs JavaScript written in Flowise; imported code is never run",
  customDocumentLoader: "Custom Document Loader runs JavaScript written in Flowise; imported code is never run",
  codeInterpreterE2B: "Code Interpreter runs generated code; it has no equivalent and is never imported",
  pythonInterpreter: "Python Interpreter runs code; it has no equivalent and is never imported",
  chatflowTool:
    "Chatflow Tool calls another Flowise chatflow by id, which does not exist here; rebuild it with our nodes",
};

/**
 * Flowise node types with no equivalent here, refused by name with what to use instead (the words of
 * the import's refusal). They run no code; they are listed so the refusal says why, not only "no
 * equivalent node type".
 */
export const NO_EQUIVALENT_FLOWISE_TYPES: Readonly<Record<string, string>> = {
  openAIAssistant:
    "OpenAI Assistant runs on OpenAI's Assistants API, which OpenAI retired; rebuild it with a Tool Agent (chatflow) or an Agent step (agentflow) on a chat model",
};
