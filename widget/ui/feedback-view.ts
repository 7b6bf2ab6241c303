import { el } from "../render-markdown";
import type { FeedbackRating } from "../types";
import { icon } from "./icons";

/** The thumbs under an answer: what was given, what is being sent, and what to call. */
export interface FeedbackOptions {
  rating?: FeedbackRating;
  /** The comment stored with the rating (shown once sent). */
  comment?: string;
  /** A rating or comment on its way: the buttons wait. */
  busy?: boolean;
  /** The comment box after a thumb is open. */
  asking?: boolean;
  error?: string;
  /** The comment typed before a failed send (kept in the box). */
  draft?: string;
  onRate: (rating: FeedbackRating) => void;
  onComment: (text: string) => void;
  onSkip: () => void;
}

const THUMBS = [
  ["THUMBS_UP", "up", "Helpful"],
  ["THUMBS_DOWN", "down", "Not helpful"],
] as const;

/** The optional comment after a thumb (Flowise's "Provide additional feedback"), sent with PUT. */
function commentBox(o: FeedbackOptions): HTMLElement {
  const text = el("textarea", { maxlength: "5000", rows: "2", placeholder: "What was good or missing?" });
  text.value = o.draft ?? "";
  const send = el("button", { type: "button", class: "primary" }, ["Send"]);
  const skip = el("button", { type: "button" }, ["No thanks"]);
  send.disabled = skip.disabled = !!o.busy;
  send.addEventListener("click", () => (text.value.trim() ? o.onComment(text.value.trim()) : o.onSkip()));
  skip.addEventListener("click", o.onSkip);
  return el("div", { class: "comment" }, [
    el("label", {}, ["Tell us more (optional)", text]),
    el("div", { class: "actions" }, [send, skip]),
  ]);
}

/** Thumbs up / down under a stored answer (aria-pressed says which is given); a second thumb changes it. */
export function feedbackView(o: FeedbackOptions): HTMLElement {
  const thumbs = THUMBS.map(([rating, name, label]) => {
    const b = el(
      "button",
      { type: "button", class: `thumb ${name}`, title: label, "aria-pressed": String(o.rating === rating) },
      [icon(name), el("span", { class: "sr" }, [label])],
    );
    b.disabled = !!o.busy;
    b.addEventListener("click", () => o.rating !== rating && o.onRate(rating));
    return b;
  });
  const said = o.rating && !o.asking && !o.busy ? "Thanks for your feedback" : "";
  return el("div", { class: "rating" }, [
    el("div", { class: "thumbs", role: "group", "aria-label": "Rate this answer" }, [
      ...thumbs,
      el("span", { class: "note", role: "status" }, [said]),
    ]),
    o.comment && !o.asking ? el("p", { class: "note said" }, [`“${o.comment}”`]) : null,
    o.asking ? commentBox(o) : null,
    o.error ? el("div", { class: "hint", role: "alert" }, [o.error]) : null,
  ]);
}
