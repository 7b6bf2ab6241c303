"use client";

import { useState } from "react";
import { Button, ErrorNote } from "@/components/ui/controls";
import { neverOverridableNames } from "@/common/nodes/override-rules";
import { useEditorStore } from "./editor-context";
import type { ChatbotConfig, LeadsConfig, speechToTextSchema } from "@/common/schemas/chatflow";
import type { z } from "zod";

type SpeechToText = z.infer<typeof speechToTextSchema>;
import type { Chatflow } from "./use-chatflow";
import { ChatbotSettings, cleanChatbotConfig } from "./ChatbotSettings";
import { AppliesTag } from "./AppliesTag";

export type Settings = Pick<Chatflow, "isPublic" | "allowedOrigins" | "rateLimit"> & {
  chatbotConfig: ChatbotConfig;
  /** Sent only when the speech-to-text switch changed (the rest of the saved settings kept). */
  speechToText?: SpeechToText;
  /** Sent only when changed: it is part of a version, so a save of it makes a new draft. */
  overrideAllowList?: string[];
};

const input =
  "w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100";

/**
 * Public switch, allowed origins, rate limit, widget features, chatbot settings, override allow-list
 * and speech-to-text, saved with one PUT. Each part says when it reaches visitors: the access and
 * chatbot settings at once; the allow-list and speech-to-text (run settings, part of a version) only
 * when a version holding them is published, so they are sent only when changed.
 */
