import {
  acceptCompletion,
  autocompletion,
  type CompletionContext,
  type CompletionResult,
} from "@codemirror/autocomplete";
import { type Extension, Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import type { VariableReference } from "@/common/agentflow/references";

/** The name being typed after an opening `{{` (spaces allowed after the braces), up to the cursor. */
const OPENED = /\{\{\s*[\w$.]*$/;

/**
 * The `{{` autocomplete of a code editor (CodeMirror's: a listbox, arrows to move, Enter or Tab to
 * pick, Escape to close, the mouse too): the names `references` answers at that moment, each with
 * what it is. Picking one writes it and the closing `}}` (unless they follow already). Imported by
 * CodeEditor only, so CodeMirror stays in its lazy chunk.
 */
export function variableCompletion(references: () => VariableReference[]): Extension {
  return [
    autocompletion({ override: [variableSource(references)], activateOnTyping: true, icons: false }),
    Prec.highest(keymap.of([{ key: "Tab", run: acceptCompletion }])),
  ];
}

/** The completion source: after an opening `{{`, every name `references` answers, closing the braces when they are not. */
export function variableSource(references: () => VariableReference[]) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const typed = ctx.matchBefore(OPENED);
    if (!typed) return null;
    const from = typed.from + (/^\{\{\s*/.exec(typed.text)?.[0].length ?? 2);
    const closed = ctx.state.sliceDoc(ctx.pos, ctx.pos + 2) === "}}";
    return {
      from,
      options: references().map((r) => ({
        label: r.name,
        detail: r.detail,
        type: "variable",
        apply: closed ? r.name : `${r.name}}}`,
      })),
      validFor: /^[\w$.]*$/,
    };
  };
}
