/**
 * Flowise node types that run code the builder wrote (JavaScript in Flowise's sandbox, commands,
 * code interpreters, schemas evaluated as code). We never run imported code in the server's process:
 * these are refused by name, with the reason, even if a mapping were added for them by mistake. (An
 * agentflow's Custom Function is imported: its code runs in lib/sandbox, without network, files or
 * process, under time and memory limits; an Advanced Structured Output Parser's zod schema is read as
 * text into a JSON schema, never evaluated: lib/flowise/zod-text.ts.)
 */
export const REFUSED_FLOWISE_TYPES: Readonly<Record<string, string>> = {
  customTool: "Custom Tool runs JavaScript written in Flowise; imported code is never run",
  customFunction: "Custom JS Function runs JavaScript written in Flowise; imported code is never run",
  ifElseFunction: "IfElse Function runs JavaScript written in Flowise; imported code is never run",
  customDocumentLoader: "Custom Document Loader runs JavaScript written in Flowise; imported code is never run",
  codeInterpreterE2B: "Code Interpreter runs generated code; it has no equivalent and is never imported",
  pythonInterpreter: "Python Interpreter runs code; it has no equivalent and is never imported",
  chatflowTool:
    "Chatflow Tool calls another Flowise chatflow by id, which does not exist here; rebuild it with our nodes",
};