export function PublishSettings({
  flow,
  params,
  saving,
  saved,
  error,
  onSave,
  chatbot,
  onChatbot,
}: {
  flow: Chatflow;
  /** The chatbot settings being edited (the dialog's live preview shows them). */
  chatbot: ChatbotConfig;
  onChatbot: (next: ChatbotConfig) => void;
  params: string[];
  saving: boolean;
  /** The version the last save answered with (null before a save): a newer one than before is a new draft. */
  saved: { version: number } | null;
  error: unknown;
  onSave: (s: Settings) => void;
}) {
  const { catalog } = useEditorStore();
  const neverOverridable = neverOverridableNames(catalog.definitions);
  const [isPublic, setPublic] = useState(flow.isPublic);
  const [origins, setOrigins] = useState(flow.allowedOrigins.join("\n"));
  const [limited, setLimited] = useState(flow.rateLimit !== null);
  const [max, setMax] = useState(String(flow.rateLimit?.max ?? 60));
  const [windowSec, setWindowSec] = useState(String(flow.rateLimit?.windowSec ?? 60));
  // Base URLs, servers, specs, files and credentials are never offered (the server refuses them);
  // an older allow-list that still names one loses it on the next save.
  const savedAllow = flow.overrideAllowList.filter((p) => !neverOverridable.includes(p));
  const [allow, setAllow] = useState<string[]>(savedAllow);
  const choices = [...new Set([...params, ...savedAllow])].filter((p) => !neverOverridable.includes(p));
  // Thumbs (our widget and chat page, and flowise-embed) and lead capture (flowise-embed), read from the widget config.
  const widgetConfig = flow.chatbotConfig as ChatbotConfig;
  const savedSpeech = flow.speechToText as Partial<SpeechToText>;
  const [speech, setSpeech] = useState(savedSpeech.enabled === true);
  const [feedback, setFeedback] = useState(widgetConfig.chatFeedback?.status === true);
  const [leads, setLeads] = useState<LeadsConfig>(
    widgetConfig.leads ?? { status: false, title: "", successMessage: "", name: true, email: true, phone: false },
  );
  // The draft version when the last save was sent (a save answering a newer one made a new draft) and
  // the run settings it held.
  const [sent, setSent] = useState({ version: flow.version, runSettings: "" });
  const speechChanged = speech !== (savedSpeech.enabled === true);
  const allowChanged = [...allow].sort().join("\n") !== [...flow.overrideAllowList].sort().join("\n");
  return (
    <form
      className="space-y-4 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200"
      aria-label="Publish settings"
      onSubmit={(e) => {
        e.preventDefault();
        const runSettings = [allowChanged && "override allow-list", speechChanged && "speech-to-text"].filter(Boolean);
        setSent({ version: flow.version, runSettings: runSettings.join(" and ") });
        onSave({
          isPublic,
          ...(allowChanged ? { overrideAllowList: allow } : {}),
          allowedOrigins: origins
            .split(/[\s,]+/)
            .map((o) => o.trim())
            .filter(Boolean),
          rateLimit: limited ? { max: Number(max), windowSec: Number(windowSec) } : null,
          chatbotConfig: cleanChatbotConfig({ ...chatbot, chatFeedback: { status: feedback }, leads }),
          ...(speechChanged ? { speechToText: { ...savedSpeech, enabled: speech } } : {}),
        });
      }}
    >
      <p className="text-xs text-slate-600" data-testid="applies-summary">
        <strong className="font-medium">Public, origins, rate limit, feedback, leads and the chatbot</strong> apply to
        the widget and the chat page as soon as you save.{" "}
        <strong className="font-medium">The override allow-list and speech-to-text</strong> are part of a version, like
        the canvas: saving them makes a new draft, which visitors get when you publish it.
      </p>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          role="switch"
          aria-checked={isPublic}
          className="mt-1 h-4 w-4 accent-brand-600"
          checked={isPublic}
          onChange={(e) => setPublic(e.target.checked)}
        />
        <span className="leading-snug">
          <span className="block text-sm font-medium">
            Public
            <AppliesTag when="now" />
          </span>
          <span className="block text-xs text-slate-500">
            Anyone can chat without an API key (the widget needs this).
          </span>
        </span>
      </label>
      <label className="block text-sm">
        <span className="font-medium">Allowed origins</span>
        <span className="block text-xs text-slate-500">
          One per line, e.g. https://shop.example.com. Empty: no website may embed it (server-to-server calls still
          work).
        </span>
        <textarea
          rows={3}
          className={`${input} mt-1 font-mono text-xs`}
          value={origins}
          onChange={(e) => setOrigins(e.target.value)}
        />
      </label>
      <fieldset className="text-sm">
        <legend className="font-medium">Rate limit</legend>
        <label className="mt-1 flex items-center gap-2 text-xs text-slate-600">
          <input
            type="checkbox"
            className="h-4 w-4 accent-brand-600"
            checked={limited}
            onChange={(e) => setLimited(e.target.checked)}
          />{" "}
          Limit requests per caller
        </label>
        {limited && (
          <div className="mt-2 flex items-center gap-2 text-xs">
            <input
              aria-label="Max requests"
              type="number"
              min={1}
              className={`${input} w-20`}
              value={max}
              onChange={(e) => setMax(e.target.value)}
            />
            <span>per</span>
            <input
              aria-label="Window in seconds"
              type="number"
              min={1}
              className={`${input} w-20`}
              value={windowSec}
              onChange={(e) => setWindowSec(e.target.value)}
            />
            <span>seconds</span>
          </div>
        )}
      </fieldset>
      <OverrideAllowList choices={choices} allow={allow} onChange={setAllow} />
      <fieldset className="text-sm">
        <legend className="font-medium">
          Widget feedback and leads
          <AppliesTag when="now" />
        </legend>
        <p className="text-xs text-slate-500">
          Thumbs under answers in our widget and the chat page (and Flowise&apos;s widget); the contact form in
          Flowise&apos;s widget (flowise-embed). Both shown in Conversations.
        </p>
        <label className="mt-1 flex items-center gap-2 text-xs text-slate-600">
          <input
            type="checkbox"
            className="h-4 w-4 accent-brand-600"
            checked={feedback}
            onChange={(e) => setFeedback(e.target.checked)}
          />
          Ask for feedback (thumbs up / down)
        </label>
        <label className="mt-1 flex items-center gap-2 text-xs text-slate-600">
          <input
            type="checkbox"
            className="h-4 w-4 accent-brand-600"
            checked={leads.status}
            onChange={(e) => setLeads({ ...leads, status: e.target.checked })}
          />
          Ask for contact details (lead capture)
        </label>
        {leads.status && (
          <div className="mt-2 space-y-2 text-xs">
            <input
              aria-label="Lead form title"
              placeholder="Form title, e.g. Let us stay in touch"
              maxLength={200}
              className={input}
              value={leads.title ?? ""}
              onChange={(e) => setLeads({ ...leads, title: e.target.value })}
            />
            <input
              aria-label="Lead form thank-you message"
              placeholder="Thank-you message"
              maxLength={1000}
              className={input}
              value={leads.successMessage ?? ""}
              onChange={(e) => setLeads({ ...leads, successMessage: e.target.value })}
            />
            <div className="flex gap-3">
              {(["name", "email", "phone"] as const).map((field) => (
                <label key={field} className="flex items-center gap-1">
                  <input
                    type="checkbox"
                    className="h-4 w-4 accent-brand-600"
                    checked={leads[field] === true}
                    onChange={(e) => setLeads({ ...leads, [field]: e.target.checked })}
                  />
                  {field === "email" ? "E-mail" : field === "name" ? "Name" : "Phone"}
                </label>
              ))}
            </div>
          </div>
        )}
      </fieldset>
      <ChatbotSettings value={chatbot} onChange={onChatbot} speech={speech} onSpeech={setSpeech} />
      <ErrorNote error={error} />
      <div className="flex items-center justify-end gap-3">
        {saved && !saving && (
          <span className="min-w-0 flex-1 text-xs text-emerald-700" role="status">
            {saved.version > sent.version
              ? `Settings saved. The ${sent.runSettings} change is in draft version ${saved.version}: publish it to apply it; the rest is live now.`
              : "Settings saved: live now on the widget and the chat page."}
          </span>
        )}
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save settings"}
        </Button>
      </div>
    </form>
  );
}

