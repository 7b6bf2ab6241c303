import { el } from "../render-markdown";
import { canRecord, imageProblem, imageUpload, IMAGE_TYPES, startRecording } from "../media";
import type { Upload } from "../types";
import { icon } from "./icons";

export interface ComposerOptions {
  placeholder: string;
  images: boolean;
  audio: boolean;
  maxBytes: number;
  maxFiles: number;
  onSend: (text: string, uploads: Upload[]) => void;
  onStop: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line; image attachments with previews;
 * a microphone button that records and sends the voice message; Send turns into Stop while busy.
 */
export function createComposer(opts: ComposerOptions) {
  let uploads: Upload[] = [];
  let busy = false;
  let disabled = false;
  let recording: Awaited<ReturnType<typeof startRecording>> | null = null;

  const textarea = el("textarea", {
    rows: "1",
    "aria-label": "Message",
    placeholder: opts.placeholder || "Type your message…",
  });
  const previews = el("div", { class: "previews", "aria-label": "Attached images" });
  const hint = el("div", { class: "hint", role: "alert" });
  const send = el("button", { type: "submit", class: "send", "aria-label": "Send" }, [icon("send")]);
  const fileInput = el("input", {
    type: "file",
    accept: IMAGE_TYPES.join(","),
    multiple: "",
    hidden: "",
    "aria-hidden": "true",
    tabindex: "-1",
  });
  const attach = opts.images
    ? el("button", { type: "button", class: "tool", "aria-label": "Attach image", title: "Attach image" }, [
        icon("image"),
      ])
    : null;
  const mic =
    opts.audio && canRecord()
      ? el("button", { type: "button", class: "tool", "aria-label": "Record voice message", "aria-pressed": "false" }, [
          icon("mic"),
        ])
      : null;
  const form = el("form", {}, [previews, el("div", { class: "bar" }, [attach, fileInput, mic, textarea, send]), hint]);
  hint.hidden = true;

  const showHint = (text: string) => {
    hint.textContent = text;
    hint.hidden = !text;
  };
  const update = () => {
    send.replaceChildren(icon(busy ? "stop" : "send"));
    send.setAttribute("aria-label", busy ? "Stop" : "Send");
    send.disabled = disabled || (!busy && !textarea.value.trim() && !uploads.length);
    previews.hidden = !uploads.length;
    textarea.disabled = disabled;
    if (attach) attach.disabled = disabled;
    if (mic) mic.disabled = busy || disabled;
  };
  const renderPreviews = () => {
    previews.replaceChildren(
      ...uploads.map((u, i) => {
        const remove = el("button", { type: "button", "aria-label": `Remove ${u.name}` }, [icon("close")]);
        remove.addEventListener("click", () => {
          uploads = uploads.filter((_, j) => j !== i);
          renderPreviews();
        });
        return el("div", {}, [el("img", { src: u.data, alt: u.name }), remove]);
      }),
    );
    update();
  };
  const submit = () => {
    if (busy) return opts.onStop();
    const text = textarea.value.trim();
    if (!text && !uploads.length) return;
    opts.onSend(text, uploads);
    textarea.value = "";
    uploads = [];
    showHint("");
    renderPreviews();
    autosize();
  };
  const autosize = () => {
    textarea.style.height = "auto";
    textarea.style.height = `${Math.min(textarea.scrollHeight, 120)}px`;
  };

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    submit();
  });
  textarea.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      if (!busy) submit();
    }
  });
  textarea.addEventListener("input", () => {
    autosize();
    update();
  });
  attach?.addEventListener("click", () => fileInput.click());
  fileInput.addEventListener("change", async () => {
    const files = [...(fileInput.files ?? [])];
    fileInput.value = "";
    for (const f of files) {
      const problem =
        uploads.length >= opts.maxFiles
          ? `At most ${opts.maxFiles} images per message.`
          : imageProblem(f, opts.maxBytes);
      if (problem) {
        showHint(problem);
        continue;
      }
      uploads.push(await imageUpload(f));
    }
    renderPreviews();
  });
  mic?.addEventListener("click", async () => {
    if (recording) {
      const r = recording;
      recording = null;
      mic.classList.remove("recording");
      mic.setAttribute("aria-pressed", "false");
      mic.setAttribute("aria-label", "Record voice message");
      opts.onSend("", [await r.stop()]);
      return;
    }
    try {
      recording = await startRecording();
      mic.classList.add("recording");
      mic.setAttribute("aria-pressed", "true");
      mic.setAttribute("aria-label", "Stop recording and send");
      showHint("");
    } catch {
      showHint("The microphone is not available. Allow it in your browser to send voice messages.");
    }
  });
  update();

  return {
    element: form,
    focus: () => textarea.focus(),
    /** Switches Send/Stop; the box stays editable so the next question can be typed. */
    setBusy(value: boolean) {
      busy = value;
      update();
    },
    /** Turns the whole box off (e.g. this site may not chat). */
    setDisabled(value: boolean) {
      disabled = value;
      update();
    },
    destroy: () => recording?.cancel(),
  };
}
