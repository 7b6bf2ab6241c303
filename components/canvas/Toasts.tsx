"use client";

import { useCallback, useRef, useState } from "react";

export type Toast = { id: number; tone: "error" | "info" | "success"; message: string };
export type PushToast = (tone: Toast["tone"], message: string) => void;

/** A few short-lived messages (refused connections, saves, imports). */
export function useToasts(): [Toast[], PushToast, (id: number) => void] {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((t) => t.filter((x) => x.id !== id)), []);
  const push = useCallback<PushToast>(
    (tone, message) => {
      const id = next.current++;
      setToasts((t) => [...t.slice(-3), { id, tone, message }]);
      setTimeout(() => dismiss(id), tone === "error" ? 8000 : 4000);
    },
    [dismiss],
  );
  return [toasts, push, dismiss];
}

const tones = {
  error: "border-red-200 bg-red-50 text-red-800",
  info: "border-slate-200 bg-white text-slate-800",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
};

export function ToastList({ toasts, onDismiss }: { toasts: Toast[]; onDismiss: (id: number) => void }) {
  return (
    <div
      className="pointer-events-none absolute bottom-4 left-1/2 z-20 flex w-[min(32rem,90%)] -translate-x-1/2 flex-col gap-2"
      aria-live="polite"
    >
      {toasts.map((t) => (
        <div
          key={t.id}
          role={t.tone === "error" ? "alert" : "status"}
          data-testid="toast"
          className={`pointer-events-auto flex items-start gap-3 rounded-lg border px-3 py-2 text-sm shadow-lg ${tones[t.tone]}`}
        >
          <p className="flex-1">{t.message}</p>
          <button
            type="button"
            className="text-xs opacity-60 hover:opacity-100"
            aria-label="Dismiss"
            onClick={() => onDismiss(t.id)}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}