/**
 * The override allow-list: the allowed params stay in view as chips, each with its own remove button;
 * the others are offered below (filterable when there are many) with an add button each.
 */
function OverrideAllowList({
  choices,
  allow,
  onChange,
}: {
  choices: string[];
  allow: string[];
  onChange: (allow: string[]) => void;
}) {
  const [filter, setFilter] = useState("");
  const offered = choices.filter((p) => !allow.includes(p) && p.toLowerCase().includes(filter.trim().toLowerCase()));
  const chip = "inline-flex items-center gap-1 rounded-full py-0.5 font-mono text-[11px] ring-1";
  return (
    <fieldset className="text-sm">
      <legend className="font-medium">
        Override allow-list
        <AppliesTag when="publish" />
      </legend>
      <p className="text-xs text-slate-500">
        Params a caller may change per request in overrideConfig. Never credentials, files, specs or the servers
        requests go to.
      </p>
      <p className="mt-2 text-xs font-medium text-slate-700" id="allowed-params">
        Allowed ({allow.length})
      </p>
      {allow.length === 0 ? (
        <p className="mt-1 text-xs text-slate-500">None: callers cannot override anything.</p>
      ) : (
        <ul className="mt-1 flex flex-wrap gap-1.5" aria-labelledby="allowed-params" data-testid="allowed-params">
          {allow.map((p) => (
            <li key={p} className={`${chip} bg-brand-50 pl-2 pr-0.5 text-brand-700 ring-brand-500`}>
              {p}
              <button
                type="button"
                aria-label={`Remove ${p}`}
                className="grid h-4 w-4 place-items-center rounded-full hover:bg-brand-100"
                onClick={() => onChange(allow.filter((x) => x !== p))}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      {choices.length === 0 ? (
        <p className="mt-2 text-xs text-slate-500">No params in this flow yet.</p>
      ) : (
        <>
          <div className="mt-2 flex items-center justify-between gap-2">
            <p className="whitespace-nowrap text-xs font-medium text-slate-700" id="offered-params">
              Add a param
            </p>
            {choices.length - allow.length > 8 && (
              <input
                type="search"
                aria-label="Filter params"
                placeholder="Filter…"
                className={`${input} w-40 text-xs`}
                value={filter}
                onChange={(e) => setFilter(e.target.value)}
              />
            )}
          </div>
          {offered.length === 0 ? (
            <p className="mt-1 text-xs text-slate-500">
              {choices.length === allow.length ? "Every param is allowed." : "No param matches the filter."}
            </p>
          ) : (
            <ul
              className="mt-1 flex max-h-32 flex-wrap gap-1.5 overflow-y-auto p-0.5"
              aria-labelledby="offered-params"
              data-testid="offered-params"
            >
              {offered.map((p) => (
                <li key={p}>
                  <button
                    type="button"
                    aria-label={`Allow ${p}`}
                    className={`${chip} bg-white px-2 text-slate-600 ring-slate-300 hover:bg-slate-100`}
                    onClick={() => onChange([...allow, p])}
                  >
                    <span aria-hidden>+</span>
                    {p}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </fieldset>
  );
}
