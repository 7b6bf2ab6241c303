"use client";

import type { ChatbotConfig, WidgetTheme } from "@/common/schemas/chatflow";
import { AVATAR_MAX_BYTES, MAX_STARTER_PROMPTS } from "@/common/schemas/chatbot-limits";
import { takesImages } from "@/common/nodes/capabilities";
import type { EditorNode } from "@/browser/canvas/types";
import { useEditorState, useEditorStore } from "./editor-context";
import { AppliesTag } from "./AppliesTag";

const input =
  "w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";

/** The widget's colours, each with its default (widget/ui/styles.ts) shown until one is picked. */
const COLOURS: { key: keyof WidgetTheme; label: string; fallback: string }[] = [
  { key: "primaryColor", label: "Accent", fallback: "#4f46e5" },
  { key: "backgroundColor", label: "Background", fallback: "#ffffff" },
  { key: "textColor", label: "Text", fallback: "#1f2937" },
  { key: "botBubbleColor", label: "Bot bubble", fallback: "#f3f4f6" },
  { key: "userBubbleColor", label: "Visitor bubble", fallback: "#4f46e5" },
];

const HEX = /^#[0-9a-f]{6}$/i;

/** Shallow equality of two node lists (the selector below keeps its last answer while unchanged). */
const sameNodes = (a: EditorNode[], b: EditorNode[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/**
 * The chatbot's look and behaviour (issue 14): title, welcome, starter prompts, colours, avatar,
 * position, tool calls shown to visitors (applied at once, not versioned), and the two upload
 * switches. Those two edit the flow's own settings, part of a version (applied when published):
 * "Allow image uploads" of its chat models (on the canvas, saved with the flow) and the
 * chatflow's speech-to-text (saved with these settings).
 */
export function ChatbotSettings({
  value,
  onChange,
  speech,
  onSpeech,
}: {
  value: ChatbotConfig;
  onChange: (next: ChatbotConfig) => void;
  speech: boolean;
  onSpeech: (on: boolean) => void;
}) {
  const store = useEditorStore();
  const { catalog } = store;
  const nodes = useEditorState((s) => s.nodes, sameNodes);
  const imageNodes = nodes.flatMap((n) => {
    const toggle = catalog.get(n.data.defName)?.capabilities?.acceptsImages?.toggle;
    return toggle ? [{ node: n, toggle }] : [];
  });
  const imagesOn = imageNodes.some(({ node }) => {
    const def = catalog.get(node.data.defName);
    return def !== undefined && takesImages(def, node.data.inputs);
  });
  const theme = value.theme ?? {};
  /** A theme key set, or removed with undefined. */
  const setTheme = (patch: Partial<Record<keyof WidgetTheme, string | undefined>>) => {
    const next: Record<string, string> = { ...theme };
    for (const [k, v] of Object.entries(patch)) {
      if (v === undefined) delete next[k];
      else next[k] = v;
    }
    onChange({ ...value, theme: next as WidgetTheme });
  };
  const prompts = value.starterPrompts ?? [];
  const avatar = theme.avatarUrl ?? "";

  return (
    <fieldset className="space-y-3 text-sm">
      <legend className="font-medium">
        Chatbot
        <AppliesTag when="now" />
      </legend>
      <p className="text-xs text-slate-500">How the widget and the full-page chat look and behave.</p>
      <label className="block">
        <span className="text-xs font-medium text-slate-600">Title</span>
        <input
          aria-label="Chatbot title"
          className={`${input} mt-0.5`}
          maxLength={200}
          placeholder="The chatflow's name"
          value={value.title ?? ""}
          onChange={(e) => onChange({ ...value, title: e.target.value })}
        />
      </label>
      <label className="block">
        <span className="text-xs font-medium text-slate-600">Welcome message</span>
        <textarea
          rows={2}
          aria-label="Welcome message"
          className={`${input} mt-0.5`}
          maxLength={2000}
          value={value.welcomeMessage ?? ""}
          onChange={(e) => onChange({ ...value, welcomeMessage: e.target.value })}
        />
      </label>
      <label className="block">
        <span className="text-xs font-medium text-slate-600">Starter prompts</span>
        <span className="block text-xs text-slate-500">One per line, at most {MAX_STARTER_PROMPTS}.</span>
        <textarea
          rows={3}
          aria-label="Starter prompts"
          className={`${input} mt-0.5`}
          value={prompts.join("\n")}
          onChange={(e) =>
            onChange({ ...value, starterPrompts: e.target.value.split("\n").map((p) => p.slice(0, 300)) })
          }
        />
        {prompts.filter((p) => p.trim()).length > MAX_STARTER_PROMPTS && (
          <span className="block text-xs text-red-700" role="alert">
            Too many starter prompts: at most {MAX_STARTER_PROMPTS}.
          </span>
        )}
      </label>
      <div>
        <p className="text-xs font-medium text-slate-600">Colours</p>
        <div className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1.5">
          {COLOURS.map(({ key, label, fallback }) => {
            const current = theme[key];
            return (
              <label key={key} className="flex items-center gap-2 text-xs text-slate-600">
                <input
                  type="color"
                  aria-label={`${label} colour`}
                  className="h-7 w-9 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
                  value={
                    typeof current === "string" && HEX.test(current)
                      ? current
                      : // Unset, the visitor's bubble takes the accent colour (widget/ui/styles.ts).
                        key === "userBubbleColor" && theme.primaryColor && HEX.test(theme.primaryColor)
                        ? theme.primaryColor
                        : fallback
                  }
                  onChange={(e) => setTheme({ [key]: e.target.value })}
                />
                {label}
              </label>
            );
          })}
        </div>
      </div>
      <label className="block">
        <span className="text-xs font-medium text-slate-600">Avatar</span>
        <span className="block text-xs text-slate-500">
          An https:// image URL, or pick a small image (up to {AVATAR_MAX_BYTES / 1024} KB).
        </span>
        <input
          aria-label="Avatar URL"
          className={`${input} mt-0.5 font-mono text-xs`}
          placeholder="https://…"
          value={avatar.startsWith("data:") ? "(uploaded image)" : avatar}
          readOnly={avatar.startsWith("data:")}
          onChange={(e) => setTheme({ avatarUrl: e.target.value.trim() || undefined })}
        />
      </label>
      <div className="flex items-center gap-2 text-xs">
        <label className="cursor-pointer rounded-md px-2 py-1 text-brand-700 ring-1 ring-slate-300 hover:bg-white">
          Choose image…
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            className="sr-only"
            aria-label="Avatar image file"
            onChange={async (e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (!file) return;
              if (file.size > AVATAR_MAX_BYTES) {
                window.alert(`The image is ${Math.ceil(file.size / 1024)} KB; at most ${AVATAR_MAX_BYTES / 1024} KB.`);
                return;
              }
              setTheme({ avatarUrl: await dataUrl(file) });
            }}
          />
        </label>
        {avatar && (
          <button
            type="button"
            className="text-slate-500 hover:underline"
            onClick={() => setTheme({ avatarUrl: undefined })}
          >
            Remove avatar
          </button>
        )}
      </div>
      <label className="block">
        <span className="text-xs font-medium text-slate-600">Position</span>
        <select
          aria-label="Widget position"
          className={`${input} mt-0.5`}
          value={theme.position ?? "right"}
          onChange={(e) => setTheme({ position: e.target.value as "left" | "right" })}
        >
          <option value="right">Bottom right</option>
          <option value="left">Bottom left</option>
        </select>
      </label>
      <label className="flex items-start gap-2 text-xs text-slate-600">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600"
          aria-label="Show tool calls to visitors"
          checked={value.showToolCalls === true}
          onChange={(e) => onChange({ ...value, showToolCalls: e.target.checked })}
        />
        <span>
          Show tool calls to visitors
          <span className="block text-slate-500">Off: visitors never receive them. API keys and the studio do.</span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-xs text-slate-600">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600"
          aria-label="Image uploads"
          checked={imagesOn}
          disabled={imageNodes.length === 0}
          onChange={(e) => {
            for (const { node, toggle } of imageNodes) store.updateParam(node.id, toggle, e.target.checked);
          }}
        />
        <span>
          Image uploads
          <span className="block text-slate-500">
            {imageNodes.length === 0
              ? "No chat model in this flow takes images."
              : "The chat model's “Allow image uploads”, on the canvas: part of the flow, it applies when you publish it."}
          </span>
        </span>
      </label>
      <label className="flex items-start gap-2 text-xs text-slate-600">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 accent-brand-600"
          aria-label="Speech-to-text"
          checked={speech}
          onChange={(e) => onSpeech(e.target.checked)}
        />
        <span>
          Speech-to-text
          <AppliesTag when="publish" />
          <span className="block text-slate-500">A microphone button; questions are transcribed on the server.</span>
        </span>
      </label>
    </fieldset>
  );
}

function dataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** What is sent: blank lines and texts dropped, and a theme value the server would refuse (saved before #rrggbb) left out. */
export function cleanChatbotConfig(c: ChatbotConfig): ChatbotConfig {
  const theme: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.theme ?? {})) {
    if (v === undefined || v === "") continue;
    if (COLOURS.some((col) => col.key === k) && !HEX.test(String(v))) continue;
    if (k === "avatarUrl" && !/^(https:\/\/|data:image\/)/.test(String(v))) continue;
    theme[k] = v;
  }
  return {
    ...c,
    starterPrompts: (c.starterPrompts ?? []).map((p) => p.trim()).filter(Boolean),
    showToolCalls: c.showToolCalls === true,
    theme: theme as WidgetTheme,
  };
}
