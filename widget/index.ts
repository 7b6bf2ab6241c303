/**
 * The embed script (built to public/embed.js). Either one tag:
 *   <script src="https://switchyard.example/embed.js" data-chatflow-id="…"></script>
 * or code: Switchyard.init({ chatflowId, apiHost, theme, overrideConfig, mode: "full", target })
 */
import { mountWidget, type WidgetHandle } from "./mount";
import type { WidgetOptions } from "./types";

declare global {
  interface Window {
    Switchyard?: { init: (opts: WidgetOptions) => WidgetHandle };
  }
}

const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src, location.href).origin : location.origin;

const whenReady = (fn: () => void) =>
  document.readyState === "loading" ? document.addEventListener("DOMContentLoaded", fn, { once: true }) : fn();

/** Shows the chat for a chatflow; by default it talks to the server embed.js was loaded from. */
function init(opts: WidgetOptions): WidgetHandle {
  if (!opts?.chatflowId) throw new Error("Switchyard.init: chatflowId is required.");
  return mountWidget(opts, opts.apiHost ?? scriptOrigin);
}

window.Switchyard = { init };

const data = script?.dataset;
if (data?.chatflowId) {
  const { chatflowId, apiHost, mode, target } = data;
  whenReady(() =>
    init({ chatflowId, apiHost, mode: mode === "full" ? "full" : "bubble", target, open: data.open === "true" }),
  );
}
