"use client";

import { type ReactNode, useEffect, useRef } from "react";

/** Elements Tab can reach inside `root`, in document order, looking into open shadow roots (the widget preview). */
function tabbables(root: Element | ShadowRoot): HTMLElement[] {
  const found: HTMLElement[] = [];
  const visit = (node: Element | ShadowRoot) => {
    for (const el of Array.from(node.children)) {
      if (el instanceof HTMLElement && isTabbable(el)) found.push(el);
      if (el.shadowRoot) visit(el.shadowRoot);
      if (!(el instanceof HTMLElement) || !el.hidden) visit(el);
    }
  };
  visit(root);
  return found;
}

function isTabbable(el: HTMLElement): boolean {
  if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled) return false;
  if (el.closest("[inert]")) return false;
  const rect = el.getBoundingClientRect();
  return rect.width > 0 || rect.height > 0 || el.getClientRects().length > 0;
}

/** The focused element, looking into open shadow roots (document.activeElement stops at the shadow host). */
function deepActiveElement(): Element | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el;
}

/**
 * The studio's modal dialog: a backdrop (a click on it closes), Escape closes, and a header with the
 * title, an optional line under it and a Close button. Focus moves into the dialog on open, stays
 * inside it while it is open (Tab and Shift+Tab wrap round, focus landing outside is brought back) and
 * returns to the element that opened it on close. The body (and any footer) is the caller's.
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
  const close = useRef(onClose);
  close.current = onClose;

  // Once per opening: focus in, keep it in, give it back to the opener on close.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close.current();
      const box = dialog.current;
      if (e.key !== "Tab" || !box) return;
      // Tab past the last element comes round to the first, Shift+Tab before the first to the last.
      const all = tabbables(box);
      if (all.length === 0) {
        e.preventDefault();
        box.focus();
        return;
      }
      const active = deepActiveElement();
      const at = all.indexOf(active as HTMLElement);
      // -1: the dialog itself (focused on open), an element Tab does not stop at, or something outside.
      const outside = !box.contains(document.activeElement);
      const wrap = e.shiftKey
        ? at === 0 || active === box || (at === -1 && outside)
        : at === all.length - 1 || (at === -1 && outside);
      if (!wrap) return;
      e.preventDefault();
      (e.shiftKey ? all[all.length - 1] : all[0]).focus();
    };
    const onFocusIn = (e: FocusEvent) => {
      const box = dialog.current;
      const target = e.target as Node | null;
      if (!box || !target || box.contains(target)) return;
      // Another dialog or menu opened above this one (e.g. a confirm) keeps its focus.
      if (target instanceof Element && target.closest('[role="dialog"], [role="alertdialog"]')) return;
      box.focus();
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("focusin", onFocusIn);
      if (opener?.isConnected) opener.focus();
    };
  }, []);

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
            {subtitle && <p className="text-xs text-slate-600">{subtitle}</p>}
          </div>
          <button
            type="button"
            aria-label="Close"
            onClick={onClose}
            className="grid h-8 w-8 place-items-center rounded-md text-slate-600 hover:bg-slate-100"
          >
            ✕
          </button>
        </header>
        {children}
      </div>
    </div>
  );
}
