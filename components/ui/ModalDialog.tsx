"use client";

import { type ReactNode, useEffect, useRef } from "react";

/**
 * The studio's modal dialog: a backdrop (a click on it closes), Escape closes, focus moves into the
 * dialog on open, and a header with the title, an optional line under it and a Close button. The
 * body (and any footer) is the caller's.
 */
export function ModalDialog({
  titleId,
  title,
  subtitle,
  widthClass = "max-w-2xl",
  onClose,
  children,
}: {
  titleId: string;
  title: ReactNode;
  subtitle?: ReactNode;
  /** Tailwind max-width of the dialog. */
  widthClass?: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop is a mouse shortcut; Escape and the Close button are the keyboard ways out
    <div
      className="fixed inset-0 z-30 grid place-items-center bg-slate-900/40 p-4"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={dialog}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className={`flex max-h-[calc(100vh-2rem)] w-full ${widthClass} flex-col overflow-hidden rounded-xl bg-white shadow-2xl outline-none`}
      >
        <header className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
          <div>
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            {subtitle && <p className="text-xs text-slate-500">{subtitle}</p>}
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="grid h-8 w-8 place-items-center rounded-md text-slate-500 hover:bg-slate-100"
          >
            ✕
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}
